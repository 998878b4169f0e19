// Multi-state compare (spec 2.4, 4.3 rule 4): one (program, subject) across 2..10 states, in the requested order.
// A state without a verified rule is a gap item, never silently dropped. Each per-state item is built once per
// read model (WeakMap cache) so that a 10-state compare is ten Map gets and one small summary.
import type { Program } from '../domain/vocabulary.js';
import { outsideProgram, type OutsideProgram } from '../domain/program-scope.js';
import { ruleKey, type ReadModel } from '../corpus/read-model.js';
import { programNotRun } from '../corpus/program-gap.js';
import { toQueryEcho, type SubjectQuery } from './lookup.js';
import { COMPARE_GAP_FIELDS, nullFields, toPaRule } from './pa-rule.js';

export interface CompareQuery {
  states: readonly string[];
  program: Program;
  subject: SubjectQuery;
}

export interface CompareRuleItem {
  state_abbr: string;
  gap: false;
  pa_required: boolean;
  pa_type: string;
  confidence: number;
  notes: string;
  source_url: string;
  last_verified: string;
  federal_override: boolean;
  rule_id: string;
  [extra: string]: unknown;
}

export interface CompareGapItem {
  state_abbr: string;
  gap: true;
  pa_required: null;
  pa_type: null;
  confidence: null;
  notes: null;
  source_url: null;
  last_verified: null;
  federal_override: null;
  rule_id: null;
  /** A gap no rule will fill in this state (Medicaid managed care where the state has no plans), and where to ask. */
  outside_program?: OutsideProgram;
}

export type CompareItem = CompareRuleItem | CompareGapItem;

export interface CompareSummary {
  total: number;
  require_pa: number;
  /** States with a rule saying PA is not required (an excluded subject is not one of them: see not_covered). */
  no_pa: number;
  /** States whose program does not cover the subject (additive): no PA route, a claim will be denied. */
  not_covered: number;
  gaps: number;
  divergence: boolean;
  divergence_summary: string;
  outliers: { pa_required: string[]; pa_type: string[] };
  gap_states: string[];
  /** The states counted in not_covered, in request order (additive). */
  not_covered_states: string[];
}

export interface CompareResponse {
  states: string[];
  program: Program;
  query: Record<string, string>;
  summary: CompareSummary;
  results: CompareItem[];
  /** Set where the subject is outside the program's benefit (src/domain/program-scope.ts). */
  outside_program?: OutsideProgram;
  served_from: 'api';
  timestamp: string;
}

const gapItem = (state: string): CompareGapItem => ({ state_abbr: state, gap: true, ...nullFields(COMPARE_GAP_FIELDS) });

const itemCache = new WeakMap<ReadModel, Map<string, CompareItem>>();

function itemFor(model: ReadModel, state: string, q: CompareQuery): CompareItem {
  let cache = itemCache.get(model);
  if (!cache) {
    cache = new Map();
    itemCache.set(model, cache);
  }
  const key = ruleKey(state, q.program, q.subject.kind, q.subject.code);
  let item = cache.get(key);
  if (!item) {
    const rule = model.rules.get(key);
    // A state-specific gap no rule will fill says so on its row; the program-wide case (Part D services) is said once, at the top.
    const outside = rule || outsideProgram(q.program, q.subject) ? undefined : programNotRun(model, state, q.program);
    item = rule
      ? Object.freeze({ state_abbr: state, gap: false as const, ...toPaRule(rule) })
      : Object.freeze({ ...gapItem(state), ...(outside ? { outside_program: outside } : {}) });
    cache.set(key, item);
  }
  return item;
}

const list = (xs: readonly string[]): string => xs.join(', ');

/** Most frequent value; ties go to the value seen first in request order (deterministic). */
function modal<T>(values: readonly T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: T | undefined;
  let bestN = 0;
  for (const [v, n] of counts) {
    if (n > bestN) {
      best = v;
      bestN = n;
    }
  }
  return best;
}

export function summarize(results: readonly CompareItem[]): CompareSummary {
  // An excluded subject is neither "PA required" nor "no PA needed": it is compared apart (not covered).
  const all = results.filter((r): r is CompareRuleItem => !r.gap);
  const excluded = all.filter((r) => r.not_covered === true).map((r) => r.state_abbr);
  const rules = all.filter((r) => r.not_covered !== true);
  const gapStates = results.filter((r) => r.gap).map((r) => r.state_abbr);
  const yes = rules.filter((r) => r.pa_required).map((r) => r.state_abbr);
  const no = rules.filter((r) => !r.pa_required).map((r) => r.state_abbr);
  const sentences: string[] = [];
  const outliers: CompareSummary['outliers'] = { pa_required: [], pa_type: [] };

  let paSplit = false;
  if (excluded.length) {
    sentences.push(`Not covered (no PA route; a claim will be denied) in ${list(excluded)}.`);
  }
  // Where some states exclude the subject, the PA comparison is among the states that cover it.
  const among = excluded.length ? 'states covering it' : 'states with a verified rule';
  if (rules.length === 0) {
    if (!excluded.length) sentences.push(`No verified rule in any of the ${results.length} states.`);
  } else if (yes.length && no.length) {
    paSplit = true;
    if (yes.length === no.length) {
      sentences.push(`PA requirement is split evenly: required in ${list(yes)}; not required in ${list(no)}.`);
    } else if (yes.length > no.length) {
      outliers.pa_required = no;
      sentences.push(`PA required in ${yes.length} of ${rules.length} ${among}; outlier${no.length > 1 ? 's' : ''} without PA: ${list(no)}.`);
    } else {
      outliers.pa_required = yes;
      sentences.push(`PA not required in ${no.length} of ${rules.length} ${among}; outlier${yes.length > 1 ? 's' : ''} requiring PA: ${list(yes)}.`);
    }
  } else {
    // Where every source only lets the plan require PA, that is what "requires PA" means here: said once, as such.
    const allPlanChoice = yes.length > 0 && rules.every((r) => r.pa_mode === 'plan_may_require');
    const verb = allPlanChoice ? 'lets the plan require PA (the plan\'s choice)' : yes.length ? 'requires PA' : 'does not require PA';
    sentences.push(
      rules.length === 1
        ? `The only ${excluded.length ? 'state covering it' : 'state with a verified rule'}, ${rules[0]!.state_abbr}, ${verb}.`
        : allPlanChoice
          ? `In all ${rules.length} ${among} the source only lets the plan require PA: which requests need it is the plan's choice.`
          : yes.length
            ? `All ${rules.length} ${among} require PA.`
            : `None of the ${rules.length} ${among} requires PA.`,
    );
  }

  // pa_type is compared among the states that require PA (a no-PA state is already named above).
  const required = rules.filter((r) => r.pa_required);
  const mode = modal(required.map((r) => r.pa_type));
  const typeOutliers = required.filter((r) => r.pa_type !== mode);
  let typeSplit = false;
  if (typeOutliers.length) {
    typeSplit = true;
    outliers.pa_type = typeOutliers.map((r) => r.state_abbr);
    const detail = typeOutliers.map((r) => `${r.state_abbr} (${r.pa_type})`).join(', ');
    sentences.push(`PA type differs: most states requiring PA use ${mode}; outlier${typeOutliers.length > 1 ? 's' : ''}: ${detail}.`);
  } else if (required.length > 1) {
    sentences.push(`PA type is ${mode} in every state that requires PA.`);
  }
  if (gapStates.length && all.length) sentences.push(`No verified rule for ${list(gapStates)} (gap${gapStates.length > 1 ? 's' : ''}).`);
  else if (gapStates.length) sentences.push(`Gaps: ${list(gapStates)}.`);
  // "Requires PA" counts rules whose source only lets the plan require it: the comparison says which.
  const planChoice = rules.filter((r) => r.pa_mode === 'plan_may_require').map((r) => r.state_abbr);
  if (planChoice.length && planChoice.length < rules.length) sentences.push(`In ${list(planChoice)} the source only lets the plan require PA (the plan's choice).`);
  // A rule limited to a population speaks for it only: the comparison says so, per state.
  const limited = all.filter((r) => typeof r.applies_to === 'string');
  if (limited.length) sentences.push(`Limited to a population: ${limited.map((r) => `${r.state_abbr} (${r.applies_to as string})`).join('; ')}.`);
  const never = results.filter((r): r is CompareGapItem & { outside_program: OutsideProgram } => r.gap && !!r.outside_program);
  if (never.length) {
    const tries = [...new Set(never.flatMap((r) => r.outside_program.try_programs))];
    sentences.push(`No rule will exist for ${list(never.map((r) => r.state_abbr))} in this program (see each row's outside_program); ask ${tries.join(' or ')} instead.`);
  }

  return {
    total: results.length,
    require_pa: yes.length,
    no_pa: no.length,
    not_covered: excluded.length,
    gaps: gapStates.length,
    // Covered in some states and excluded in others is a divergence too.
    divergence: paSplit || typeSplit || (excluded.length > 0 && rules.length > 0),
    divergence_summary: sentences.join(' '),
    outliers,
    gap_states: gapStates,
    not_covered_states: excluded,
  };
}

/**
 * The serialised body up to the timestamp value, cached per read model by (states in order, program, subject).
 * Orderings of up to 10 of 51 states are too many to keep them all, so the cache is bounded and starts over
 * when full: the common comparisons stay hot, and a miss costs only the ten Map gets and a stringify.
 */
const prefixCache = new WeakMap<ReadModel, Map<string, string>>();
export const COMPARE_CACHE_LIMIT = 20_000;

export function compareStatesPrefix(model: ReadModel, q: CompareQuery): string {
  let cache = prefixCache.get(model);
  if (!cache) {
    cache = new Map();
    prefixCache.set(model, cache);
  }
  const key = `${q.states.join(',')}|${q.program}|${q.subject.kind}|${q.subject.code}`;
  let prefix = cache.get(key);
  if (prefix === undefined) {
    const body = JSON.stringify({ ...compareStates(model, q, new Date(0)), timestamp: '' });
    prefix = body.slice(0, -2); // drop the closing `"}` of the empty timestamp
    if (cache.size >= COMPARE_CACHE_LIMIT) cache.clear();
    cache.set(key, prefix);
  }
  return prefix;
}

export const completeCompareBody = (prefix: string, now: Date): string => `${prefix}${now.toISOString()}"}`;

export function compareStates(model: ReadModel, q: CompareQuery, now: Date): CompareResponse {
  const results = q.states.map((s) => itemFor(model, s, q));
  const outside = outsideProgram(q.program, q.subject);
  const summary = summarize(results);
  // Every state is a gap no rule will fill: the summary says why, and outside_program where to ask instead.
  if (outside) summary.divergence_summary = `${summary.divergence_summary} ${outside.reason}`;
  return {
    states: [...q.states],
    program: q.program,
    query: toQueryEcho(q.subject),
    summary,
    results,
    ...(outside ? { outside_program: outside } : {}),
    served_from: 'api',
    timestamp: now.toISOString(),
  };
}
