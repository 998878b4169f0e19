// RxNorm semantic clinical drugs (TTY SCD) for the drug crosswalk: the codes a usdf-FormularyDrug
// (MedicationKnowledge) needs in code.coding. Generator data, read by reference.ts drugs().
//
// Only codes confirmed against a published NLM source are listed. Where a crosswalk drug has no entry here the
// corpus carries no SCD for it, and the formulary serves no MedicationKnowledge (nor FormularyItem) for it rather
// than an invalid one. Each product is one representative strength; formularies list every strength, this sample
// does not.
//
// Sources:
// - VSAC: NLM Value Set Authority Center eCQM value-set expansions, "eCQM Update 2025-05-08" (e.g. Antidepressants
//   2.16.840.1.113762.1.4.1248.163, Anticoagulants for All Indications 2.16.840.1.113762.1.4.1248.22, and the
//   opioid, benzodiazepine/sedative, antipsychotic, ADHD and antihypertensive medication value sets), which list
//   each RXCUI with its RxNorm name.
// - RXNAV_PAGES: RxNorm SCD listings naming the RXCUI and the concept (twinfyrx.com/what-is-rxnorm,
//   twinfyrx.com/rxnorm-ndc-crosswalk); checked against RxNav.
// Any code can be re-checked at https://mor.nlm.nih.gov/RxNav/search?searchBy=RXCUI&searchTerm=<code>.

export type RxNormSource = 'VSAC' | 'RXNAV_PAGES';

export interface RxNormProduct {
  /** RXCUI of the concept. */
  code: string;
  /** RxNorm term type; the usdf-FormularyDrug semantic-drug slice takes SCD, SBD, GPCK or BPCK. */
  tty: 'SCD';
  /** The RxNorm concept name, exactly as NLM publishes it. */
  name: string;
  source: RxNormSource;
}

/** Crosswalk entry id (`<drug class>.<generic>`, see reference.ts) -> its RxNorm products. */
export const RXNORM_PRODUCTS: Readonly<Record<string, readonly RxNormProduct[]>> = {
  // ADHD stimulants
  'adhd-stimulants.methylphenidate': [{ code: '1091150', tty: 'SCD', name: 'methylphenidate hydrochloride 10 MG Oral Tablet', source: 'VSAC' }],
  'adhd-stimulants.amphetamine-dextroamphetamine-mixed-salts': [
    { code: '541892', tty: 'SCD', name: 'amphetamine aspartate 2.5 MG / amphetamine sulfate 2.5 MG / dextroamphetamine saccharate 2.5 MG / dextroamphetamine sulfate 2.5 MG Oral Tablet', source: 'VSAC' },
  ],
  'adhd-stimulants.lisdexamfetamine': [{ code: '854834', tty: 'SCD', name: 'lisdexamfetamine dimesylate 30 MG Oral Capsule', source: 'VSAC' }],
  'adhd-stimulants.dexmethylphenidate': [{ code: '899518', tty: 'SCD', name: 'dexmethylphenidate hydrochloride 5 MG Oral Tablet', source: 'VSAC' }],
  // Brand-name drugs
  'brand-name-no-generic.apixaban': [{ code: '1364445', tty: 'SCD', name: 'apixaban 5 MG Oral Tablet', source: 'VSAC' }],
  'brand-name-with-generic.atorvastatin': [{ code: '617314', tty: 'SCD', name: 'atorvastatin 10 MG Oral Tablet', source: 'RXNAV_PAGES' }],
  'brand-name-with-generic.lisinopril': [{ code: '314076', tty: 'SCD', name: 'lisinopril 10 MG Oral Tablet', source: 'VSAC' }],
  // Schedule II
  'controlled-schedule-ii.oxycodone': [{ code: '1049621', tty: 'SCD', name: 'oxycodone hydrochloride 5 MG Oral Tablet', source: 'VSAC' }],
  'controlled-schedule-ii.morphine-sulfate-extended-release': [{ code: '891881', tty: 'SCD', name: 'morphine sulfate 15 MG Extended Release Oral Tablet', source: 'VSAC' }],
  'controlled-schedule-ii.hydrocodone-bitartrate-extended-release': [
    { code: '1595730', tty: 'SCD', name: 'Abuse-Deterrent 24 HR hydrocodone bitartrate 20 MG Extended Release Oral Tablet', source: 'VSAC' },
  ],
  'controlled-schedule-ii.fentanyl-transdermal': [{ code: '245134', tty: 'SCD', name: '72 HR fentanyl 0.025 MG/HR Transdermal System', source: 'VSAC' }],
  'controlled-schedule-ii.hydromorphone': [{ code: '897696', tty: 'SCD', name: 'hydromorphone hydrochloride 2 MG Oral Tablet', source: 'VSAC' }],
  // Schedules III-V
  'controlled-schedule-iii-v.alprazolam': [{ code: '308048', tty: 'SCD', name: 'alprazolam 0.5 MG Oral Tablet', source: 'VSAC' }],
  'controlled-schedule-iii-v.zolpidem': [{ code: '854873', tty: 'SCD', name: 'zolpidem tartrate 10 MG Oral Tablet', source: 'VSAC' }],
  'controlled-schedule-iii-v.tramadol': [{ code: '835603', tty: 'SCD', name: 'tramadol hydrochloride 50 MG Oral Tablet', source: 'VSAC' }],
  'controlled-schedule-iii-v.pregabalin': [{ code: '483450', tty: 'SCD', name: 'pregabalin 75 MG Oral Capsule', source: 'VSAC' }],
  // Antidepressants
  'mental-health-antidepressants.sertraline': [{ code: '312941', tty: 'SCD', name: 'sertraline 50 MG Oral Tablet', source: 'VSAC' }],
  'mental-health-antidepressants.escitalopram': [{ code: '349332', tty: 'SCD', name: 'escitalopram 10 MG Oral Tablet', source: 'VSAC' }],
  'mental-health-antidepressants.bupropion': [{ code: '993541', tty: 'SCD', name: '24 HR bupropion hydrochloride 150 MG Extended Release Oral Tablet', source: 'VSAC' }],
  'mental-health-antidepressants.duloxetine': [{ code: '596934', tty: 'SCD', name: 'duloxetine 60 MG Delayed Release Oral Capsule', source: 'VSAC' }],
  'mental-health-antidepressants.vortioxetine': [{ code: '1439808', tty: 'SCD', name: 'vortioxetine 10 MG Oral Tablet', source: 'VSAC' }],
  // Antipsychotics
  'mental-health-antipsychotics.aripiprazole': [{ code: '349545', tty: 'SCD', name: 'aripiprazole 10 MG Oral Tablet', source: 'VSAC' }],
  'mental-health-antipsychotics.quetiapine': [{ code: '312744', tty: 'SCD', name: 'quetiapine 25 MG Oral Tablet', source: 'VSAC' }],
  'mental-health-antipsychotics.risperidone': [{ code: '312830', tty: 'SCD', name: 'risperidone 1 MG Oral Tablet', source: 'VSAC' }],
  'mental-health-antipsychotics.olanzapine': [{ code: '314154', tty: 'SCD', name: 'olanzapine 10 MG Oral Tablet', source: 'VSAC' }],
  'mental-health-antipsychotics.lurasidone': [{ code: '1040031', tty: 'SCD', name: 'lurasidone hydrochloride 40 MG Oral Tablet', source: 'VSAC' }],
  // Opioid use disorder treatment
  'opioid-treatment.buprenorphine-naloxone': [{ code: '351267', tty: 'SCD', name: 'buprenorphine 8 MG / naloxone 2 MG Sublingual Tablet', source: 'VSAC' }],
  'opioid-treatment.methadone': [{ code: '864706', tty: 'SCD', name: 'methadone hydrochloride 10 MG Oral Tablet', source: 'VSAC' }],
};

/** The crosswalk's rxnorm block for an entry: its confirmed products (and their codes as `scd`), if any. */
export function rxnormOf(entryId: string): { scd: string[]; products: RxNormProduct[] } | undefined {
  const products = RXNORM_PRODUCTS[entryId];
  return products?.length ? { scd: products.map((p) => p.code), products: [...products] } : undefined;
}
