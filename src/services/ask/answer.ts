// POST /v1/ask: a free-text question answered from the corpus. The extraction says what was read; hints in the
// body win over the text; every rule in the answer carries its citation; what is missing or ambiguous is asked
// back with the choices; supporting passages come from the full-text index (grounding: keyword).
import { toWireEvidence } from '../../domain/evidence.js';
import type { ReadModel } from '../../corpus/read-model.js';
import { DRUG_CLASSES, PROGRAM_LABELS, PROGRAMS, SERVICE_CATEGORIES, subjectLabel, type Program } from '../../domain/vocabulary.js';
import { gapDetails, lookupRule, toQueryEcho } from '../lookup.js';
import { toNextSteps, toPaRule } from '../pa-rule.js';
import { bestSentence, ruleIndex, ruleText } from '../explore/rule-index.js';
import type { ScopeFilter } from '../explore/scope.js';
import { extract, type Extraction } from './extract.js';

export const ASK_MAX_QUESTION_CHARS = 1000;
export const ASK_MAX_SUBJECTS = 5;
const PASSAGES = 3;

export interface AskInput {
  question: string;
  state?: string;
  program?: Program;
}

export interface AskPlan {
  /** What the caller's subscription must cover before anything is answered (checked by the route). */
  scope: { states: string[]; programs: string[] };
  answer(filter: ScopeFilter, now: Date): Record<string, unknown>;
}

type Resolved = { value: string; matched: string | null; by: string; assumption?: string };

/** The other Medicaid delivery system, for a question that said only "Medicaid". */
const MEDICAID_OTHER: Partial<Record<Program, Program>> = { medicaid_mco: 'medicaid_ffs', medicaid_ffs: 'medicaid_mco' };

function resolveProgram(x: Extraction, state: string | undefined, model: ReadModel, isDrug: boolean): { program?: Resolved; choices: Program[] } {
  const concrete = x.programs.filter((p) => p.value !== 'medicaid' && p.value !== 'medicare');
  if (concrete.length === 1) return { program: { value: concrete[0]!.value, matched: concrete[0]!.matched, by: concrete[0]!.by }, choices: [] };
  if (concrete.length > 1) return { choices: concrete.map((p) => p.value as Program) };
  const vague = x.programs[0];
  if (vague?.value === 'medicaid') {
    if (!state) return { choices: ['medicaid_mco', 'medicaid_ffs'] };
    const ffs = model.jurisdictions.get(state)?.flags.ffsDominant ?? false;
    return {
      program: { value: ffs ? 'medicaid_ffs' : 'medicaid_mco', matched: vague.matched, by: 'assumed', assumption: `"${vague.matched}" read as ${ffs ? 'Medicaid fee-for-service (the state has no comprehensive managed care for most enrollees)' : 'Medicaid managed care (most enrollees in the state are in MCOs)'}; send program to choose` },
      choices: [],
    };
  }
  if (vague?.value === 'medicare') {
    return {
      program: isDrug
        ? { value: 'part_d', matched: vague.matched, by: 'assumed', assumption: `"${vague.matched}" read as Medicare Part D (the usual benefit for self-administered drugs); send program to choose` }
        : { value: 'medicare_traditional', matched: vague.matched, by: 'assumed', assumption: `"${vague.matched}" read as Traditional Medicare; Medicare Advantage plans set their own PA lists (send program=medicare_advantage)` },
      choices: [],
    };
  }
  return { choices: [] };
}

/** The question says the member's plan has no drug coverage ("without drug coverage", "no Part D", "MA-only"). */
export const saysNoDrugCoverage = (question: string): boolean =>
  /\b(without|no|not|lacks?|doesn'?t (have|include))\b[^.?!]{0,24}\b(drug coverage|part d|prescription (drug )?coverage|drug plan)\b|\bma[- ]only\b|\bmapd?[- ]?less\b/i.test(question);

/** Reads the question and decides what it needs; the route authorizes `scope` before calling `answer`. */
export function planAnswer(model: ReadModel, input: AskInput): AskPlan {
  const x = extract(model, input.question);
  const subjects = x.subjects.slice(0, ASK_MAX_SUBJECTS);
  const stateFound: Resolved | undefined = input.state
    ? { value: input.state, matched: null, by: 'hint' }
    : x.states.length === 1
      ? { value: x.states[0]!.value, matched: x.states[0]!.matched, by: x.states[0]!.by }
      : undefined;
  const pr = input.program ? { program: { value: input.program, matched: null, by: 'hint' } as Resolved, choices: [] } : resolveProgram(x, stateFound?.value, model, subjects.some((s) => s.kind === 'drug') && !subjects.some((s) => s.kind === 'service'));
  const state = stateFound?.value;
  const program = pr.program?.value as Program | undefined;
  return {
    scope: { states: state ? [state] : [], programs: program ? [program] : [] },
    answer(filter, now) {
      const missing: string[] = [];
      const choices: Record<string, unknown> = {};
      if (!state) {
        missing.push('state');
        const candidates = x.states.length > 1 ? x.states.map((s) => s.value) : [...model.jurisdictions.keys()].sort();
        choices.state = candidates.filter(filter.state);
      }
      if (!program) {
        missing.push('program');
        choices.program = (pr.choices.length ? pr.choices : [...PROGRAMS]).filter(filter.program).map((p) => ({ program: p, label: PROGRAM_LABELS[p] }));
      }
      if (!subjects.length) {
        missing.push('subject');
        const withRules = (kind: 'drug' | 'service', codes: readonly string[]) =>
          codes.filter((c) => !state || !program || model.rules.has(`${state}|${program}|${kind}|${c}`)).map((c) => ({ kind, code: c, label: subjectLabel(kind, c) }));
        choices.subject = [...withRules('drug', DRUG_CLASSES), ...withRules('service', SERVICE_CATEGORIES)];
      }
      const answers: Record<string, unknown>[] = [];
      const gaps: Record<string, unknown>[] = [];
      if (!missing.length) {
        for (const s of subjects) {
          const q = { state: state!, program: program!, subject: { kind: s.kind, code: s.code } };
          const out = lookupRule(model, q);
          if (out.kind === 'scope_gap') {
            // "Medicaid" read as one delivery system: where the other has a served rule (and the caller may see it), say so.
            const other = pr.program?.by === 'assumed' && MEDICAID_OTHER[program!];
            const alt = other && filter.program(other) && model.rules.has(`${state}|${other}|${s.kind}|${s.code}`) ? other : undefined;
            gaps.push({
              state, program, query: toQueryEcho(q.subject), matched: s.matched, scope_gap: true, ...gapDetails(model, q),
              ...(alt ? { other_program_rule: { program: alt, label: PROGRAM_LABELS[alt], lookup: `/v1/pauth-lookup?state=${state}&program=${alt}&${s.kind === 'drug' ? 'drug' : 'service'}=${s.code}` } } : {}),
            });
            continue;
          }
          const r = out.rule;
          // The question says the member is outside the rule's population (an MA plan "without drug coverage" asking
          // under the MA-PD rule): the rule does not speak for them, so it is a gap that says why, not an answer.
          if (r.requirement.population && saysNoDrugCoverage(input.question) && /drug coverage/i.test(r.requirement.population)) {
            gaps.push({
              state, program, query: toQueryEcho(q.subject), matched: s.matched, scope_gap: false,
              outside_population: { applies_to: r.requirement.population, rule_id: r.id, reason: `The question says the plan has no drug coverage; the verified rule ${r.id} applies to ${r.requirement.population} only and claims nothing for this member.` },
            });
            continue;
          }
          answers.push({
            state,
            program,
            query: toQueryEcho(q.subject),
            matched: s.matched,
            result: toPaRule(r),
            next_steps: toNextSteps(r),
            citations: [{ source_url: r.source.url, source_title: r.source.title, publisher: r.source.publisher, last_verified: r.verification.lastVerified, evidence: toWireEvidence(r) }],
          });
        }
      }
      const status = missing.length ? 'clarification_needed' : answers.length === 0 ? 'no_rule' : gaps.length ? 'partial' : 'answered';
      // Passages answer what is left once state, program and names are read: the subject's own words plus the rest.
      const passageQuery = [x.rest, ...subjects.map((s) => subjectLabel(s.kind, s.code))].join(' ').trim() || input.question;
      const hits = ruleIndex(model, state && filter.state(state) ? state : '').search(passageQuery, {
        fuzzy: false, // the query is the subject's own words: no misspellings to forgive, and fuzzy is the costly part
        prefix: false, // nor word forms to guess: exact terms, which keeps the search to a few posting lists
        filter: (h) => filter.state(h.state as string) && filter.program(h.program as string) && (!state || h.state === state) && (!program || h.program === program),
      });
      const top = hits[0]?.score ?? 1;
      return {
        question: input.question,
        status,
        extracted: {
          state: stateFound ?? null,
          program: pr.program ?? null,
          subjects: subjects.map((s) => ({ kind: s.kind, code: s.code, label: subjectLabel(s.kind, s.code), matched: s.matched, by: s.by })),
          assumptions: pr.program?.assumption ? [pr.program.assumption] : [],
        },
        answers,
        gaps,
        clarification: missing.length
          ? { missing, message: `Tell me the ${missing.map((m) => (m === 'subject' ? 'drug or service' : m)).join(' and ')} (as words in the question, or state/program in the body).`, choices }
          : null,
        passages: hits.slice(0, PASSAGES).map((h) => {
          const r = model.ruleById.get(h.id as string)!;
          return { rule_id: r.id, state: r.jurisdiction, program: r.program, subject: { kind: r.subject.kind, code: r.subject.code }, text: bestSentence(ruleText(r), h.terms), score: Math.round((h.score / top) * 1000) / 1000, source_url: r.source.url };
        }),
        grounding: 'keyword',
        timestamp: now.toISOString(),
      };
    },
  };
}
