// Illustrative, generic PA criteria per drug class and service category. These are realistic summaries of what
// state programs and plans commonly ask for; they are NOT any specific payer's policy.
import type { DrugClass, PaType, ServiceCategory } from '../../src/domain/vocabulary.js';

export interface Template {
  /** Typical Medicaid / plan requirement, and an alternative that some states or plans use (for variety). */
  paType: PaType;
  alt?: PaType;
  criteria: string;
  documentation: string[];
  stepTherapy?: string;
  quantityLimit?: string;
}

export const DRUG_TEMPLATES: Readonly<Record<DrugClass, Template>> = {
  adhd_stimulants: {
    paType: 'conditional', alt: 'quantity_limit',
    criteria: 'Preferred agents without PA within age and dose limits; PA for non-preferred agents, doses above the limit, adults starting therapy, or children under the minimum age. Diagnosis of ADHD (or narcolepsy) required.',
    documentation: ['ADHD diagnosis and assessment', 'Trial of preferred agents', 'Dose and quantity requested', 'Prescription drug monitoring program check'],
    quantityLimit: 'Daily dose and units per 30 days per drug label.',
  },
  biosimilars: {
    paType: 'step_therapy', alt: 'conditional',
    criteria: 'Preferred biosimilar or reference product per the preferred drug list; PA when a non-preferred product is requested, with clinical reason the preferred product cannot be used.',
    documentation: ['Diagnosis', 'Preferred product tried or contraindicated', 'Prescriber attestation of clinical reason'],
    stepTherapy: 'Preferred biosimilar (or preferred reference product) first.',
  },
  brand_name_no_generic: {
    paType: 'conditional', alt: 'step_therapy',
    criteria: 'Non-preferred single-source brands need PA showing failure of, or contraindication to, preferred formulary alternatives in the same therapeutic class.',
    documentation: ['Diagnosis', 'Formulary alternatives tried, with dates and outcome', 'Reason preferred agents are unsuitable'],
    stepTherapy: 'Preferred agents in the therapeutic class first.',
  },
  brand_name_with_generic: {
    paType: 'conditional',
    criteria: 'Generic substitution expected; brand dispensed as written only with PA (brand medically necessary), e.g. documented adverse reaction or treatment failure on the generic, unless the brand is preferred on the state list.',
    documentation: ['Generic tried, with dates', 'Description of adverse reaction or failure (e.g. MedWatch form)', 'Brand medically necessary attestation'],
  },
  compounded_medications: {
    paType: 'full',
    criteria: 'PA when the compound exceeds a cost threshold, contains a non-covered or bulk ingredient, or duplicates a commercially available product; each ingredient must be covered and the route must be appropriate.',
    documentation: ['Ingredient list with quantities', 'Reason a commercial product cannot be used', 'Diagnosis'],
  },
  controlled_schedule_ii: {
    paType: 'quantity_limit', alt: 'conditional',
    criteria: 'Opioid analgesics: PA above morphine-milligram-equivalent limits, for long-acting formulations, or beyond initial days-supply limits for opioid-naive patients; cancer, hospice and sickle cell pain commonly exempt.',
    documentation: ['Diagnosis and pain assessment', 'Prescription drug monitoring program check', 'Treatment plan / patient-provider agreement', 'MME calculation'],
    quantityLimit: 'Days-supply and MME-per-day limits per state policy.',
  },
  controlled_schedule_iii_v: {
    paType: 'quantity_limit',
    criteria: 'Quantity limits apply (e.g. benzodiazepines, sedative-hypnotics, tramadol); PA for quantities above the limit or for combined opioid and benzodiazepine use.',
    documentation: ['Diagnosis', 'Prescription drug monitoring program check', 'Justification for dose above limit'],
    quantityLimit: 'Units per 30 days per drug and state policy.',
  },
  diabetes_insulin: {
    paType: 'conditional', alt: 'none',
    criteria: 'Preferred insulins without PA; non-preferred insulins, pumps-only products or concentrated insulins need PA showing intolerance or failure of preferred products.',
    documentation: ['Diabetes diagnosis', 'Preferred insulin tried', 'Current regimen and A1c'],
  },
  diabetes_non_insulin: {
    paType: 'step_therapy', alt: 'conditional',
    criteria: 'Type 2 diabetes diagnosis required for GLP-1 and SGLT2/DPP-4 agents; metformin trial (or contraindication) before second-line agents; non-preferred products need PA.',
    documentation: ['Type 2 diabetes diagnosis (ICD-10 E11.x)', 'A1c result', 'Metformin trial or contraindication', 'Not for weight loss attestation for GLP-1 agents'],
    stepTherapy: 'Metformin first unless contraindicated.',
  },
  glp1_weight_loss: {
    paType: 'full', alt: 'none',
    criteria: 'Anti-obesity GLP-1 agents are an optional benefit. Where covered: adult BMI at least 30, or at least 27 with a weight-related comorbidity, participation in a lifestyle program, and reauthorization only with documented weight loss. Where not covered, PA is not available for weight-loss use.',
    documentation: ['BMI and weight history', 'Weight-related comorbidities', 'Lifestyle / nutrition program participation', 'Weight at reauthorization'],
  },
  hepatitis_c: {
    paType: 'full', alt: 'conditional',
    criteria: 'Chronic hepatitis C confirmed by detectable HCV RNA; genotype where required; fibrosis assessment; treatment regimen and duration consistent with the label or AASLD/IDSA guidance. Many states have removed fibrosis, sobriety and specialist restrictions.',
    documentation: ['HCV RNA (viral load) result', 'Genotype (if required)', 'Fibrosis assessment (e.g. FIB-4, elastography)', 'Prior treatment history', 'Prescriber specialty or consultation (if required)'],
  },
  hiv_antiretrovirals: {
    paType: 'none', alt: 'conditional',
    criteria: 'Antiretrovirals for treatment are generally available without PA; some programs apply PA to non-preferred single-tablet regimens or long-acting injectables. PrEP agents may have separate rules.',
    documentation: ['HIV diagnosis or PrEP indication', 'Current regimen', 'Resistance testing (for non-preferred regimens)'],
  },
  immunosuppressants: {
    paType: 'none', alt: 'conditional',
    criteria: 'Transplant immunosuppressants generally available without PA to avoid interruption; non-preferred brands or new formulations may need PA.',
    documentation: ['Transplant type and date', 'Current regimen', 'Reason for non-preferred product (if requested)'],
  },
  mental_health_antidepressants: {
    paType: 'conditional', alt: 'step_therapy',
    criteria: 'Generic SSRIs/SNRIs preferred without PA; newer brand antidepressants need PA after trials of preferred agents; continuity of care protects stabilized patients.',
    documentation: ['Diagnosis', 'Preferred agents tried, with dates and response', 'Continuity-of-care statement if already stable'],
    stepTherapy: 'One or two preferred generic antidepressants first.',
  },
  mental_health_antipsychotics: {
    paType: 'conditional',
    criteria: 'Preferred oral antipsychotics without PA for adults; PA for non-preferred agents, children below an age threshold, doses above limits, or multiple concurrent antipsychotics; long-acting injectables may be preferred.',
    documentation: ['Diagnosis', 'Preferred agents tried', 'Metabolic monitoring (weight, glucose, lipids) for children', 'Justification for polypharmacy'],
  },
  oncology_oral: {
    paType: 'full', alt: 'conditional',
    criteria: 'Use must match an FDA-approved or compendia-supported indication; biomarker or mutation testing where the label requires it; prescribed by or with an oncologist.',
    documentation: ['Cancer diagnosis and stage', 'Biomarker / mutation test results', 'Prior therapies', 'Prescriber specialty'],
  },
  opioid_treatment: {
    paType: 'none', alt: 'conditional',
    criteria: 'Many states removed PA for preferred buprenorphine products for opioid use disorder; PA may remain for non-preferred formulations, doses above 24 mg/day, or long-acting injectables.',
    documentation: ['Opioid use disorder diagnosis', 'Dose requested', 'Prescription drug monitoring program check'],
  },
  rare_disease_orphan: {
    paType: 'full',
    criteria: 'Diagnosis confirmed by genetic or enzyme testing where applicable; prescribed by or with a specialist; baseline measures for reauthorization; use within the FDA-labeled population.',
    documentation: ['Confirmatory diagnostic test results', 'Specialist consultation', 'Baseline clinical measures', 'Weight-based dosing calculation'],
  },
  specialty_biologics: {
    paType: 'full', alt: 'step_therapy',
    criteria: 'Diagnosis-specific criteria (e.g. rheumatoid arthritis, psoriasis, Crohn disease, asthma); trial of conventional therapy; preferred biologic first; tuberculosis screening before TNF inhibitors; reauthorization on documented response.',
    documentation: ['Diagnosis and severity', 'Conventional therapies tried', 'TB screening result', 'Preferred biologic tried (if non-preferred requested)'],
    stepTherapy: 'Conventional systemic therapy and preferred biologic first.',
  },
  specialty_non_biologic: {
    paType: 'full', alt: 'step_therapy',
    criteria: 'Specialty small-molecule drugs (e.g. JAK inhibitors, MS oral agents, pulmonary hypertension agents) need PA for diagnosis, specialist prescriber and trial of preferred agents.',
    documentation: ['Diagnosis', 'Specialist prescriber', 'Preferred agents tried', 'Required baseline labs'],
    stepTherapy: 'Preferred agents in the class first.',
  },
};

export const SERVICE_TEMPLATES: Readonly<Record<ServiceCategory, Template>> = {
  advanced_imaging: {
    paType: 'full', alt: 'conditional',
    criteria: 'Non-emergent outpatient MRI, CT, PET and nuclear cardiology need PA against evidence-based imaging guidelines (often through a radiology benefit manager); emergency and inpatient imaging exempt.',
    documentation: ['Clinical indication and symptoms', 'Relevant prior imaging and results', 'Conservative treatment tried (for musculoskeletal imaging)', 'Ordering provider'],
  },
  ambulance_transport: {
    paType: 'conditional', alt: 'none',
    criteria: 'Emergency ambulance does not need PA; scheduled non-emergency ambulance transport needs PA or a physician certification of medical necessity.',
    documentation: ['Physician certification statement', 'Reason other transport is contraindicated', 'Trip schedule'],
  },
  behavioral_health_inpatient: {
    paType: 'notification_only', alt: 'full',
    criteria: 'Emergency psychiatric admissions need notification within a set period; continued stay reviewed concurrently against medical-necessity criteria; planned admissions and residential treatment need PA.',
    documentation: ['Admission assessment', 'Risk assessment', 'Treatment and discharge plan'],
  },
  behavioral_health_outpatient: {
    paType: 'none', alt: 'conditional',
    criteria: 'Routine outpatient therapy and medication management without PA; intensive services (partial hospitalization, intensive outpatient, ABA, psychological testing) need PA or visit-threshold review.',
    documentation: ['Diagnosis', 'Treatment plan', 'Assessment supporting the level of care'],
  },
  dental: {
    paType: 'conditional',
    criteria: 'Preventive and routine dental without PA; PA for orthodontics, crowns, periodontal surgery, dentures and general anesthesia for dental care. Adult dental coverage varies by state.',
    documentation: ['Radiographs', 'Periodontal charting', 'Treatment plan', 'Orthodontic index score (for orthodontics)'],
  },
  diagnostic_imaging: {
    paType: 'none',
    criteria: 'Plain radiographs, ultrasound and routine diagnostic imaging do not need PA.',
    documentation: ['Order with clinical indication'],
  },
  durable_medical_equipment: {
    paType: 'conditional', alt: 'full',
    criteria: 'PA for items above a cost threshold, rentals beyond the initial period, power mobility, specialty beds, custom items and items not on the fee schedule; routine supplies within limits without PA.',
    documentation: ['Prescription / detailed written order', 'Face-to-face encounter note', 'Medical necessity letter', 'Home assessment (for mobility devices)'],
  },
  home_health: {
    paType: 'conditional', alt: 'full',
    criteria: 'Initial home health visits within a limit without PA; PA for visits beyond the limit, private-duty nursing and extended aide hours.',
    documentation: ['Physician or practitioner order', 'Plan of care', 'Homebound status or need assessment', 'Face-to-face encounter'],
  },
  hospice: {
    paType: 'notification_only', alt: 'none',
    criteria: 'Election of the hospice benefit with physician certification of terminal illness (life expectancy of six months or less); notice of election filed with the program.',
    documentation: ['Certification of terminal illness', 'Election statement', 'Plan of care'],
  },
  inpatient_hospital: {
    paType: 'notification_only', alt: 'full',
    criteria: 'Emergency admissions need notification; elective admissions need PA; continued stays reviewed against medical-necessity criteria.',
    documentation: ['Admitting diagnosis', 'Clinical documentation supporting inpatient level of care', 'Planned procedure (elective admissions)'],
  },
  laboratory: {
    paType: 'conditional', alt: 'none',
    criteria: 'Routine laboratory tests without PA; PA for molecular and genetic testing, multi-gene panels and some proprietary laboratory analyses.',
    documentation: ['Test requested (CPT code)', 'Clinical indication and family history', 'How the result will change management', 'Genetic counseling (if required)'],
  },
  long_term_care: {
    paType: 'full',
    criteria: 'Nursing facility and home- and community-based long-term services need a level-of-care assessment and pre-admission screening (PASRR), plus financial eligibility.',
    documentation: ['Level-of-care assessment', 'PASRR Level I/II screening', 'Physician certification'],
  },
  occupational_therapy: {
    paType: 'conditional', alt: 'full',
    criteria: 'Evaluation and an initial set of visits without PA; further visits need PA with measurable functional goals and progress.',
    documentation: ['Evaluation', 'Plan of care with functional goals', 'Progress notes', 'Prescription'],
  },
  outpatient_surgery: {
    paType: 'conditional', alt: 'full',
    criteria: 'PA for listed elective procedures (e.g. bariatric surgery, spinal surgery, joint procedures, potentially cosmetic procedures); most other outpatient procedures without PA.',
    documentation: ['Procedure (CPT) and diagnosis', 'Conservative treatment tried', 'Imaging or test results', 'Photographs for potentially cosmetic procedures'],
  },
  pharmacy_standard: {
    paType: 'conditional',
    criteria: 'Preferred drug list / formulary drugs without PA; non-preferred drugs, drugs with clinical criteria and early refills need PA. Emergency supply (72 hours) when PA is pending.',
    documentation: ['Diagnosis', 'Preferred agents tried', 'Clinical rationale'],
  },
  physical_therapy: {
    paType: 'conditional', alt: 'full',
    criteria: 'Evaluation and an initial set of visits without PA; further visits need PA with measurable functional goals and documented progress.',
    documentation: ['Evaluation', 'Plan of care with functional goals', 'Progress notes', 'Prescription'],
  },
  skilled_nursing_facility: {
    paType: 'full', alt: 'notification_only',
    criteria: 'Skilled nursing or rehabilitation stays need PA or admission review showing a daily skilled need; continued stay reviewed periodically.',
    documentation: ['Hospital discharge summary', 'Skilled need documentation', 'Therapy evaluation'],
  },
  specialty_drugs: {
    paType: 'full', alt: 'conditional',
    criteria: 'Physician-administered drugs billed on the medical benefit (J-codes) need PA for high-cost agents: indication, dosing, site of care and, for biologics, preferred product.',
    documentation: ['Diagnosis', 'Drug, dose and HCPCS code', 'Site of care', 'Prior therapies'],
  },
  speech_therapy: {
    paType: 'conditional', alt: 'full',
    criteria: 'Evaluation and an initial set of visits without PA; further visits need PA with measurable goals; augmentative communication devices reviewed separately.',
    documentation: ['Evaluation with standardized scores', 'Plan of care', 'Progress notes'],
  },
  substance_use_treatment: {
    paType: 'conditional', alt: 'none',
    criteria: 'Outpatient counseling and medication for opioid use disorder without PA; residential treatment and intensive outpatient programs need PA against ASAM level-of-care criteria.',
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
