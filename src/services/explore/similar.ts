// Endpoint 15: rules similar to a given rule (or to a free-text query) across states, ranked, with the reasons.
import type { CoverageRuleDoc } from '../../domain/documents.js';
import type { ReadModel } from '../../corpus/read-model.js';
import { bestSentence, ruleIndex, ruleText } from './rule-index.js';
import type { ScopeFilter } from './scope.js';

export const SIMILAR_SCOPES = ['same_subject', 'same_program', 'same_state', 'all'] as const;
export type SimilarScope = (typeof SIMILAR_SCOPES)[number];
export const SIMILAR_LIMIT_DEFAULT = 10;
export const SIMILAR_LIMIT_MAX = 50;

/** The weights of the similarity score (they add up to 1). */
export const SIMILARITY_WEIGHTS = { subject: 0.35, program: 0.2, pa_required: 0.15, pa_type: 0.1, text: 0.2 } as const;

export type SimilarQuery = { by: 'rule_id' | 'drug_rule_id'; id: string } | { by: 'q'; text: string };

/**
 * What the ranking reads of a rule, as small records of one shape built once per read model: the rule documents
 * themselves are large and varied, and reading them in the hot loop costs more than the scoring does.
 */
interface Cand {
  readonly r: CoverageRuleDoc;
  readonly id: string;
  readonly state: string;
  readonly program: string;
  /** Small integers: equal subjects (kind and code), pa_types have equal numbers. */
  readonly subject: number;
  readonly paType: number;
  readonly paRequired: boolean;
  /** Distinct word ids of criteria, limits and documentation, sorted. */
  readonly words: Uint32Array;
}

/**
 * Per read model: the rules grouped by subject and by state (cheap, built on first use), and the candidate records,
 * made when a group is first ranked, so the first call for a subject tokenizes that subject's rules only.
 */
interface Tables {
  words: Map<string, number>;
  numbers: Map<string, number>;
  bySubject: Map<string, CoverageRuleDoc[]>;
  byState: Map<string, CoverageRuleDoc[]>;
  cands: Map<string, Cand>;
  /** Candidate lists per group ('s|kind|code', 'st|XX', 'all'), all of whose words are already numbered. */
  groups: Map<string, readonly Cand[]>;
}
const tables = new WeakMap<ReadModel, Tables>();

const subjectKey = (r: CoverageRuleDoc): string => `s|${r.subject.kind}|${r.subject.code}`;

function tablesOf(model: ReadModel): Tables {
  let t = tables.get(model);
  if (t) return t;
  t = { words: new Map(), numbers: new Map(), bySubject: new Map(), byState: new Map(), cands: new Map(), groups: new Map() };
  for (const r of model.ruleById.values()) {
    const bs = t.bySubject.get(subjectKey(r));
    if (bs) bs.push(r);
    else t.bySubject.set(subjectKey(r), [r]);
    const st = t.byState.get(r.jurisdiction);
    if (st) st.push(r);
    else t.byState.set(r.jurisdiction, [r]);
  }
  tables.set(model, t);
  return t;
}

function candOf(t: Tables, r: CoverageRuleDoc): Cand {
  let c = t.cands.get(r.id);
  if (c) return c;
  const num = (k: string): number => t.numbers.get(k) ?? (t.numbers.set(k, t.numbers.size), t.numbers.size - 1);
  const ids = new Set<number>();
  for (const w of ruleText(r).toLowerCase().match(/[a-z0-9]{3,}/g) ?? []) {
    let id = t.words.get(w);
    if (id === undefined) t.words.set(w, (id = t.words.size));
    ids.add(id);
  }
  c = {
    r,
    id: r.id,
    state: r.jurisdiction,
    program: r.program,
    subject: num(subjectKey(r)),
    paType: num(`t|${r.requirement.paType}`),
    paRequired: r.requirement.paRequired,
    words: Uint32Array.from(ids).sort(),
  };
  t.cands.set(r.id, c);
  return c;
}

/** The rules a scope can return at all (the same subject, the same state, or every rule) as candidate records. */
function candidates(t: Tables, model: ReadModel, base: CoverageRuleDoc, scope: SimilarScope): readonly Cand[] {
  const key = scope === 'same_subject' || scope === 'same_program' ? subjectKey(base) : scope === 'same_state' ? `st|${base.jurisdiction}` : 'all';
  let list = t.groups.get(key);
  if (!list) {
    const docs = key === 'all' ? [...model.ruleById.values()] : key.startsWith('st|') ? (t.byState.get(base.jurisdiction) ?? []) : (t.bySubject.get(key) ?? []);
    list = docs.map((r) => candOf(t, r));
    t.groups.set(key, list);
  }
  return list;
}

const summary = (r: CoverageRuleDoc) => ({
  rule_id: r.id,
  state: r.jurisdiction,
  program: r.program,
  subject: { kind: r.subject.kind, code: r.subject.code },
  payer: r.payer ? { id: r.payer.id, name: r.payer.name } : null,
  pa_required: r.requirement.paRequired,
  pa_type: r.requirement.paType,
  // Whom a population-limited rule speaks for, and a source that only lets the plan require PA, as every surface says.
  ...(r.requirement.population ? { applies_to: r.requirement.population } : {}),
  ...(r.requirement.paMode ? { pa_mode: r.requirement.paMode } : {}),
  confidence: r.verification.confidence,
  rule_status: r.verification.status === 'verified' ? 'verified' : 'sample',
  source_url: r.source.url,
  last_verified: r.verification.lastVerified,
});

const round = (n: number): number => Math.round(n * 1000) / 1000;

export type SimilarOutcome =
  | { kind: 'found'; body: Record<string, unknown> }
  | { kind: 'not_found' }
  | { kind: 'not_a_drug_rule' }
  /** The id names a rule outside the caller's subscription: its state and program, for the 403 (nothing else is read). */
  | { kind: 'outside_scope'; scope: { states: string[]; programs: string[] } };

export function similarRules(model: ReadModel, q: SimilarQuery, scope: SimilarScope, limit: number, filter: ScopeFilter): SimilarOutcome {
  const visible = (r: CoverageRuleDoc) => filter.state(r.jurisdiction) && filter.program(r.program);
  if (q.by === 'q') {
    const hits = ruleIndex(model).search(q.text, { filter: (h) => filter.state(h.state as string) && filter.program(h.program as string) });
    const top = hits[0]?.score ?? 1;
    const results = hits.slice(0, limit).map((h) => {
      const r = model.ruleById.get(h.id as string)!;
      return { ...summary(r), score: round(h.score / top), reasons: [...new Set(Object.entries(h.match).map(([term, fields]) => `matched '${term}' in ${fields.join(', ')}`))], passage: bestSentence(ruleText(r), h.terms) };
    });
    return { kind: 'found', body: { query: { q: q.text }, scope: 'all', limit, count: results.length, base: null, results } };
  }
  const base = model.ruleById.get(q.id);
  if (!base) return { kind: 'not_found' };
  // An id naming a rule outside the caller's subscription is the 403 every out-of-scope request gets (README
  // "Choices"); ids of the usual forms were already authorized by their own text before this was called.
  if (!visible(base)) return { kind: 'outside_scope', scope: { states: [base.jurisdiction], programs: [base.program] } };
  if (q.by === 'drug_rule_id' && base.subject.kind !== 'drug') return { kind: 'not_a_drug_rule' };
  const t = tablesOf(model);
  const b = candOf(t, base);
  const pool = candidates(t, model, base, scope); // numbers the words of every candidate before the marks are sized
  // The base rule's words as a mark table over the vocabulary: an overlap is one pass over the other rule's words.
  const marks = new Uint8Array(t.words.size);
  for (const id of b.words) marks[id] = 1;
  const overlapWith = (c: Cand): number => {
    const w = c.words;
    let inter = 0;
    for (let k = 0; k < w.length; k++) inter += marks[w[k]!]!;
    return inter / (b.words.length + w.length - inter || 1);
  };
  const W = SIMILARITY_WEIGHTS;
  const structural = (c: Cand): number =>
    (c.subject === b.subject ? W.subject : 0) +
    (c.program === b.program ? W.program : 0) +
    (c.paRequired === b.paRequired ? W.pa_required : 0) +
    (c.paType === b.paType ? W.pa_type : 0);
  const inScope = (c: Cand): boolean =>
    scope === 'same_subject' ? c.subject === b.subject : scope === 'same_program' ? c.subject === b.subject && c.program === b.program : scope === 'same_state' ? c.state === b.state : true;
  // Numbers first, for every candidate; objects and reasons only for the few that are returned. The top `limit`
  // are kept sorted by insertion (score descending, then rule id in code-point order); a candidate whose score
  // cannot reach the last kept one even with full word overlap is not scored at all.
  const top: { c: Cand; score: number }[] = [];
  const ahead = (sa: number, ia: string, sb: number, ib: string): boolean => sa > sb || (sa === sb && ia < ib);
  for (const c of pool) {
    if (c === b || !inScope(c) || !filter.state(c.state) || !filter.program(c.program)) continue;
    const last = top.length === limit ? top[limit - 1]! : undefined;
    const st = structural(c);
    if (last && st + W.text < last.score) continue;
    const sc = st + W.text * overlapWith(c);
    if (last && !ahead(sc, c.id, last.score, last.c.id)) continue;
    let i = top.length;
    while (i > 0 && ahead(sc, c.id, top[i - 1]!.score, top[i - 1]!.c.id)) i--;
    top.splice(i, 0, { c, score: sc });
    if (top.length > limit) top.pop();
  }
  const scored = top.map(({ c, score: sc }) => {
    const r = c.r;
    const reasons: string[] = [];
    if (c.subject === b.subject) reasons.push(`same ${r.subject.kind === 'drug' ? 'drug class' : 'service category'} (${r.subject.code})`);
    if (r.program === base.program) reasons.push(`same program (${r.program})`);
    const excluded = !!r.requirement.exclusion;
    if (excluded && base.requirement.exclusion) reasons.push('not covered in both');
    else if (r.requirement.paRequired === base.requirement.paRequired && excluded === !!base.requirement.exclusion) reasons.push(`PA ${r.requirement.paRequired ? 'required' : 'not required'} in both`);
    if (r.requirement.paType === base.requirement.paType) reasons.push(`same pa_type (${r.requirement.paType})`);
    const overlap = overlapWith(c);
    if (overlap > 0) reasons.push(`criteria and documentation overlap ${Math.round(overlap * 100)}%`);
    return { ...summary(r), score: round(sc), reasons };
  });
  return { kind: 'found', body: { query: { [q.by]: q.id }, scope, limit, count: scored.length, base: summary(base), results: scored } };
}
