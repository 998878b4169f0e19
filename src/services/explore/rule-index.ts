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

/**
 * Words that carry no meaning for ranking in a PA question or rule ("does Texas require prior auth for ..."); they
 * are dropped at indexing and at search time, which keeps every search to the few terms that tell rules apart.
 */
const STOPWORDS = new Set(
  'a an and any are as at be by can do does for from has have how i if in is it its me my need needed needs no not of on or our per prior pa auth authorization authorisation approval require required requires requirement the their there this to under what when which who will with without you your'.split(' '),
);
const processTerm = (term: string): string | null => {
  const t = term.toLowerCase();
  return t.length < 2 || STOPWORDS.has(t) ? null : t;
};

const indexes = new WeakMap<ReadModel, Map<string, MiniSearch<IndexedRule>>>();

/**
 * The full-text index of the rules of one state ('' = every state), built on first use per read model and kept
 * with it. A question that names its state searches that state's few hundred rules only.
 */
export function ruleIndex(model: ReadModel, state = ''): MiniSearch<IndexedRule> {
  let perState = indexes.get(model);
  if (!perState) indexes.set(model, (perState = new Map()));
  let ix = perState.get(state);
  if (ix) return ix;
  ix = new MiniSearch<IndexedRule>({
    fields: ['text', 'subject', 'where'],
    storeFields: ['state', 'program'],
    processTerm,
    searchOptions: { boost: { subject: 3, where: 1.5 }, prefix: (t) => t.length >= 4, fuzzy: (t) => (t.length >= 6 ? 0.2 : false), combineWith: 'OR', processTerm },
  });
  perState.set(state, ix);
  ix.addAll(
    [...model.ruleById.values()].filter((r) => !state || r.jurisdiction === state).map((r) => ({
      id: r.id,
      state: r.jurisdiction,
      program: r.program,
      subject: `${subjectLabel(r.subject.kind, r.subject.code)} ${r.subject.code.replace(/_/g, ' ')}`,
      text: ruleText(r),
      where: `${model.jurisdictions.get(r.jurisdiction)?.name ?? r.jurisdiction} ${PROGRAM_LABELS[r.program]} ${r.payer?.name ?? ''}`,
    })),
  );
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
