// The similar-rules ranking over the WHOLE generated sample corpus (fixtures/, built by `npm run build`): the pruned
// top-k (compact per-model records, candidates skipped when even full word overlap cannot reach the last kept
// score) must equal a brute-force reference that scores every candidate and sorts, for any rule, scope, limit and
// key scope. fast-check draws the cases.
import { expect } from 'chai';
import fc from 'fast-check';
import { buildReadModel } from '../../src/corpus/read-model.js';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import { ruleText } from '../../src/services/explore/rule-index.js';
import { SIMILAR_SCOPES, SIMILARITY_WEIGHTS, similarRules, type SimilarScope } from '../../src/services/explore/similar.js';
import { sampleCorpusDocuments } from '../support/sample-corpus.js';

/** The reference: every candidate scored in full, sorted by score, then rule id in code-point order. */
function reference(rules: readonly CoverageRuleDoc[], base: CoverageRuleDoc, scope: SimilarScope, limit: number, states: Set<string> | null) {
  const words = (r: CoverageRuleDoc) => new Set(ruleText(r).toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);
  const bw = words(base);
  const same = (r: CoverageRuleDoc) => r.subject.kind === base.subject.kind && r.subject.code === base.subject.code;
  const W = SIMILARITY_WEIGHTS;
  const scored = rules
    .filter((r) => r.id !== base.id && (!states || states.has(r.jurisdiction)))
    .filter((r) => (scope === 'same_subject' ? same(r) : scope === 'same_program' ? same(r) && r.program === base.program : scope === 'same_state' ? r.jurisdiction === base.jurisdiction : true))
    .map((r) => {
      const w = words(r);
      const inter = [...w].filter((x) => bw.has(x)).length;
      const overlap = inter / (bw.size + w.size - inter || 1);
      const score =
        (same(r) ? W.subject : 0) +
        (r.program === base.program ? W.program : 0) +
        (r.requirement.paRequired === base.requirement.paRequired ? W.pa_required : 0) +
        (r.requirement.paType === base.requirement.paType ? W.pa_type : 0) +
        W.text * overlap;
      return { id: r.id, score };
    });
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, limit).map((s) => ({ id: s.id, score: Math.round(s.score * 1000) / 1000 }));
}

describe('unit: similar rules ranking over the whole sample corpus', function () {
  this.timeout(120_000);
  const docs = sampleCorpusDocuments();
  const model = buildReadModel(docs, 1);
  const rules = [...model.ruleById.values()];
  const stateCodes = [...new Set(rules.map((r) => r.jurisdiction))].sort();

  it('when ranked for any rule, scope, limit and key scope, then the pruned top-k equals scoring every candidate', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: rules.length - 1 }),
        fc.constantFrom(...SIMILAR_SCOPES),
        fc.integer({ min: 1, max: 50 }),
        fc.option(fc.uniqueArray(fc.constantFrom(...stateCodes), { minLength: 1, maxLength: 6 }), { nil: null }),
        (i, scope, limit, keyStates) => {
          const base = rules[i]!;
          const states = keyStates ? new Set([...keyStates, base.jurisdiction]) : null;
          const filter = { state: (s: string) => !states || states.has(s), program: () => true };
          const out = similarRules(model, { by: 'rule_id', id: base.id }, scope, limit, filter);
          expect(out.kind).to.equal('found');
          const got = ((out as unknown as { body: { results: { rule_id: string; score: number }[] } }).body.results).map((r) => ({ id: r.rule_id, score: r.score }));
          expect(got).to.deep.equal(reference(rules, base, scope, limit, states));
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
});
