// Payers that get payer-level sample rules: real Medicaid MCO brands in 13 states, and four national Medicare
// Advantage organizations / Part D sponsors. Names are real; the rules attached to them are illustrative only.
import type { DrugClass, Jurisdiction, Program, ServiceCategory } from '../../src/domain/vocabulary.js';

export interface PayerSeed {
  id: string;
  name: string;
  kind: 'medicaid_mco' | 'ma_plan' | 'part_d_sponsor';
  programs: Program[];
  jurisdictions: Jurisdiction[];
  url?: string;
  caveat?: string;
}

const mco = (state: Jurisdiction, short: string, name: string, caveat?: string): PayerSeed => ({
  id: `${state.toLowerCase()}-${short}`,
  name,
  kind: 'medicaid_mco',
  programs: ['medicaid_mco'],
  jurisdictions: [state],
  ...(caveat ? { caveat } : {}),
});

export const MCO_PAYERS: readonly PayerSeed[] = [
  mco('TX', 'superior', 'Superior HealthPlan'),
  mco('TX', 'wellpoint', 'Wellpoint (formerly Amerigroup)', 'Amerigroup Texas rebranded as Wellpoint; confirm the current name.'),
  mco('TX', 'molina', 'Molina Healthcare of Texas'),
  mco('TX', 'uhccp', 'UnitedHealthcare Community Plan of Texas'),
  mco('TX', 'tchp', "Texas Children's Health Plan"),
  mco('CA', 'lacare', 'L.A. Care Health Plan'),
  mco('CA', 'healthnet', 'Health Net'),
  mco('CA', 'iehp', 'Inland Empire Health Plan'),
  mco('CA', 'molina', 'Molina Healthcare of California'),
  mco('FL', 'sunshine', 'Sunshine Health'),
  mco('FL', 'simply', 'Simply Healthcare Plans'),
  mco('FL', 'humana', 'Humana Healthy Horizons in Florida'),
  mco('FL', 'molina', 'Molina Healthcare of Florida'),
  mco('NY', 'fidelis', 'Fidelis Care'),
  mco('NY', 'healthfirst', 'Healthfirst'),
  mco('NY', 'metroplus', 'MetroPlusHealth'),
  mco('NY', 'molina', 'Molina Healthcare of New York'),
  mco('OH', 'caresource', 'CareSource'),
  mco('OH', 'buckeye', 'Buckeye Health Plan'),
  mco('OH', 'molina', 'Molina Healthcare of Ohio'),
  mco('OH', 'uhccp', 'UnitedHealthcare Community Plan of Ohio'),
  mco('PA', 'upmc', 'UPMC for You'),
  mco('PA', 'keystone', 'Keystone First'),
  mco('PA', 'highmark', 'Highmark Wholecare'),
  mco('PA', 'amerihealth', 'AmeriHealth Caritas Pennsylvania'),
  mco('GA', 'caresource', 'CareSource Georgia'),
  mco('GA', 'peachstate', 'Peach State Health Plan'),
  mco('GA', 'amerigroup', 'Amerigroup Community Care', 'Elevance Health has rebranded Amerigroup plans in several states; confirm the current Georgia name.'),
  mco('IL', 'bcchp', 'Blue Cross Community Health Plans'),
  mco('IL', 'meridian', 'Meridian'),
  mco('IL', 'molina', 'Molina Healthcare of Illinois'),
  mco('IL', 'countycare', 'CountyCare Health Plan'),
  mco('MI', 'meridian', 'Meridian'),
  mco('MI', 'molina', 'Molina Healthcare of Michigan'),
  mco('MI', 'priority', 'Priority Health'),
  mco('MI', 'bcc', 'Blue Cross Complete'),
  mco('AZ', 'mercycare', 'Mercy Care'),
  mco('AZ', 'azch', 'Arizona Complete Health'),
  mco('AZ', 'banner', 'Banner University Family Care'),
  mco('AZ', 'uhccp', 'UnitedHealthcare Community Plan of Arizona'),
  mco('NC', 'wellcare', 'WellCare of North Carolina'),
  mco('NC', 'healthyblue', 'Healthy Blue'),
  mco('NC', 'cch', 'Carolina Complete Health'),
  mco('NC', 'amerihealth', 'AmeriHealth Caritas North Carolina'),
  mco('LA', 'lhcc', 'Louisiana Healthcare Connections'),
  mco('LA', 'healthyblue', 'Healthy Blue'),
  mco('LA', 'aetna', 'Aetna Better Health of Louisiana'),
  mco('LA', 'amerihealth', 'AmeriHealth Caritas Louisiana'),
  mco('WA', 'chpw', 'Community Health Plan of Washington'),
  mco('WA', 'molina', 'Molina Healthcare of Washington'),
  mco('WA', 'coordinated', 'Coordinated Care of Washington'),
];

/** States where the national Medicare organizations get sample rules (service areas vary by county). */
export const NATIONAL_PAYER_STATES: readonly Jurisdiction[] = ['TX', 'CA', 'FL', 'NY', 'OH', 'PA', 'GA', 'AZ'];

export const NATIONAL_PAYERS: readonly PayerSeed[] = [
  { id: 'humana', name: 'Humana', kind: 'ma_plan', programs: ['medicare_advantage', 'part_d'], jurisdictions: [...NATIONAL_PAYER_STATES], url: 'https://www.humana.com' },
  { id: 'uhc', name: 'UnitedHealthcare', kind: 'ma_plan', programs: ['medicare_advantage', 'part_d'], jurisdictions: [...NATIONAL_PAYER_STATES], url: 'https://www.uhc.com' },
  { id: 'aetna', name: 'Aetna Medicare', kind: 'ma_plan', programs: ['medicare_advantage'], jurisdictions: [...NATIONAL_PAYER_STATES], url: 'https://www.aetna.com' },
  { id: 'wellcare', name: 'Wellcare', kind: 'part_d_sponsor', programs: ['part_d', 'medicare_advantage'], jurisdictions: [...NATIONAL_PAYER_STATES], url: 'https://www.wellcare.com' },
];

/** The subjects payer-level rules are written for (every payer gets each one its program administers). */
export const PAYER_DRUGS: readonly DrugClass[] = [
  'glp1_weight_loss', 'hepatitis_c', 'adhd_stimulants', 'specialty_biologics', 'mental_health_antipsychotics',
  'opioid_treatment', 'diabetes_non_insulin', 'brand_name_no_generic', 'oncology_oral', 'rare_disease_orphan',
];
export const PAYER_SERVICES: readonly ServiceCategory[] = [
  'advanced_imaging', 'outpatient_surgery', 'durable_medical_equipment', 'home_health', 'physical_therapy',
  'behavioral_health_inpatient', 'inpatient_hospital', 'laboratory', 'skilled_nursing_facility', 'specialty_drugs',
];
