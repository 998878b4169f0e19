// The FHIR test corpus: small, explicit, and built so the public example requests in test/examples resolve.
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
//  - CRD order-sign example: Patient lives in OK; Coverage payor Organization/acme-payer (Acme Health Plan);
//    orders CPT 77061-77066 (billing options) and HCPCS E0431.
//  - PAS example: Claim identifier jurisdiction MA; payor Organization/InsurerExample (payer id PI-InsurerExample);
//    items coded X12 1365 "3" (Consultation), carried by a rule's codes.
//  - DTR example: contained payor "Insurance Company"; order LOINC 24338-6 (gas panel), carried by a rule's codes.
import type { CanonicalDoc, CodeMappingDoc, CoverageRuleDoc, DrugCrosswalkDoc } from '../../src/domain/documents.js';
import { jurisdiction, payer, rule } from './docs.js';

const withReq = (r: CoverageRuleDoc, req: Partial<CoverageRuleDoc['requirement']>): CoverageRuleDoc => ({ ...r, requirement: { ...r.requirement, ...req } });

const mapping = (id: string, m: Omit<CodeMappingDoc, 'resourceType' | 'id' | 'description'>): CodeMappingDoc => ({
  resourceType: 'CodeMapping',
  id,
  description: `test mapping ${id}`,
  ...m,
});

const drug = (id: string, drugClass: string, generic: string, brands: string[], rxnorm?: DrugCrosswalkDoc['rxnorm']): DrugCrosswalkDoc => ({
  resourceType: 'DrugCrosswalkEntry',
  id,
  drugClass,
  generic,
  brands,
  ...(rxnorm ? { rxnorm } : {}),
  notes: 'test data',
});

export const X12_1365 = 'https://codesystem.x12.org/005010/1365';

export function fhirCorpus(): CanonicalDoc[] {
  return [
    jurisdiction('TX'),
    jurisdiction('OK'),
    jurisdiction('MA'),
    jurisdiction('CT'),
    // A state with no risk-based managed care plans: its medicaid_mco gaps are outside the program (corpus/program-gap.ts).
    jurisdiction('WY', { mcoBrands: [], carveOuts: ['No risk-based MCOs; Wyoming Medicaid pays fee-for-service'] }),
    { ...payer('acme-payer', 'Acme Health Plan', ['OK'], ['medicare_advantage']), kind: 'ma_plan' },
    payer('PI-InsurerExample', 'Maryland Capital Insurance Company', ['MA'], ['medicaid_mco']),
    payer('insurance-company', 'Insurance Company', ['CT'], ['medicaid_mco']),
    mapping('cpt-77061-77067', { system: 'CPT', range: { from: '77061', to: '77067' }, serviceCategory: 'diagnostic_imaging' }),
    mapping('cpt-70551-70553', { system: 'CPT', range: { from: '70551', to: '70553' }, serviceCategory: 'advanced_imaging' }),
    mapping('ok-hcpcs-e0431', { system: 'HCPCS', code: 'E0431', serviceCategory: 'durable_medical_equipment', jurisdiction: 'OK' }),
    // The state list wins over the national range: TX lists 70553 as outpatient surgery (a contrived override).
    mapping('tx-cpt-70553', { system: 'CPT', code: '70553', serviceCategory: 'outpatient_surgery', jurisdiction: 'TX' }),
    drug('sofosbuvir', 'hepatitis_c', 'sofosbuvir', ['Sovaldi'], { ingredient: '1484911', scd: ['1484919'] }),
    drug('semaglutide', 'glp1_weight_loss', 'semaglutide', ['Wegovy'], { ingredient: '1991302' }),
    // RxNorm SCD confirmed in NLM VSAC (scripts/corpus/rxnorm.ts).
    drug('sertraline', 'mental_health_antidepressants', 'sertraline', ['Zoloft'], { scd: ['312941'], products: [{ code: '312941', tty: 'SCD', name: 'sertraline 50 MG Oral Tablet' }] }),
    rule({ state: 'OK', program: 'medicare_advantage', kind: 'service', code: 'diagnostic_imaging', paRequired: false }),
    rule({ state: 'OK', program: 'medicare_advantage', kind: 'service', code: 'durable_medical_equipment', paType: 'full' }),
    rule({ state: 'MA', program: 'medicaid_mco', kind: 'service', code: 'behavioral_health_outpatient', paRequired: false, codes: [{ system: X12_1365, code: '3', display: 'Consultation' }] }),
    rule({ state: 'MA', program: 'medicaid_mco', kind: 'service', code: 'home_health', codes: [{ system: X12_1365, code: '42', display: 'Home Health Care' }] }),
    rule({ state: 'CT', program: 'medicaid_mco', kind: 'service', code: 'laboratory', codes: [{ system: 'http://loinc.org', code: '24338-6', display: 'Gas panel - Blood' }] }),
    rule({ state: 'TX', program: 'part_d', code: 'hepatitis_c', paType: 'full' }),
    withReq(rule({ state: 'TX', program: 'part_d', code: 'glp1_weight_loss', paType: 'step_therapy' }), {
      stepTherapy: 'Metformin for 90 days first',
      quantityLimit: '4 pens per 28 days',
      newStartsOnly: true,
    }),
    rule({ state: 'TX', program: 'part_d', code: 'diabetes_insulin', paRequired: false }),
    withReq(rule({ state: 'TX', program: 'part_d', code: 'mental_health_antidepressants', paType: 'step_therapy' }), {
      stepTherapy: 'Two generic antidepressants first',
      quantityLimit: '30 tablets per 30 days',
      newStartsOnly: true,
    }),
    rule({ state: 'TX', program: 'medicaid_mco', kind: 'service', code: 'advanced_imaging', paType: 'conditional' }),
    rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', paType: 'full' }),
  ];
}

// Copies of the public HL7 / Inferno example payloads (origin and licences in test/examples/SOURCES.md).
export const EXAMPLES = fileURLToPath(new URL('../examples', import.meta.url));
export const example = (name: string): any => JSON.parse(readFileSync(resolve(EXAMPLES, name), 'utf8')); // eslint-disable-line @typescript-eslint/no-explicit-any
