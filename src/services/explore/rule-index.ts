// Full-text search over the corpus (MiniSearch: BM25-style ranking, prefix and fuzzy matching), built once per
// read model on first use. Used for the supporting passages of /v1/ask and the free-text form of /v1/rules/similar.
import MiniSearch from 'minisearch';
import type { CoverageRuleDoc } from '../../domain/documents.js';
import { PROGRAM_LABELS, subjectLabel } from '../../domain/vocabulary.js';
import type { ReadModel } from '../../corpus/read-model.js';

export interface IndexedRule {
  id: string;
  state: string;
  program: string;
  subject: string;
  text: string;
  where: string;
}

/** The sentences of a rule a reader would quote: criteria, documentation, limits. */
export function ruleText(r: CoverageRuleDoc): string {
  const q = r.requirement;
  return [q.criteria, q.stepTherapy && `Step therapy: ${q.stepTherapy}`, q.quantityLimit && `Quantity limit: ${q.quantityLimit}`, q.documentation.length ? `Documentation: ${q.documentation.join('; ')}.` : '']
    .filter(Boolean)
    .join(' ');
}

const indexes = new WeakMap<ReadModel, MiniSearch<IndexedRule>>();

export function ruleIndex(model: ReadModel): MiniSearch<IndexedRule> {
  let ix = indexes.get(model);
  if (ix) return ix;
  ix = new MiniSearch<IndexedRule>({
    fields: ['text', 'subject', 'where'],
    storeFields: ['state', 'program'],
    searchOptions: { boost: { subject: 3, where: 1.5 }, prefix: true, fuzzy: 0.2, combineWith: 'OR' },
  });
  ix.addAll(
    [...model.ruleById.values()].map((r) => ({
      id: r.id,
      state: r.jurisdiction,
      program: r.program,
      subject: `${subjectLabel(r.subject.kind, r.subject.code)} ${r.subject.code.replace(/_/g, ' ')}`,
      text: ruleText(r),
      where: `${model.jurisdictions.get(r.jurisdiction)?.name ?? r.jurisdiction} ${PROGRAM_LABELS[r.program]} ${r.payer?.name ?? ''}`,
    })),
  );
  indexes.set(model, ix);
  return ix;
}

/** The sentence of a text that shares the most query terms with it (the passage to show). */
export function bestSentence(text: string, terms: readonly string[]): string {
  const sentences = text.split(/(?<=[.;])\s+/).filter((s) => s.trim());
  let best = sentences[0] ?? text;
  let bestHits = -1;
  for (const s of sentences) {
    const low = s.toLowerCase();
    const hits = terms.filter((t) => low.includes(t.toLowerCase())).length;
    if (hits > bestHits) [best, bestHits] = [s, hits];
  }
  return best.trim();
}
