// Our own phrasings, one table per pattern of issue 28 (not the examples): what a correct reading of each
// question is (state, program, subjects), over the generated sample corpus's reference data. Read by the unit test
// (test/unit/ask-extract.test.ts) and by the accuracy measure (bench/ask-accuracy.ts, docs/ask-accuracy.md).
// A bare "Medicaid" reads as managed care unless the state has no comprehensive managed care (then fee-for-service),
// as the ask service documents; rows marked control read correctly before the fixes too.

export interface Phrasing {
  q: string;
  state: string | null;
  program: string | null;
  subjects: string[];
  /** Read correctly before the issue-28 fixes (guards against regressions rather than measuring the fix). */
  control?: true;
}

export const PHRASINGS: Readonly<Record<'program_qualifier' | 'misspelt_state' | 'class_phrase', readonly Phrasing[]>> = {
  // 1. A qualifier ("fee-for-service", "managed care") beside a state's Medicaid program name, on either side.
  program_qualifier: [
    { q: 'Kentucky Medicaid fee for service: does Vyvanse need prior auth?', state: 'KY', program: 'medicaid_ffs', subjects: ['adhd_stimulants'] },
    { q: 'SoonerCare fee-for-service prior authorization for a brain MRI', state: 'OK', program: 'medicaid_ffs', subjects: ['advanced_imaging'] },
    { q: 'MassHealth fee-for-service (not an ACO), Suboxone PA?', state: 'MA', program: 'medicaid_ffs', subjects: ['opioid_treatment'] },
    { q: 'Michigan Medicaid (fee-for-service) wheelchair prior auth', state: 'MI', program: 'medicaid_ffs', subjects: ['durable_medical_equipment'] },
    { q: 'New York Medicaid, fee for service: is Biktarvy prior authorized?', state: 'NY', program: 'medicaid_ffs', subjects: ['hiv_antiretrovirals'] },
    { q: 'does fee-for-service Apple Health require prior approval for physical therapy', state: 'WA', program: 'medicaid_ffs', subjects: ['physical_therapy'] },
    { q: 'KanCare fee for service coverage of Xeljanz', state: 'KS', program: 'medicaid_ffs', subjects: ['specialty_non_biologic'] },
    { q: "BadgerCare Plus fee-for-service, Ibrance", state: 'WI', program: 'medicaid_ffs', subjects: ['oncology_oral'] },
    { q: 'Cardinal Care fee-for-service PA for Jardiance', state: 'VA', program: 'medicaid_ffs', subjects: ['diabetes_non_insulin'] },
    { q: "Kentucky Medicaid's fee-for-service program and an ambulance transport", state: 'KY', program: 'medicaid_ffs', subjects: ['ambulance_transport'] },
    { q: 'Medicare (fee-for-service) in Ohio, Abilify', state: 'OH', program: 'medicare_traditional', subjects: ['mental_health_antipsychotics'] },
    { q: 'Nevada Medicaid FFS and Trulicity', state: 'NV', program: 'medicaid_ffs', subjects: ['diabetes_non_insulin'], control: true },
    { q: 'Healthy Louisiana managed care plan: Wegovy prior auth', state: 'LA', program: 'medicaid_mco', subjects: ['glp1_weight_loss'], control: true },
    { q: 'NJ FamilyCare managed care and Dupixent', state: 'NJ', program: 'medicaid_mco', subjects: ['specialty_biologics'], control: true },
    { q: 'Medicaid (FFS) in Maryland for Revlimid', state: 'MD', program: 'medicaid_ffs', subjects: ['oncology_oral'], control: true },
  ],
  // 2. A misspelt state name (within the drug names' edit distance); common English words are never states.
  misspelt_state: [
    { q: 'Tennesee Medicaid managed care and Humira', state: 'TN', program: 'medicaid_mco', subjects: ['specialty_biologics'] },
    { q: 'Massachusets Medicaid MCO, Epclusa', state: 'MA', program: 'medicaid_mco', subjects: ['hepatitis_c'] },
    { q: 'Louisianna Medicaid Suboxone prior auth', state: 'LA', program: 'medicaid_mco', subjects: ['opioid_treatment'] },
    { q: 'Wisconson Medicaid fee-for-service Adderall', state: 'WI', program: 'medicaid_ffs', subjects: ['adhd_stimulants'] },
    { q: 'Arizonia Medicare Advantage MRI', state: 'AZ', program: 'medicare_advantage', subjects: ['advanced_imaging'] },
    { q: 'West Virgina Medicaid managed care, CT scan', state: 'WV', program: 'medicaid_mco', subjects: ['advanced_imaging'] },
    { q: 'North Carolia Medicaid managed care physical therapy', state: 'NC', program: 'medicaid_mco', subjects: ['physical_therapy'] },
    { q: 'Kentuky Part D prior auth for Abilify', state: 'KY', program: 'part_d', subjects: ['mental_health_antipsychotics'] },
    { q: 'Illinios Medicaid managed care and Biktarvy', state: 'IL', program: 'medicaid_mco', subjects: ['hiv_antiretrovirals'] },
    { q: 'Okalhoma Medicare Advantage, knee arthroscopy', state: 'OK', program: 'medicare_advantage', subjects: ['outpatient_surgery'] },
    { q: 'Califronia Part D, Ozempic', state: 'CA', program: 'part_d', subjects: ['diabetes_non_insulin'] },
    { q: 'Minnesotta Medicaid FFS and Lantus', state: 'MN', program: 'medicaid_ffs', subjects: ['diabetes_insulin'] },
    // English words within the same distance of a state name (texts~Texas, Indian~Indiana, marine~Maine, mainland~Maryland).
    { q: 'Are faxed texts enough for Medicaid managed care PA on Epclusa?', state: null, program: 'medicaid_mco', subjects: ['hepatitis_c'], control: true },
    { q: 'Indian Health Service clinic, Medicare Advantage, MRI', state: null, program: 'medicare_advantage', subjects: ['advanced_imaging'], control: true },
    { q: 'A marine veteran on Medicare Advantage needs a CT scan', state: null, program: 'medicare_advantage', subjects: ['advanced_imaging'], control: true },
    { q: 'Can a mainland pharmacy fill Wegovy under Part D?', state: null, program: 'part_d', subjects: ['glp1_weight_loss'], control: true },
  ],
  // 3. A drug class named by its head word and a product noun, with words between ("compounded ... cream").
  class_phrase: [
    { q: 'Is a compounded hormone cream covered under Texas Medicaid managed care?', state: 'TX', program: 'medicaid_mco', subjects: ['compounded_medications'] },
    { q: 'compounded pain ointment for a Part D member in Florida', state: 'FL', program: 'part_d', subjects: ['compounded_medications'] },
    { q: 'Does Florida Medicaid managed care need PA for a custom compounded capsule?', state: 'FL', program: 'medicaid_mco', subjects: ['compounded_medications'] },
    { q: 'compounded vitamin suspension for a child on Texas CHIP', state: 'TX', program: 'chip', subjects: ['compounded_medications'] },
    { q: 'PA for a compounded topical scar gel, Apple Health managed care', state: 'WA', program: 'medicaid_mco', subjects: ['compounded_medications'] },
    { q: 'oral cancer capsules under Part D in Arizona', state: 'AZ', program: 'part_d', subjects: ['oncology_oral'] },
    { q: 'weight-loss pens under Part D in Georgia', state: 'GA', program: 'part_d', subjects: ['glp1_weight_loss'] },
    { q: 'diabetes tablets for a Texas Medicaid managed care member', state: 'TX', program: 'medicaid_mco', subjects: ['diabetes_non_insulin'] },
    { q: 'transplant medication refills, New York Medicaid managed care', state: 'NY', program: 'medicaid_mco', subjects: ['immunosuppressants'] },
    { q: 'orphan drug for a rare condition, Ohio Medicaid managed care', state: 'OH', program: 'medicaid_mco', subjects: ['rare_disease_orphan'], control: true },
    { q: 'compounding pharmacy cream, Part D in Texas', state: 'TX', program: 'part_d', subjects: ['compounded_medications'], control: true },
    { q: 'anti-obesity injections, Medicare Advantage, Ohio', state: 'OH', program: 'medicare_advantage', subjects: ['glp1_weight_loss'], control: true },
    // "compounded" without a product noun is not the class.
    { q: 'MRI delay compounded by a denial, Texas Medicare Advantage', state: 'TX', program: 'medicare_advantage', subjects: ['advanced_imaging'], control: true },
  ],
};
