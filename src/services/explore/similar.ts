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

interface TokenTable {
  ids: Map<string, number>;
  /** Per rule id: its distinct word ids, sorted (criteria, limits, documentation). */
  byRule: Map<string, Uint32Array>;
}
const tokenTables = new WeakMap<ReadModel, TokenTable>();

/** A rule's word set as sorted integer ids, computed once per read model; intersections are a linear merge. */
function tokens(model: ReadModel, r: CoverageRuleDoc): Uint32Array {
  let t = tokenTables.get(model);
  if (!t) tokenTables.set(model, (t = { ids: new Map(), byRule: new Map() }));
  let out = t.byRule.get(r.id);
  if (!out) {
    const ids = new Set<number>();
    for (const w of ruleText(r).toLowerCase().match(/[a-z0-9]{3,}/g) ?? []) {
      let id = t.ids.get(w);
      if (id === undefined) t.ids.set(w, (id = t.ids.size));
      ids.add(id);
    }
    out = Uint32Array.from(ids).sort();
    t.byRule.set(r.id, out);
  }
  return out;
}

const groupings = new WeakMap<ReadModel, { bySubject: Map<string, CoverageRuleDoc[]>; byState: Map<string, CoverageRuleDoc[]> }>();

/** The rules a scope can return at all, from per-model groupings (same subject, same state) or every rule. */
function candidates(model: ReadModel, base: CoverageRuleDoc, scope: SimilarScope): Iterable<CoverageRuleDoc> {
  let g = groupings.get(model);
  if (!g) {
    g = { bySubject: new Map(), byState: new Map() };
    for (const r of model.ruleById.values()) {
      const sk = `${r.subject.kind}|${r.subject.code}`;
      g.bySubject.set(sk, [...(g.bySubject.get(sk) ?? []), r]);
      g.byState.set(r.jurisdiction, [...(g.byState.get(r.jurisdiction) ?? []), r]);
    }
    groupings.set(model, g);
  }
  if (scope === 'same_subject' || scope === 'same_program') return g.bySubject.get(`${base.subject.kind}|${base.subject.code}`) ?? [];
  if (scope === 'same_state') return g.byState.get(base.jurisdiction) ?? [];
  return model.ruleById.values();
}

function jaccard(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) (inter++, i++, j++);
    else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter || 1);
}

const summary = (r: CoverageRuleDoc) => ({
  rule_id: r.id,
  state: r.jurisdiction,
  program: r.program,
  subject: { kind: r.subject.kind, code: r.subject.code },
  payer: r.payer ? { id: r.payer.id, name: r.payer.name } : null,
  pa_required: r.requirement.paRequired,
  pa_type: r.requirement.paType,
  confidence: r.verification.confidence,
  rule_status: r.verification.status === 'verified' ? 'verified' : 'sample',
  source_url: r.source.url,
  last_verified: r.verification.lastVerified,
});

const round = (n: number): number => Math.round(n * 1000) / 1000;

export type SimilarOutcome = { kind: 'found'; body: Record<string, unknown> } | { kind: 'not_found' } | { kind: 'not_a_drug_rule' };

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
  // An id outside the caller's subscription answers exactly like an unknown one.
  if (!base || !visible(base)) return { kind: 'not_found' };
  if (q.by === 'drug_rule_id' && base.subject.kind !== 'drug') return { kind: 'not_a_drug_rule' };
  const baseTokens = tokens(model, base);
  const sameSubject = (r: CoverageRuleDoc) => r.subject.kind === base.subject.kind && r.subject.code === base.subject.code;
  const inScope = (r: CoverageRuleDoc): boolean => {
    if (scope === 'same_subject') return sameSubject(r);
    if (scope === 'same_program') return sameSubject(r) && r.program === base.program;
    if (scope === 'same_state') return r.jurisdiction === base.jurisdiction;
    return true;
  };
  const W = SIMILARITY_WEIGHTS;
  const score = (r: CoverageRuleDoc): number =>
    (sameSubject(r) ? W.subject : 0) +
    (r.program === base.program ? W.program : 0) +
    (r.requirement.paRequired === base.requirement.paRequired ? W.pa_required : 0) +
    (r.requirement.paType === base.requirement.paType ? W.pa_type : 0) +
    W.text * jaccard(baseTokens, tokens(model, r));
  // Numbers first, for every candidate; objects and reasons only for the few that are returned.
  const top: { r: CoverageRuleDoc; score: number }[] = [];
  const better = (a: { r: CoverageRuleDoc; score: number }, b: { r: CoverageRuleDoc; score: number }) => b.score - a.score || a.r.id.localeCompare(b.r.id);
  for (const r of candidates(model, base, scope)) {
    if (r.id === base.id || !visible(r) || !inScope(r)) continue;
    const entry = { r, score: score(r) };
    if (top.length === limit && better(entry, top[top.length - 1]!) >= 0) continue;
    top.push(entry);
    top.sort(better);
    if (top.length > limit) top.pop();
  }
  const scored = top.map(({ r, score: sc }) => {
    const reasons: string[] = [];
    if (sameSubject(r)) reasons.push(`same ${r.subject.kind === 'drug' ? 'drug class' : 'service category'} (${r.subject.code})`);
    if (r.program === base.program) reasons.push(`same program (${r.program})`);
    if (r.requirement.paRequired === base.requirement.paRequired) reasons.push(`PA ${r.requirement.paRequired ? 'required' : 'not required'} in both`);
    if (r.requirement.paType === base.requirement.paType) reasons.push(`same pa_type (${r.requirement.paType})`);
    const overlap = jaccard(baseTokens, tokens(model, r));
    if (overlap > 0) reasons.push(`criteria and documentation overlap ${Math.round(overlap * 100)}%`);
    return { ...summary(r), score: round(sc), reasons };
  });
  return { kind: 'found', body: { query: { [q.by]: q.id }, scope, limit, count: scored.length, base: summary(base), results: scored } };
}
