// CPT/HCPCS code -> service category. Order: the state's PA code list (CodeMapping documents with that
// jurisdiction), then the national ranges in the corpus (CodeMapping documents without one), then the built-in
// range table below, which exists so that a corpus without code mappings still resolves common codes.
// The ranges are documented in docs/decision-support.md; keep the two in step.
import type { CodeMappingDoc } from '../domain/documents.js';
import { isServiceCategory, type ServiceCategory } from '../domain/vocabulary.js';
import type { ReadModel } from './read-model.js';

export type CodeSystem = 'CPT' | 'HCPCS';

export interface CodeResolution {
  code: string;
  system: CodeSystem;
  service_category: ServiceCategory;
  matched_by: 'state_pa_list' | 'national_range' | 'builtin_range';
  mapping_id: string | null;
  description: string;
  source: { title: string; url: string } | null;
}

/** CPT Category I (5 digits), Category II/III (4 digits + F/T/U), HCPCS Level II (a letter + 4 digits). */
export const CODE_PATTERN = /^(\d{5}|\d{4}[FTU]|[A-V]\d{4})$/;

export function codeSystemOf(code: string): CodeSystem {
  return /^[A-V]\d{4}$/.test(code) ? 'HCPCS' : 'CPT';
}

/**
 * Codes compare as strings only within one shape: five digits against five digits, or the same leading letter
 * followed by four digits. This keeps a Category II code such as 7001F out of the numeric range 70010-70449.
 */
const shapeOf = (c: string): string => (/^\d{5}$/.test(c) ? 'n' : /^[A-Z]\d{4}$/.test(c) ? c[0]! : `x${c}`);

export function inRange(code: string, from: string, to: string): boolean {
  const s = shapeOf(code);
  return s === shapeOf(from) && s === shapeOf(to) && code >= from && code <= to;
}

/** The built-in fallback table: [system, from, to, category, description]. Ranges do not overlap. */
export const BUILTIN_RANGES: readonly (readonly [CodeSystem, string, string, ServiceCategory, string])[] = [
  ['CPT', '10004', '69990', 'outpatient_surgery', 'Surgery section'],
  ['CPT', '70010', '70449', 'diagnostic_imaging', 'Radiology: head and neck radiographs and CT below the advanced-imaging block'],
  ['CPT', '70450', '70498', 'advanced_imaging', 'CT and CT angiography, head and neck'],
  ['CPT', '70499', '70539', 'diagnostic_imaging', 'Radiology between head/neck CT and MRI'],
  ['CPT', '70540', '70559', 'advanced_imaging', 'MRI and MR angiography, face, neck and brain'],
  ['CPT', '70560', '71249', 'diagnostic_imaging', 'Radiology: chest radiographs'],
  ['CPT', '71250', '71275', 'advanced_imaging', 'CT and CT angiography, chest'],
  ['CPT', '71276', '71549', 'diagnostic_imaging', 'Radiology: chest, other'],
  ['CPT', '71550', '71555', 'advanced_imaging', 'MRI and MR angiography, chest'],
  ['CPT', '71556', '72124', 'diagnostic_imaging', 'Radiology: spine radiographs'],
  ['CPT', '72125', '72159', 'advanced_imaging', 'CT and MRI, spine'],
  ['CPT', '72160', '72190', 'diagnostic_imaging', 'Radiology: pelvis radiographs'],
  ['CPT', '72191', '72198', 'advanced_imaging', 'CT angiography and MRI, pelvis'],
  ['CPT', '72199', '73199', 'diagnostic_imaging', 'Radiology: upper extremity radiographs'],
  ['CPT', '73200', '73225', 'advanced_imaging', 'CT and MRI, upper extremity'],
  ['CPT', '73226', '73699', 'diagnostic_imaging', 'Radiology: lower extremity radiographs'],
  ['CPT', '73700', '73725', 'advanced_imaging', 'CT and MRI, lower extremity'],
  ['CPT', '73726', '74149', 'diagnostic_imaging', 'Radiology: abdomen radiographs'],
  ['CPT', '74150', '74183', 'advanced_imaging', 'CT and MRI, abdomen and pelvis'],
  ['CPT', '74184', '75556', 'diagnostic_imaging', 'Radiology: gastrointestinal, urinary and other studies'],
  ['CPT', '75557', '75574', 'advanced_imaging', 'Cardiac MRI and cardiac CT'],
  ['CPT', '75575', '77022', 'diagnostic_imaging', 'Radiology: vascular, ultrasound and radiologic guidance'],
  ['CPT', '77046', '77049', 'advanced_imaging', 'MRI, breast'],
  ['CPT', '77053', '77067', 'diagnostic_imaging', 'Breast mammography'],
  ['CPT', '78012', '78810', 'diagnostic_imaging', 'Nuclear medicine, diagnostic (other than PET)'],
  ['CPT', '78811', '78816', 'advanced_imaging', 'PET and PET/CT imaging'],
  ['CPT', '78817', '79999', 'diagnostic_imaging', 'Nuclear medicine, other'],
  ['CPT', '80047', '89398', 'laboratory', 'Pathology and laboratory'],
  ['CPT', '90785', '90899', 'behavioral_health_outpatient', 'Psychiatry'],
  ['CPT', '92507', '92508', 'speech_therapy', 'Treatment of speech, language, voice, communication disorder'],
  ['CPT', '92521', '92526', 'speech_therapy', 'Speech and swallowing evaluation and treatment'],
  ['CPT', '97010', '97164', 'physical_therapy', 'Physical medicine modalities, therapeutic procedures and PT evaluations'],
  ['CPT', '97165', '97168', 'occupational_therapy', 'Occupational therapy evaluations'],
  ['CPT', '97169', '97533', 'physical_therapy', 'Therapeutic activities and other physical medicine procedures'],
  ['CPT', '97535', '97546', 'occupational_therapy', 'Self-care, community and work reintegration training'],
  ['CPT', '99221', '99239', 'inpatient_hospital', 'Hospital inpatient and observation care E/M'],
  ['CPT', '99304', '99316', 'skilled_nursing_facility', 'Nursing facility care E/M'],
  ['CPT', '99377', '99378', 'hospice', 'Hospice care plan oversight'],
  ['HCPCS', 'A0425', 'A0999', 'ambulance_transport', 'Ambulance services and mileage'],
  ['HCPCS', 'A4206', 'A4640', 'durable_medical_equipment', 'Medical and surgical supplies billed under the DMEPOS benefit (infusion, urological, ostomy, tracheostomy, oxygen supplies)'],
  ['HCPCS', 'A5051', 'A5514', 'durable_medical_equipment', 'Ostomy supplies and diabetic shoes and inserts (DMEPOS)'],
  ['HCPCS', 'A6000', 'A6550', 'durable_medical_equipment', 'Surgical dressings and wound care supplies (DMEPOS)'],
  ['HCPCS', 'A7000', 'A8004', 'durable_medical_equipment', 'Respiratory, CPAP and tracheostomy supplies; protective helmets (DMEPOS)'],
  ['HCPCS', 'B4034', 'B9999', 'durable_medical_equipment', 'Enteral and parenteral nutrition (billed to the DME MACs under the prosthetic device benefit)'],
  ['HCPCS', 'D0120', 'D9999', 'dental', 'Dental procedures (CDT codes)'],
  ['HCPCS', 'E0100', 'E8002', 'durable_medical_equipment', 'Durable medical equipment'],
  ['HCPCS', 'G0151', 'G0162', 'home_health', 'Home health services'],
  ['HCPCS', 'G0179', 'G0181', 'home_health', 'Physician certification, recertification and care plan oversight for Medicare-covered home health'],
  ['HCPCS', 'G0182', 'G0182', 'hospice', 'Physician supervision of a hospice patient (care plan oversight)'],
  ['HCPCS', 'G2067', 'G2080', 'substance_use_treatment', 'Opioid treatment program bundles and add-ons'],
  ['HCPCS', 'H0001', 'H0030', 'substance_use_treatment', 'Alcohol and drug services'],
  ['HCPCS', 'H0031', 'H2033', 'behavioral_health_outpatient', 'Mental health and behavioral services'],
  ['HCPCS', 'H2034', 'H2036', 'substance_use_treatment', 'Alcohol and drug treatment programs'],
  ['HCPCS', 'J0120', 'J9999', 'specialty_drugs', 'Drugs administered other than oral method, chemotherapy'],
  ['HCPCS', 'K0001', 'K0899', 'durable_medical_equipment', 'Wheelchairs, power mobility devices and other DME'],
  ['HCPCS', 'L0112', 'L9900', 'durable_medical_equipment', 'Orthotic and prosthetic procedures and devices'],
  ['HCPCS', 'P2028', 'P7001', 'laboratory', 'Pathology and laboratory tests (HCPCS P codes)'],
  ['HCPCS', 'P9603', 'P9615', 'laboratory', 'Specimen collection travel allowance and catheterization for specimen collection'],
  ['HCPCS', 'Q5001', 'Q5010', 'hospice', 'Hospice care by site of service'],
  ['HCPCS', 'Q5101', 'Q5199', 'specialty_drugs', 'Biosimilar biological products'],
  ['HCPCS', 'R0070', 'R0075', 'diagnostic_imaging', 'Transportation of portable X-ray equipment and personnel'],
  ['HCPCS', 'T1019', 'T1020', 'long_term_care', 'Personal care services'],
];

function matches(m: CodeMappingDoc, code: string, system: CodeSystem): boolean {
  if (m.system !== system) return false;
  if (m.code !== undefined) return m.code === code;
  return m.range !== undefined && inRange(code, m.range.from, m.range.to);
}

/** Single codes before ranges, then the narrowest range: the most specific entry wins. */
function specificity(m: CodeMappingDoc): number {
  if (m.code !== undefined || !m.range) return 0;
  return Number.parseInt(m.range.to.replace(/\D/g, ''), 10) - Number.parseInt(m.range.from.replace(/\D/g, ''), 10) + 1;
}

function pick(candidates: readonly CodeMappingDoc[], code: string, system: CodeSystem): CodeMappingDoc | undefined {
  let best: CodeMappingDoc | undefined;
  for (const m of candidates) {
    if (!isServiceCategory(m.serviceCategory) || !matches(m, code, system)) continue;
    if (!best || specificity(m) < specificity(best) || (specificity(m) === specificity(best) && m.id < best.id)) best = m;
  }
  return best;
}

const indexed = new WeakMap<ReadModel, { byState: Map<string, CodeMappingDoc[]>; national: CodeMappingDoc[] }>();

function indexOf(model: ReadModel): { byState: Map<string, CodeMappingDoc[]>; national: CodeMappingDoc[] } {
  let idx = indexed.get(model);
  if (!idx) {
    const byState = new Map<string, CodeMappingDoc[]>();
    const national: CodeMappingDoc[] = [];
    for (const m of model.codeMappings) {
      if (m.jurisdiction) {
        const list = byState.get(m.jurisdiction) ?? [];
        list.push(m);
        byState.set(m.jurisdiction, list);
      } else national.push(m);
    }
    idx = { byState, national };
    indexed.set(model, idx);
  }
  return idx;
}

/** Resolves an upper-case code already matching CODE_PATTERN; undefined when nothing maps it. */
export function resolveCode(model: ReadModel, state: string, code: string): CodeResolution | undefined {
  const system = codeSystemOf(code);
  const idx = indexOf(model);
  const toResolution = (m: CodeMappingDoc, matchedBy: CodeResolution['matched_by']): CodeResolution => ({
    code,
    system,
    service_category: m.serviceCategory as ServiceCategory,
    matched_by: matchedBy,
    mapping_id: m.id,
    description: m.description,
    source: m.source ? { title: m.source.title, url: m.source.url } : null,
  });
  const fromState = pick(idx.byState.get(state) ?? [], code, system);
  if (fromState) return toResolution(fromState, 'state_pa_list');
  const national = pick(idx.national, code, system);
  if (national) return toResolution(national, 'national_range');
  const builtin = BUILTIN_RANGES.find(([sys, from, to]) => sys === system && inRange(code, from, to));
  if (!builtin) return undefined;
  return {
    code,
    system,
    service_category: builtin[3],
    matched_by: 'builtin_range',
    mapping_id: null,
    description: builtin[4],
    source: null,
  };
}
