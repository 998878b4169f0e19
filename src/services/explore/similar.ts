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

const tokenCache = new WeakMap<ReadModel, Map<string, Set<string>>>();
/** A rule's word set (criteria, limits, documentation), computed once per read model. */
function tokens(model: ReadModel, r: CoverageRuleDoc): Set<string> {
  let m = tokenCache.get(model);
  if (!m) tokenCache.set(model, (m = new Map()));
  let t = m.get(r.id);
  if (!t) m.set(r.id, (t = new Set(ruleText(r).toLowerCase().match(/[a-z0-9]{3,}/g) ?? [])));
  return t;
}
function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter || 1);
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
  const scored = [...model.ruleById.values()]
    .filter((r) => r.id !== base.id && visible(r) && inScope(r))
    .map((r) => {
      const reasons: string[] = [];
      let score = 0;
      if (sameSubject(r)) (score += W.subject), reasons.push(`same ${r.subject.kind === 'drug' ? 'drug class' : 'service category'} (${r.subject.code})`);
      if (r.program === base.program) (score += W.program), reasons.push(`same program (${r.program})`);
      if (r.requirement.paRequired === base.requirement.paRequired) (score += W.pa_required), reasons.push(`PA ${r.requirement.paRequired ? 'required' : 'not required'} in both`);
      if (r.requirement.paType === base.requirement.paType) (score += W.pa_type), reasons.push(`same pa_type (${r.requirement.paType})`);
      const overlap = jaccard(baseTokens, tokens(model, r));
      score += W.text * overlap;
      if (overlap > 0) reasons.push(`criteria and documentation overlap ${Math.round(overlap * 100)}%`);
      return { r, score, reasons };
    })
    .sort((a, b) => b.score - a.score || a.r.id.localeCompare(b.r.id))
    .slice(0, limit)
    .map(({ r, score, reasons }) => ({ ...summary(r), score: round(score), reasons }));
  return { kind: 'found', body: { query: { [q.by]: q.id }, scope, limit, count: scored.length, base: summary(base), results: scored } };
}
