// The DTR test corpus: three rules, one per documentation pattern, with the documentation lists of the sample
// corpus's templates (scripts/corpus/content.ts), and the codes the test requests carry.
import type { CanonicalDoc, CodeMappingDoc, CoverageRuleDoc, DrugCrosswalkDoc } from '../../../src/domain/documents.js';
import { jurisdiction, rule } from '../docs.js';

const withReq = (r: CoverageRuleDoc, req: Partial<CoverageRuleDoc['requirement']>): CoverageRuleDoc => ({ ...r, requirement: { ...r.requirement, ...req } });
const mapping = (id: string, m: Omit<CodeMappingDoc, 'resourceType' | 'id' | 'description'>): CodeMappingDoc => ({ resourceType: 'CodeMapping', id, description: `test mapping ${id}`, ...m });
const adalimumab: DrugCrosswalkDoc = { resourceType: 'DrugCrosswalkEntry', id: 'specialty-biologics.adalimumab', drugClass: 'specialty_biologics', generic: 'adalimumab', brands: ['Humira'], rxnorm: { ingredient: '327361' }, notes: 'test data' };

export const DME_RULE = withReq(rule({ state: 'TX', program: 'medicare_traditional', kind: 'service', code: 'durable_medical_equipment', paType: 'conditional' }), {
  criteria: 'PA for items over a cost threshold, extended rentals, power mobility, specialty beds and custom items.',
  documentation: ['Prescription / detailed written order', 'Face-to-face encounter note', 'Medical necessity letter', 'Home assessment (for mobility devices)'],
});
export const IMAGING_RULE = withReq(rule({ state: 'TX', program: 'medicaid_mco', kind: 'service', code: 'advanced_imaging', paType: 'full' }), {
  documentation: ['Clinical indication and symptoms', 'Relevant prior imaging and results', 'Conservative treatment tried (for musculoskeletal imaging)', 'Ordering provider'],
});
export const BIOLOGICS_RULE = withReq(rule({ state: 'TX', program: 'medicaid_mco', code: 'specialty_biologics', paType: 'full' }), {
  documentation: ['Diagnosis and severity', 'Conventional therapies tried', 'TB screening result', 'Preferred biologic tried (if non-preferred requested)'],
  stepTherapy: 'Preferred biologics first.',
});
export const NO_PA_RULE = rule({ state: 'TX', program: 'medicaid_mco', kind: 'service', code: 'diagnostic_imaging', paRequired: false });

export function dtrCorpus(): CanonicalDoc[] {
  return [
    jurisdiction('TX'),
    jurisdiction('OK'),
    mapping('cpt-70551-70553', { system: 'CPT', range: { from: '70551', to: '70553' }, serviceCategory: 'advanced_imaging' }),
    adalimumab,
    DME_RULE,
    IMAGING_RULE,
    BIOLOGICS_RULE,
    NO_PA_RULE,
  ];
}
