// US Drug Formulary 2.0.1: a (state, program) pair's formulary as one searchset Bundle of its Formulary
// InsurancePlan + FormularyItems (Basic) + FormularyDrugs (MedicationKnowledge), i.e. the answer to
// `Basic?formulary=InsurancePlan/X&_include=Basic:subject&_include=Basic:formulary`. The resources are the ones
// the RESTful read/search serves (src/fhir/usdf/resources.ts), so ids and content agree.
import type { ReadModel } from '../corpus/read-model.js';
import type { Program } from '../domain/vocabulary.js';
import { USDF_EXT } from '../../fhir-profiles/canonicals.js';
import { fhirId } from './ids.js';
import type { Basic, Bundle, BundleEntry, Resource } from './r4.js';
import { usdfIndex } from './usdf/resources.js';

export { restrictionsOf, tierOf } from './usdf/resources.js';

export interface FormularyInput {
  state: string;
  program: Program;
  base: string;
  now: Date;
}

/** The formulary bundle, or undefined when the pair has no verified drug rule (a scope gap). */
export function toFormularyBundle(model: ReadModel, q: FormularyInput): Bundle | undefined {
  const index = usdfIndex(model);
  const planId = index.formularyOf.get(`${q.state}|${q.program}`);
  if (!planId) return undefined;
  const plan = index.byRef.get(`InsurancePlan/${planId}`)!;
  const items = (index.byType.get('Basic') as Basic[]).filter((b) =>
    b.extension!.some((e) => e.url === USDF_EXT.formularyReference && e.valueReference?.reference === `InsurancePlan/${planId}`),
  );
  const url = (r: Resource): string => `${q.base}/v1/${r.resourceType}/${r.id}`;
  const drugRefs = [...new Set(items.map((i) => i.subject!.reference!))];
  return {
    resourceType: 'Bundle',
    id: fhirId('formulary-bundle', q.state, q.program),
    meta: { lastUpdated: plan.meta!.lastUpdated! },
    type: 'searchset',
    timestamp: q.now.toISOString(),
    total: items.length,
    link: [{ relation: 'self', url: `${q.base}/v1/formulary/${q.state}/${q.program}` }],
    entry: [
      { fullUrl: url(plan), resource: plan, search: { mode: 'include' } },
      ...items.map((i): BundleEntry => ({ fullUrl: url(i), resource: i, search: { mode: 'match' } })),
      ...drugRefs.map((ref): BundleEntry => {
        const d = index.byRef.get(ref)!;
        return { fullUrl: url(d), resource: d, search: { mode: 'include' } };
      }),
    ],
  };
}
