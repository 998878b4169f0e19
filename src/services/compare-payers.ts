// Cross-payer compare within one state (spec endpoint 4): every payer the corpus knows in the state (Medicaid
// MCOs, the FFS agency, MA plans, Part D sponsors, ...) with its rule for one drug class or service category.
// Payers the corpus lists for the state but without a rule for the subject appear as gaps, unless the subject is
// outside the payer's program (a Part D sponsor for a non-drug service). The program-level
// rules of the state are given alongside as the default a payer-level rule refines.
import type { CoverageRuleDoc, PayerDoc } from '../domain/documents.js';
import { PROGRAM_LABELS, PROGRAMS, type Program } from '../domain/vocabulary.js';
import { outsideProgram, type OutsideProgram } from '../domain/program-scope.js';
import { outsideFor } from '../corpus/program-gap.js';
import { payerRuleKey, ruleKey, type ReadModel } from '../corpus/read-model.js';
import { toQueryEcho, type SubjectQuery } from './lookup.js';
import { GAP_RULE_FIELDS, nullFields, toPaRule, type PaRule } from './pa-rule.js';
import type { CodeResolution } from '../corpus/resolve-code.js';

export interface ComparePayersQuery {
  state: string;
  subject: SubjectQuery;
  /** Optional filter to one program. */
  program?: Program;
  code?: CodeResolution;
}

interface PayerHead {
  payer_id: string;
  payer_name: string;
  payer_kind: string | null;
  program: Program;
}

export type PayerItem =
  | (PayerHead & { gap: false } & PaRule)
  | (PayerHead & { gap: true; pa_required: null; pa_type: null; confidence: null; notes: null; source_url: null; last_verified: null });

export interface ComparePayersBody {
  state: string;
  program: Program | null;
  query: Record<string, string>;
  code_resolution: CodeResolution | null;
  summary: {
    total: number;
    with_rule: number;
    gaps: number;
    require_pa: number;
    no_pa: number;
    /** Payers whose rule says the subject is not covered (additive; not counted in no_pa). */
    not_covered: number;
    /** Programs whose program-level rule says the subject is not covered (what a payer without its own rule follows). */
    programs_not_covered: Program[];
    divergence: boolean;
    divergence_summary: string;
  };
  payers: PayerItem[];
  program_rules: (PaRule & { program: Program })[];
  /** With a program filter: where no rule will exist for it here (a Part D service; managed care in a state with no plans). */
  outside_program?: OutsideProgram;
  served_from: 'api';
}

const programIndex = (p: string): number => PROGRAMS.indexOf(p as Program);

function byProgramThenName(a: PayerHead, b: PayerHead): number {
  return (
    programIndex(a.program) - programIndex(b.program) ||
    a.payer_name.localeCompare(b.payer_name, 'en') ||
    (a.payer_id < b.payer_id ? -1 : a.payer_id > b.payer_id ? 1 : 0)
  );
}

/** What the program-level rules say, in one sentence: the default every payer in the program follows unless its own rule differs. */
function programRulesSentence(rules: readonly (PaRule & { program: Program })[]): string {
  if (!rules.length) return '';
  const says = (r: PaRule): string =>
    `${r.not_covered ? 'does not cover it' : r.pa_mode === 'plan_may_require' ? 'lets the plan require PA' : r.pa_required ? 'requires PA' : 'does not require PA'}${r.applies_to ? ` (for ${r.applies_to} only)` : ''}`;
  return `Program rules (what a payer without its own rule follows): ${rules.map((r) => `${PROGRAM_LABELS[r.program]} ${says(r)}`).join('; ')}.`;
}

function summarize(items: readonly PayerItem[], programRules: readonly (PaRule & { program: Program })[]): ComparePayersBody['summary'] {
  const withAnyRule = items.filter((i) => !i.gap) as (PayerHead & PaRule)[];
  // A payer that excludes the subject neither requires PA nor waives it: it is named apart (not covered).
  const excluded = withAnyRule.filter((i) => i.not_covered === true);
  const withRule = withAnyRule.filter((i) => i.not_covered !== true);
  const yes = withRule.filter((i) => i.pa_required);
  const no = withRule.filter((i) => !i.pa_required);
  const names = (xs: readonly PayerHead[]): string => xs.map((x) => `${x.payer_name} (${x.program})`).join(', ');
  const sentences: string[] = [];
  let divergence = excluded.length > 0 && withRule.length > 0;
  if (excluded.length) sentences.push(`Not covered (no PA route; a claim will be denied) by ${names(excluded)}.`);
  if (!withRule.length) {
    if (!excluded.length) sentences.push(items.length ? `None of the ${items.length} payers known in the state has a verified rule for this subject.` : 'The corpus knows no payer in this state for this subject.');
  } else if (yes.length && no.length) {
    divergence = true;
    const [major, minor, word] = yes.length >= no.length ? [yes, no, 'without PA'] : [no, yes, 'requiring PA'];
    sentences.push(
      yes.length === no.length
        ? `Payers are split evenly: PA required by ${names(yes)}; not required by ${names(no)}.`
        : `${major === yes ? 'PA required' : 'PA not required'} by ${major.length} of ${withRule.length} payers with a rule; outlier${minor.length > 1 ? 's' : ''} ${word}: ${names(minor)}.`,
    );
  } else {
    sentences.push(
      withRule.length === 1
        ? `The only payer with a rule, ${names(withRule)}, ${yes.length ? 'requires PA' : 'does not require PA'}.`
        : yes.length
          ? `All ${withRule.length} payers with a rule require PA.`
          : `None of the ${withRule.length} payers with a rule requires PA.`,
    );
  }
  const types = new Set(yes.map((i) => i.pa_type));
  if (types.size > 1) {
    divergence = true;
    sentences.push(`PA types differ: ${[...types].map((t) => `${t} (${yes.filter((i) => i.pa_type === t).length})`).join(', ')}.`);
  }
  const gaps = items.length - withAnyRule.length;
  if (gaps && withAnyRule.length) sentences.push(`${gaps} payer${gaps > 1 ? 's' : ''} known in the state ha${gaps > 1 ? 've' : 's'} no verified rule for this subject.`);
  const programs = programRulesSentence(programRules);
  if (programs) sentences.push(programs);
  return {
    total: items.length,
    with_rule: withAnyRule.length,
    gaps,
    require_pa: yes.length,
    no_pa: no.length,
    not_covered: excluded.length,
    programs_not_covered: programRules.filter((r) => r.not_covered === true).map((r) => r.program),
    divergence,
    divergence_summary: sentences.join(' '),
  };
}

/** The summary of a program no rule will come for: its last sentence says why and where to ask. */
function withOutside(summary: ComparePayersBody['summary'], outside: OutsideProgram | undefined): ComparePayersBody['summary'] {
  return outside ? { ...summary, divergence_summary: `${summary.divergence_summary} ${outside.reason}` } : summary;
}

function payersIn(model: ReadModel, state: string): PayerDoc[] {
  return [...model.payers.values()].filter((p) => p.jurisdictions.includes(state));
}

const cache = new WeakMap<ReadModel, Map<string, Omit<ComparePayersBody, 'code_resolution'>>>();

function build(model: ReadModel, q: ComparePayersQuery): Omit<ComparePayersBody, 'code_resolution'> {
  const { state, subject } = q;
  const rules: readonly CoverageRuleDoc[] = model.payerRules.get(payerRuleKey(state, subject.kind, subject.code)) ?? [];
  const items: PayerItem[] = [];
  const covered = new Set<string>();
  for (const r of rules) {
    if (q.program && r.program !== q.program) continue;
    const doc = model.payers.get(r.payer!.id);
    covered.add(`${r.payer!.id}|${r.program}`);
    items.push({ payer_id: r.payer!.id, payer_name: r.payer!.name, payer_kind: doc?.kind ?? null, program: r.program, gap: false, ...toPaRule(r) });
  }
  for (const p of payersIn(model, state)) {
    for (const program of p.programs) {
      if ((q.program && program !== q.program) || covered.has(`${p.id}|${program}`) || outsideProgram(program, subject)) continue;
      items.push({
        payer_id: p.id,
        payer_name: p.name,
        payer_kind: p.kind,
        program,
        gap: true,
        ...nullFields(GAP_RULE_FIELDS),
      });
    }
  }
  items.sort(byProgramThenName);
  const programRules: (PaRule & { program: Program })[] = [];
  for (const program of PROGRAMS) {
    if (q.program && program !== q.program) continue;
    const r = model.rules.get(ruleKey(state, program, subject.kind, subject.code));
    if (r) programRules.push({ program, ...toPaRule(r) });
  }
  const outside = q.program ? outsideFor(model, { state, program: q.program, subject }) : undefined;
  return {
    state,
    program: q.program ?? null,
    query: toQueryEcho(subject),
    summary: withOutside(summarize(items, programRules), outside),
    payers: items,
    program_rules: programRules,
    ...(outside ? { outside_program: outside } : {}),
    served_from: 'api',
  };
}

export function comparePayers(model: ReadModel, q: ComparePayersQuery): ComparePayersBody {
  let byKey = cache.get(model);
  if (!byKey) {
    byKey = new Map();
    cache.set(model, byKey);
  }
  const key = `${q.state}|${q.subject.kind}|${q.subject.code}|${q.program ?? ''}`;
  let body = byKey.get(key);
  if (!body) {
    body = build(model, q);
    byKey.set(key, body);
  }
  const query = q.code ? { ...body.query, code: q.code.code } : body.query;
  return { ...body, query, code_resolution: q.code ?? null };
}
