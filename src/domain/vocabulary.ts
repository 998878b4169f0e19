// The controlled vocabulary of the interface (spec 2.1). Everything else keys off these lists.

export const PROGRAMS = [
  'medicaid_mco',
  'medicaid_ffs',
  'medicare_advantage',
  'medicare_traditional',
  'dual_eligible',
  'part_d',
  'chip',
] as const;
export type Program = (typeof PROGRAMS)[number];

export const PROGRAM_LABELS: Readonly<Record<Program, string>> = {
  medicaid_mco: 'Medicaid managed care',
  medicaid_ffs: 'Medicaid fee-for-service',
  medicare_advantage: 'Medicare Advantage (Part C)',
  medicare_traditional: 'Traditional Medicare (Parts A/B)',
  dual_eligible: 'Dual eligible (Medicare and Medicaid)',
  part_d: 'Medicare Part D',
  chip: "Children's Health Insurance Program (CHIP)",
};

export const DRUG_CLASSES = [
  'adhd_stimulants',
  'biosimilars',
  'brand_name_no_generic',
  'brand_name_with_generic',
  'compounded_medications',
  'controlled_schedule_ii',
  'controlled_schedule_iii_v',
  'diabetes_insulin',
  'diabetes_non_insulin',
  'glp1_weight_loss',
  'hepatitis_c',
  'hiv_antiretrovirals',
  'immunosuppressants',
  'mental_health_antidepressants',
  'mental_health_antipsychotics',
  'oncology_oral',
  'opioid_treatment',
  'rare_disease_orphan',
  'specialty_biologics',
  'specialty_non_biologic',
] as const;
export type DrugClass = (typeof DRUG_CLASSES)[number];

export const DRUG_CLASS_LABELS: Readonly<Record<DrugClass, string>> = {
  adhd_stimulants: 'ADHD stimulants',
  biosimilars: 'Biosimilars',
  brand_name_no_generic: 'Brand-name drugs without a generic',
  brand_name_with_generic: 'Brand-name drugs with a generic available',
  compounded_medications: 'Compounded medications',
  controlled_schedule_ii: 'Controlled substances, Schedule II',
  controlled_schedule_iii_v: 'Controlled substances, Schedules III-V',
  diabetes_insulin: 'Diabetes: insulins',
  diabetes_non_insulin: 'Diabetes: non-insulin agents',
  glp1_weight_loss: 'GLP-1 agonists for weight loss',
  hepatitis_c: 'Hepatitis C direct-acting antivirals',
  hiv_antiretrovirals: 'HIV antiretrovirals',
  immunosuppressants: 'Immunosuppressants',
  mental_health_antidepressants: 'Antidepressants',
  mental_health_antipsychotics: 'Antipsychotics',
  oncology_oral: 'Oral oncology agents',
  opioid_treatment: 'Opioid use disorder treatment',
  rare_disease_orphan: 'Rare disease and orphan drugs',
  specialty_biologics: 'Specialty biologics',
  specialty_non_biologic: 'Specialty non-biologic drugs',
};

export const SERVICE_CATEGORIES = [
  'advanced_imaging',
  'ambulance_transport',
  'behavioral_health_inpatient',
  'behavioral_health_outpatient',
  'dental',
  'diagnostic_imaging',
  'durable_medical_equipment',
  'home_health',
  'hospice',
  'inpatient_hospital',
  'laboratory',
  'long_term_care',
  'occupational_therapy',
  'outpatient_surgery',
  'pharmacy_standard',
  'physical_therapy',
  'skilled_nursing_facility',
  'specialty_drugs',
  'speech_therapy',
  'substance_use_treatment',
] as const;
export type ServiceCategory = (typeof SERVICE_CATEGORIES)[number];

export const SERVICE_CATEGORY_LABELS: Readonly<Record<ServiceCategory, string>> = {
  advanced_imaging: 'Advanced imaging (MRI, CT, PET)',
  ambulance_transport: 'Ambulance transport',
  behavioral_health_inpatient: 'Behavioral health, inpatient',
  behavioral_health_outpatient: 'Behavioral health, outpatient',
  dental: 'Dental',
  diagnostic_imaging: 'Diagnostic imaging',
  durable_medical_equipment: 'Durable medical equipment (DMEPOS)',
  home_health: 'Home health',
  hospice: 'Hospice',
  inpatient_hospital: 'Inpatient hospital',
  laboratory: 'Laboratory and genetic testing',
  long_term_care: 'Long-term care',
  occupational_therapy: 'Occupational therapy',
  outpatient_surgery: 'Outpatient surgery and procedures',
  pharmacy_standard: 'Pharmacy (standard benefit)',
  physical_therapy: 'Physical therapy',
  skilled_nursing_facility: 'Skilled nursing facility',
  specialty_drugs: 'Specialty drugs (medical benefit)',
  speech_therapy: 'Speech therapy',
  substance_use_treatment: 'Substance use disorder treatment',
};

export const PA_TYPES = ['full', 'conditional', 'step_therapy', 'quantity_limit', 'notification_only', 'none'] as const;
export type PaType = (typeof PA_TYPES)[number];

export const SUBJECT_KINDS = ['drug', 'service'] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

/**
 * What a regulatory event changes for the subjects it applies to: whether PA is needed (`requirement`: a PA list,
 * a model's start or end, a coverage restriction), how a request is decided (`decision`: criteria, timeframes,
 * denial reasons), how requests and data are exchanged (`process`: APIs, transaction standards), what payers
 * report (`reporting`), or nothing by itself (`announcement`: a rule or model whose dated provisions are events of
 * their own, or a proposal).
 */
export const PA_EFFECTS = ['requirement', 'decision', 'process', 'reporting', 'announcement'] as const;
export type PaEffect = (typeof PA_EFFECTS)[number];
/** The effects that can change a PA answer, so that waiting for the date may be worth it. */
export const ANSWER_CHANGING_EFFECTS: readonly PaEffect[] = ['requirement', 'decision'];

/**
 * verified: every claim of the document rests on a cited official source a reviewer checked.
 * sample: an illustrative rule (realistic, generic criteria) or one resting on facts not fully confirmed; served
 * only when the server runs with SERVE_SAMPLE_RULES=true. draft and retired are stored but never served.
 */
export const VERIFICATION_STATUSES = ['verified', 'sample', 'draft', 'retired'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
/** The statuses a rule can be served with (rule_status); by default only 'verified' is served (SERVE_SAMPLE_RULES=true adds 'sample'). */
export const SERVED_RULE_STATUSES = ['verified', 'sample'] as const;
export type ServedRuleStatus = (typeof SERVED_RULE_STATUSES)[number];

export const SERVED_FROM = ['static', 'edge', 'api', 'blob'] as const;

/** Every USPS code the interface covers: the 50 states and DC. */
export const JURISDICTIONS = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

const programSet: ReadonlySet<string> = new Set(PROGRAMS);
const drugSet: ReadonlySet<string> = new Set(DRUG_CLASSES);
const serviceSet: ReadonlySet<string> = new Set(SERVICE_CATEGORIES);
const jurisdictionSet: ReadonlySet<string> = new Set(JURISDICTIONS);

export const isProgram = (v: string): v is Program => programSet.has(v);
export const isDrugClass = (v: string): v is DrugClass => drugSet.has(v);
export const isServiceCategory = (v: string): v is ServiceCategory => serviceSet.has(v);
export const isJurisdiction = (v: string): v is Jurisdiction => jurisdictionSet.has(v);

/**
 * Program names that real clients of this interface still send (older documents of the peer service used
 * `ma` and `dual`). Accepted on input, never emitted.
 */
export const PROGRAM_ALIASES: Readonly<Record<string, Program>> = {
  ma: 'medicare_advantage',
  dual: 'dual_eligible',
  medicare: 'medicare_traditional',
  partd: 'part_d',
  mco: 'medicaid_mco',
  ffs: 'medicaid_ffs',
};

export function normalizeProgram(raw: string): Program | undefined {
  const v = raw.trim().toLowerCase();
  if (isProgram(v)) return v;
  return PROGRAM_ALIASES[v];
}

export function subjectLabel(kind: SubjectKind, code: string): string {
  if (kind === 'drug') return isDrugClass(code) ? DRUG_CLASS_LABELS[code] : code;
  return isServiceCategory(code) ? SERVICE_CATEGORY_LABELS[code] : code;
}

/** The Part D protected classes (42 U.S.C. 1395w-104(b)(3)(G)) as they map onto our drug classes. */
export const PART_D_PROTECTED_DRUG_CLASSES: readonly DrugClass[] = [
  'mental_health_antidepressants',
  'mental_health_antipsychotics',
  'immunosuppressants',
  'hiv_antiretrovirals',
  'oncology_oral',
];
