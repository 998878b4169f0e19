// Illustrative, generic PA criteria per drug class and service category. These are realistic summaries of what
// state programs and plans commonly ask for; they are NOT any specific payer's policy.
import type { DrugClass, PaType, ServiceCategory } from '../../src/domain/vocabulary.js';

export interface Template {
  /** Typical Medicaid / plan requirement for the class or category (one value: the sample has no per-state variants). */
  paType: PaType;
  criteria: string;
  documentation: string[];
  stepTherapy?: string;
  quantityLimit?: string;
}

export const DRUG_TEMPLATES: Readonly<Record<DrugClass, Template>> = {
  adhd_stimulants: {
    paType: 'conditional',
    criteria: 'Preferred agents within age/dose limits need no PA; PA for non-preferred agents, high doses, adult starts or very young children. ADHD or narcolepsy diagnosis.',
    documentation: ['ADHD diagnosis and assessment', 'Trial of preferred agents', 'Dose and quantity requested', 'Prescription drug monitoring program check'],
    quantityLimit: 'Daily dose and units per 30 days per drug label.',
  },
  biosimilars: {
    paType: 'step_therapy',
    criteria: 'Preferred biosimilar or reference product per the PDL; PA for a non-preferred product with the clinical reason.',
    documentation: ['Diagnosis', 'Preferred product tried or contraindicated', 'Prescriber attestation of clinical reason'],
    stepTherapy: 'Preferred biosimilar (or preferred reference product) first.',
  },
  brand_name_no_generic: {
    paType: 'conditional',
    criteria: 'Non-preferred single-source brands need PA after failure of, or contraindication to, preferred agents in the class.',
    documentation: ['Diagnosis', 'Formulary alternatives tried, with dates and outcome', 'Reason preferred agents are unsuitable'],
    stepTherapy: 'Preferred agents in the therapeutic class first.',
  },
  brand_name_with_generic: {
    paType: 'conditional',
    criteria: 'Generic expected; brand dispensed as written needs PA (brand medically necessary: adverse reaction or failure on the generic) unless the brand is preferred.',
    documentation: ['Generic tried, with dates', 'Description of adverse reaction or failure (e.g. MedWatch form)', 'Brand medically necessary attestation'],
  },
  compounded_medications: {
    paType: 'full',
    criteria: 'PA when a compound exceeds a cost threshold, has a bulk or non-covered ingredient, or duplicates a commercial product.',
    documentation: ['Ingredient list with quantities', 'Reason a commercial product cannot be used', 'Diagnosis'],
  },
  controlled_schedule_ii: {
    paType: 'quantity_limit',
    criteria: 'Opioids: PA above MME limits, for long-acting forms, or beyond initial days-supply limits for opioid-naive patients; cancer, hospice and sickle cell often exempt.',
    documentation: ['Diagnosis and pain assessment', 'Prescription drug monitoring program check', 'Treatment plan / patient-provider agreement', 'MME calculation'],
    quantityLimit: 'Days-supply and MME-per-day limits per state policy.',
  },
  controlled_schedule_iii_v: {
    paType: 'quantity_limit',
    criteria: 'Quantity limits (e.g. benzodiazepines, hypnotics, tramadol); PA above the limit or for opioid plus benzodiazepine use.',
    documentation: ['Diagnosis', 'Prescription drug monitoring program check', 'Justification for dose above limit'],
    quantityLimit: 'Units per 30 days per drug and state policy.',
  },
  diabetes_insulin: {
    paType: 'conditional',
    criteria: 'Preferred insulins need no PA; non-preferred or concentrated insulins need PA after preferred products.',
    documentation: ['Diabetes diagnosis', 'Preferred insulin tried', 'Current regimen and A1c'],
  },
  diabetes_non_insulin: {
    paType: 'step_therapy',
    criteria: 'Type 2 diabetes diagnosis for GLP-1, SGLT2 and DPP-4 agents; metformin first unless contraindicated; PA for non-preferred products.',
    documentation: ['Type 2 diabetes diagnosis (ICD-10 E11.x)', 'A1c result', 'Metformin trial or contraindication', 'Not for weight loss attestation for GLP-1 agents'],
    stepTherapy: 'Metformin first unless contraindicated.',
  },
  glp1_weight_loss: {
    paType: 'full',
    criteria: 'Optional benefit. Where covered: BMI 30+ (27+ with a comorbidity), lifestyle program, and documented weight loss to renew. Where not covered, no PA path for weight loss.',
    documentation: ['BMI and weight history', 'Weight-related comorbidities', 'Lifestyle / nutrition program participation', 'Weight at reauthorization'],
  },
  hepatitis_c: {
    paType: 'full',
    criteria: 'Chronic HCV confirmed by HCV RNA; genotype and fibrosis assessment where required; regimen per label or AASLD/IDSA guidance. Many states dropped fibrosis and sobriety limits.',
    documentation: ['HCV RNA (viral load) result', 'Genotype (if required)', 'Fibrosis assessment (e.g. FIB-4, elastography)', 'Prior treatment history', 'Prescriber specialty or consultation (if required)'],
  },
  hiv_antiretrovirals: {
    paType: 'none',
    criteria: 'Treatment regimens generally available without PA; some programs review non-preferred single-tablet regimens or long-acting injectables.',
    documentation: ['HIV diagnosis or PrEP indication', 'Current regimen', 'Resistance testing (for non-preferred regimens)'],
  },
  immunosuppressants: {
    paType: 'none',
    criteria: 'Transplant immunosuppressants generally without PA to avoid interruption; non-preferred brands may need PA.',
    documentation: ['Transplant type and date', 'Current regimen', 'Reason for non-preferred product (if requested)'],
  },
  mental_health_antidepressants: {
    paType: 'conditional',
    criteria: 'Generic SSRIs/SNRIs without PA; newer brands need PA after preferred trials; stabilized patients continue.',
    documentation: ['Diagnosis', 'Preferred agents tried, with dates and response', 'Continuity-of-care statement if already stable'],
    stepTherapy: 'One or two preferred generic antidepressants first.',
  },
  mental_health_antipsychotics: {
    paType: 'conditional',
    criteria: 'Preferred oral agents without PA for adults; PA for non-preferred agents, young children, high doses or two or more antipsychotics.',
    documentation: ['Diagnosis', 'Preferred agents tried', 'Metabolic monitoring (weight, glucose, lipids) for children', 'Justification for polypharmacy'],
  },
  oncology_oral: {
    paType: 'full',
    criteria: 'FDA-approved or compendia-supported indication; biomarker testing where labeled; oncologist prescriber.',
    documentation: ['Cancer diagnosis and stage', 'Biomarker / mutation test results', 'Prior therapies', 'Prescriber specialty'],
  },
  opioid_treatment: {
    paType: 'none',
    criteria: 'Many states removed PA for preferred buprenorphine; PA may remain for non-preferred forms, doses over 24 mg/day or injectables.',
    documentation: ['Opioid use disorder diagnosis', 'Dose requested', 'Prescription drug monitoring program check'],
  },
  rare_disease_orphan: {
    paType: 'full',
    criteria: 'Diagnosis confirmed by genetic or enzyme testing; specialist prescriber; labeled population; baseline measures for renewal.',
    documentation: ['Confirmatory diagnostic test results', 'Specialist consultation', 'Baseline clinical measures', 'Weight-based dosing calculation'],
  },
  specialty_biologics: {
    paType: 'full',
    criteria: 'Diagnosis-specific criteria; conventional therapy first; preferred biologic first; TB screen before TNF inhibitors; renewal on response.',
    documentation: ['Diagnosis and severity', 'Conventional therapies tried', 'TB screening result', 'Preferred biologic tried (if non-preferred requested)'],
    stepTherapy: 'Conventional systemic therapy and preferred biologic first.',
  },
  specialty_non_biologic: {
    paType: 'full',
    criteria: 'Specialty small molecules (JAK inhibitors, MS and PAH agents): diagnosis, specialist prescriber, preferred agents first.',
    documentation: ['Diagnosis', 'Specialist prescriber', 'Preferred agents tried', 'Required baseline labs'],
    stepTherapy: 'Preferred agents in the class first.',
  },
};

export const SERVICE_TEMPLATES: Readonly<Record<ServiceCategory, Template>> = {
  advanced_imaging: {
    paType: 'full',
    criteria: 'Non-emergent outpatient MRI, CT, PET and nuclear cardiology need PA against imaging guidelines (often via a radiology benefit manager); emergency and inpatient exempt.',
    documentation: ['Clinical indication and symptoms', 'Relevant prior imaging and results', 'Conservative treatment tried (for musculoskeletal imaging)', 'Ordering provider'],
  },
  ambulance_transport: {
    paType: 'conditional',
    criteria: 'Emergency ambulance needs no PA; scheduled non-emergency ambulance needs PA or a physician certification.',
    documentation: ['Physician certification statement', 'Reason other transport is contraindicated', 'Trip schedule'],
  },
  behavioral_health_inpatient: {
    paType: 'notification_only',
    criteria: 'Emergency admissions need notification; planned admissions and residential treatment need PA; concurrent review.',
    documentation: ['Admission assessment', 'Risk assessment', 'Treatment and discharge plan'],
  },
  behavioral_health_outpatient: {
    paType: 'none',
    criteria: 'Routine therapy and medication management without PA; PA for partial hospitalization, IOP, ABA and psychological testing.',
    documentation: ['Diagnosis', 'Treatment plan', 'Assessment supporting the level of care'],
  },
  dental: {
    paType: 'conditional',
    criteria: 'Preventive care without PA; PA for orthodontics, crowns, periodontal surgery, dentures and anesthesia. Adult coverage varies.',
    documentation: ['Radiographs', 'Periodontal charting', 'Treatment plan', 'Orthodontic index score (for orthodontics)'],
  },
  diagnostic_imaging: {
    paType: 'none',
    criteria: 'Radiographs, ultrasound and routine diagnostic imaging need no PA.',
    documentation: ['Order with clinical indication'],
  },
  durable_medical_equipment: {
    paType: 'conditional',
    criteria: 'PA for items over a cost threshold, extended rentals, power mobility, specialty beds and custom items.',
    documentation: ['Prescription / detailed written order', 'Face-to-face encounter note', 'Medical necessity letter', 'Home assessment (for mobility devices)'],
  },
  home_health: {
    paType: 'conditional',
    criteria: 'Initial visits within a limit without PA; PA beyond the limit and for private-duty nursing.',
    documentation: ['Physician or practitioner order', 'Plan of care', 'Homebound status or need assessment', 'Face-to-face encounter'],
  },
  hospice: {
    paType: 'notification_only',
    criteria: 'Hospice election with physician certification of terminal illness (prognosis six months or less).',
    documentation: ['Certification of terminal illness', 'Election statement', 'Plan of care'],
  },
  inpatient_hospital: {
    paType: 'notification_only',
    criteria: 'Emergency admissions need notification; elective admissions need PA; continued stays reviewed.',
    documentation: ['Admitting diagnosis', 'Clinical documentation supporting inpatient level of care', 'Planned procedure (elective admissions)'],
  },
  laboratory: {
    paType: 'conditional',
    criteria: 'Routine tests without PA; PA for molecular and genetic tests and multi-gene panels.',
    documentation: ['Test requested (CPT code)', 'Clinical indication and family history', 'How the result will change management', 'Genetic counseling (if required)'],
  },
  long_term_care: {
    paType: 'full',
    criteria: 'Nursing facility and HCBS need a level-of-care assessment, PASRR screening and financial eligibility.',
    documentation: ['Level-of-care assessment', 'PASRR Level I/II screening', 'Physician certification'],
  },
  occupational_therapy: {
    paType: 'conditional',
    criteria: 'Evaluation and initial visits without PA; more visits need PA with functional goals and progress.',
    documentation: ['Evaluation', 'Plan of care with functional goals', 'Progress notes', 'Prescription'],
  },
  outpatient_surgery: {
    paType: 'conditional',
    criteria: 'PA for listed elective procedures (e.g. bariatric, spine, joint, potentially cosmetic); most others without PA.',
    documentation: ['Procedure (CPT) and diagnosis', 'Conservative treatment tried', 'Imaging or test results', 'Photographs for potentially cosmetic procedures'],
  },
  pharmacy_standard: {
    paType: 'conditional',
    criteria: 'PDL/formulary drugs without PA; non-preferred drugs and early refills need PA; 72-hour emergency supply.',
    documentation: ['Diagnosis', 'Preferred agents tried', 'Clinical rationale'],
  },
  physical_therapy: {
    paType: 'conditional',
    criteria: 'Evaluation and initial visits without PA; more visits need PA with functional goals and progress.',
    documentation: ['Evaluation', 'Plan of care with functional goals', 'Progress notes', 'Prescription'],
  },
  skilled_nursing_facility: {
    paType: 'full',
    criteria: 'Skilled stays need PA or admission review showing a daily skilled need; periodic review.',
    documentation: ['Hospital discharge summary', 'Skilled need documentation', 'Therapy evaluation'],
  },
  specialty_drugs: {
    paType: 'full',
    criteria: 'Physician-administered (J-code) drugs: PA for high-cost agents on indication, dose, site of care and preferred product.',
    documentation: ['Diagnosis', 'Drug, dose and HCPCS code', 'Site of care', 'Prior therapies'],
  },
  speech_therapy: {
    paType: 'conditional',
    criteria: 'Evaluation and initial visits without PA; more visits need PA with measurable goals.',
    documentation: ['Evaluation with standardized scores', 'Plan of care', 'Progress notes'],
  },
  substance_use_treatment: {
    paType: 'conditional',
    criteria: 'Outpatient counseling and MOUD without PA; residential and IOP need PA against ASAM criteria.',
    documentation: ['ASAM multidimensional assessment', 'Diagnosis', 'Treatment plan'],
  },
};

/** Example codes attached to a few program-level service rules (real CPT/HCPCS codes; examples, not complete lists). */
export const EXAMPLE_SERVICE_CODES: Partial<Record<ServiceCategory, { system: string; code: string; display: string }[]>> = {
  advanced_imaging: [
    { system: 'CPT', code: '70551', display: 'MRI brain without contrast' },
    { system: 'CPT', code: '72148', display: 'MRI lumbar spine without contrast' },
    { system: 'CPT', code: '78815', display: 'PET with concurrently acquired CT, skull base to mid-thigh' },
  ],
  physical_therapy: [
    { system: 'CPT', code: '97110', display: 'Therapeutic exercise' },
    { system: 'CPT', code: '97161', display: 'Physical therapy evaluation, low complexity' },
  ],
};
