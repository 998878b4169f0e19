// Non-rule documents: jurisdictions, payers, the drug crosswalk, CPT/HCPCS code mappings, regulatory events, topics.
import type {
  CodeMappingDoc, DrugCrosswalkDoc, JurisdictionDoc, PayerDoc, RegulatoryEventDoc, TopicDoc,
} from '../../src/domain/documents.js';
import type { DrugClass, Program, ServiceCategory } from '../../src/domain/vocabulary.js';
import { MCO_PAYERS, NATIONAL_PAYERS } from './payers.js';
import { BUILTIN_RANGES } from '../../src/corpus/resolve-code.js';
import { DMEPOS_LIST, WISER_ROUTES } from './rules.js';
import { COMPILED_ON, SRC } from './sources.js';
import { STATES, WISER_STATES, ffsDominant } from './states.js';
import { rxnormOf } from './rxnorm.js';

// ---- Jurisdictions -----------------------------------------------------------------------------------------------
const APPEAL_NOTES = 'Medicaid managed care: appeal to the MCO first (42 CFR 438.402, 438.408; confirm timeframes), then a State fair hearing. Medicaid fee-for-service: State fair hearing; services continue when the hearing is requested within 10 days of the action (42 CFR 431.231). CHIP: state review process under 42 CFR 457.1130-457.1170, with state-specific timeframes.';

export function jurisdictions(): JurisdictionDoc[] {
  return STATES.map((f) => {
    const wiser = WISER_STATES.includes(f.code);
    const route = WISER_ROUTES[f.code];
    const sources = [{ title: `${f.agency}: official website`, url: f.url }];
    if (wiser && route) sources.push({ title: route.source.title, url: route.source.url });
    sources.push({ title: SRC.cmsPaInitiatives.title, url: SRC.cmsPaInitiatives.url });
    const doc: JurisdictionDoc = {
      resourceType: 'Jurisdiction',
      id: f.code,
      name: f.name,
      medicaidAgency: { name: f.agency, url: f.url },
      ...(f.programName ? { medicaidProgramName: f.programName } : {}),
      ...(f.chipName ? { chipProgramName: f.chipName } : {}),
      flags: { medicaidExpansion: f.expansion, ffsDominant: ffsDominant(f), wiser },
      mcoBrands: f.mcoBrands,
      carveOuts: f.carveOuts,
      contacts: [
        { role: 'provider_services', name: `${f.agency}: provider information`, url: f.url },
        ...(wiser && route ? [{ role: 'pa_submission', name: `WISeR model (Original Medicare): ${route.participant} (participant) or ${route.mac}`, url: route.source.url }] : []),
      ],
      sources,
      appealNotes: APPEAL_NOTES,
      verification: {
        // A state fact recorded from memory makes the record a sample until it is confirmed.
        status: f.caveat && /from memory|not confirmed/i.test(f.caveat) ? 'sample' : 'verified',
        lastVerified: COMPILED_ON,
        confidence: f.caveat ? (/from memory|not confirmed/i.test(f.caveat) ? 0.45 : 0.7) : 0.85,
        by: 'sample-curation',
        method: 'public-agency-facts',
        caveat: f.caveat
          ? `MCO brand lists change with procurements; confirm. ${f.caveat}`
          : 'MCO brand lists change with procurements; confirm against the agency website.',
      },
    };
    return doc;
  });
}

// ---- Payers ------------------------------------------------------------------------------------------------------
export function payers(): PayerDoc[] {
  return [...MCO_PAYERS, ...NATIONAL_PAYERS].map((p) => {
    const state = STATES.find((f) => f.code === p.jurisdictions[0])!;
    const doc: PayerDoc = {
      resourceType: 'Payer',
      id: p.id,
      name: p.name,
      kind: p.kind,
      programs: p.programs,
      jurisdictions: p.jurisdictions,
      contacts: [],
      ...(p.url ? { url: p.url } : {}),
      verification: {
        status: p.caveat ? 'sample' : 'verified',
        lastVerified: COMPILED_ON,
        confidence: p.caveat ? 0.6 : 0.75,
        by: 'sample-curation',
        method: p.kind === 'medicaid_mco' ? 'public-plan-name' : 'public-organization-name',
        caveat: [
          p.kind === 'medicaid_mco'
            ? `Real Medicaid MCO brand in ${state.name}; plan rules in this corpus are illustrative.`
            : 'Real national Medicare organization; the jurisdictions listed are those with sample rules, and service areas vary by county.',
          p.caveat,
        ].filter(Boolean).join(' '),
      },
    };
    return doc;
  });
}

// ---- Drug crosswalk ----------------------------------------------------------------------------------------------
type DrugSeed = [generic: string, brands: string[], rxnormIngredient?: string, notes?: string];

/** Real generic/brand pairs. RxNorm ingredient CUIs only where the curator was certain; otherwise omitted. */
const DRUGS: Record<DrugClass, DrugSeed[]> = {
  adhd_stimulants: [['methylphenidate', ['Ritalin', 'Concerta'], '6901'], ['amphetamine/dextroamphetamine mixed salts', ['Adderall', 'Adderall XR']], ['lisdexamfetamine', ['Vyvanse']], ['dexmethylphenidate', ['Focalin', 'Focalin XR']]],
  biosimilars: [['adalimumab-adaz', ['Hyrimoz']], ['adalimumab-atto', ['Amjevita']], ['infliximab-dyyb', ['Inflectra']], ['filgrastim-sndz', ['Zarxio']], ['insulin glargine-yfgn', ['Semglee']]],
  brand_name_no_generic: [['apixaban', ['Eliquis'], undefined, 'Generic approved but not marketed in the US at compile time (as understood); confirm.'], ['ubrogepant', ['Ubrelvy']], ['rimegepant', ['Nurtec ODT']], ['bempedoic acid', ['Nexletol']]],
  brand_name_with_generic: [['atorvastatin', ['Lipitor'], '83367'], ['lisinopril', ['Zestril', 'Prinivil'], '29046'], ['clopidogrel', ['Plavix']], ['montelukast', ['Singulair']]],
  compounded_medications: [
    ['compounded topical analgesic (multi-ingredient)', [], undefined, 'Compounds have no brand; PA usually reviews each ingredient and whether a commercial product exists.'],
    ['compounded oral liquid prepared from tablets', [], undefined, 'Typically for children or tube feeding when no commercial liquid exists.'],
    ['compounded hormone preparation', [], undefined, 'Bulk-ingredient compounds are often excluded or need PA.'],
  ],
  controlled_schedule_ii: [['oxycodone', ['OxyContin', 'Roxicodone'], '7804'], ['morphine sulfate extended-release', ['MS Contin']], ['hydrocodone bitartrate extended-release', ['Hysingla ER']], ['fentanyl transdermal', ['Duragesic']], ['hydromorphone', ['Dilaudid']]],
  controlled_schedule_iii_v: [['alprazolam', ['Xanax']], ['zolpidem', ['Ambien']], ['tramadol', ['Ultram']], ['pregabalin', ['Lyrica']], ['testosterone cypionate', ['Depo-Testosterone']]],
  diabetes_insulin: [['insulin glargine', ['Lantus', 'Basaglar', 'Toujeo']], ['insulin lispro', ['Humalog', 'Admelog']], ['insulin aspart', ['Novolog', 'Fiasp']], ['insulin degludec', ['Tresiba']]],
  diabetes_non_insulin: [['metformin', ['Glucophage'], '6809'], ['empagliflozin', ['Jardiance']], ['sitagliptin', ['Januvia']], ['semaglutide', ['Ozempic', 'Rybelsus'], undefined, 'Type 2 diabetes products; the weight-management product is in glp1_weight_loss.'], ['tirzepatide', ['Mounjaro']], ['dulaglutide', ['Trulicity']]],
  glp1_weight_loss: [['semaglutide', ['Wegovy'], undefined, 'Chronic weight management product; diabetes products are in diabetes_non_insulin.'], ['tirzepatide', ['Zepbound']], ['liraglutide', ['Saxenda']]],
  hepatitis_c: [['sofosbuvir/velpatasvir', ['Epclusa']], ['glecaprevir/pibrentasvir', ['Mavyret']], ['ledipasvir/sofosbuvir', ['Harvoni']], ['sofosbuvir/velpatasvir/voxilaprevir', ['Vosevi']]],
  hiv_antiretrovirals: [['bictegravir/emtricitabine/tenofovir alafenamide', ['Biktarvy']], ['dolutegravir', ['Tivicay']], ['dolutegravir/lamivudine', ['Dovato']], ['emtricitabine/tenofovir disoproxil fumarate', ['Truvada']], ['cabotegravir/rilpivirine', ['Cabenuva']]],
  immunosuppressants: [['tacrolimus', ['Prograf', 'Envarsus XR'], '42316'], ['mycophenolate mofetil', ['CellCept']], ['cyclosporine (modified)', ['Neoral', 'Gengraf']], ['sirolimus', ['Rapamune']], ['everolimus', ['Zortress']]],
  mental_health_antidepressants: [['sertraline', ['Zoloft'], '36437'], ['escitalopram', ['Lexapro']], ['bupropion', ['Wellbutrin XL', 'Wellbutrin SR']], ['duloxetine', ['Cymbalta']], ['vortioxetine', ['Trintellix']]],
  mental_health_antipsychotics: [['aripiprazole', ['Abilify'], '89013'], ['quetiapine', ['Seroquel', 'Seroquel XR'], '51272'], ['risperidone', ['Risperdal']], ['olanzapine', ['Zyprexa']], ['lurasidone', ['Latuda']], ['paliperidone palmitate', ['Invega Sustenna']]],
  oncology_oral: [['imatinib', ['Gleevec']], ['ibrutinib', ['Imbruvica']], ['palbociclib', ['Ibrance']], ['osimertinib', ['Tagrisso']], ['enzalutamide', ['Xtandi']], ['lenalidomide', ['Revlimid']]],
  opioid_treatment: [['buprenorphine/naloxone', ['Suboxone', 'Zubsolv']], ['buprenorphine extended-release injection', ['Sublocade']], ['naltrexone extended-release injection', ['Vivitrol']], ['methadone', ['Dolophine', 'Methadose'], '6813'], ['naloxone nasal spray', ['Narcan'], undefined, 'Opioid overdose reversal; also available over the counter.']],
  rare_disease_orphan: [['nusinersen', ['Spinraza']], ['elexacaftor/tezacaftor/ivacaftor', ['Trikafta']], ['eculizumab', ['Soliris']], ['risdiplam', ['Evrysdi']], ['tafamidis', ['Vyndaqel', 'Vyndamax']]],
  specialty_biologics: [['adalimumab', ['Humira'], '327361'], ['etanercept', ['Enbrel']], ['ustekinumab', ['Stelara']], ['dupilumab', ['Dupixent']], ['secukinumab', ['Cosentyx']], ['risankizumab', ['Skyrizi']]],
  specialty_non_biologic: [['tofacitinib', ['Xeljanz']], ['upadacitinib', ['Rinvoq']], ['apremilast', ['Otezla']], ['teriflunomide', ['Aubagio']], ['fingolimod', ['Gilenya']], ['ambrisentan', ['Letairis']]],
};

const idPart = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export function drugs(): DrugCrosswalkDoc[] {
  const out: DrugCrosswalkDoc[] = [];
  for (const [dc, seeds] of Object.entries(DRUGS) as [DrugClass, DrugSeed[]][]) {
    for (const [generic, brands, ingredient, notes] of seeds) {
      const doc: DrugCrosswalkDoc = {
        resourceType: 'DrugCrosswalkEntry',
        id: `${idPart(dc)}.${idPart(generic)}`.slice(0, 64),
        drugClass: dc,
        generic,
        brands,
        ...(ingredient || rxnormOf(`${idPart(dc)}.${idPart(generic)}`) ? { rxnorm: { ...(ingredient ? { ingredient } : {}), ...rxnormOf(`${idPart(dc)}.${idPart(generic)}`) } } : {}),
        ...(notes ? { notes } : {}),
      };
      out.push(doc);
    }
  }
  return out;
}

// ---- Code mappings -----------------------------------------------------------------------------------------------
/**
 * National range fallbacks (no `jurisdiction`). Ranges do not overlap within a system (the unit test checks it):
 *
 * CPT
 *   10004-69990  outpatient_surgery (surgery section)
 *   70010-70449, 70499-70539, 70560-71249, 71276-71549, 71556-72124, 72160-72190, 72199-73199,
 *   73226-73699, 73726-74149, 74184-75556, 75575-76499, 76500-76999, 77001-77022, 77053-77067,
 *   78012-78810, 78817-79999                                diagnostic_imaging
 *   70450-70498, 70540-70559, 71250-71275, 71550-71555, 72125-72159, 72191-72198, 73200-73225,
 *   73700-73725, 74150-74183, 75557-75574, 77046-77049, 78811-78816   advanced_imaging
 *   80047-89398  laboratory
 *   90785-90899  behavioral_health_outpatient (psychiatry)
 *   92507-92508, 92521-92526  speech_therapy
 *   97010-97164, 97169-97533  physical_therapy
 *   97165-97168, 97535-97546  occupational_therapy
 *   99221-99239  inpatient_hospital
 *   99304-99316  skilled_nursing_facility (nursing facility E/M)
 *   99377-99378  hospice (hospice care plan oversight)
 * HCPCS
 *   A0425-A0999  ambulance_transport
 *   A4206-A4640, A5051-A5514, A6000-A6550, A7000-A8004  durable_medical_equipment (DMEPOS supplies)
 *   B4034-B9999  durable_medical_equipment (enteral and parenteral nutrition)
 *   D0120-D9999  dental (CDT)
 *   E0100-E8002  durable_medical_equipment
 *   G0151-G0162, G0179-G0181  home_health
 *   G0182        hospice (hospice care plan oversight)
 *   G2067-G2080  substance_use_treatment (opioid treatment program bundles)
 *   H0001-H0030, H2034-H2036  substance_use_treatment
 *   H0031-H2033  behavioral_health_outpatient
 *   J0120-J9999  specialty_drugs
 *   K0001-K0899  durable_medical_equipment
 *   L0112-L9900  durable_medical_equipment (orthotics and prosthetics)
 *   P2028-P7001, P9603-P9615  laboratory
 *   Q5001-Q5010  hospice (hospice site-of-service codes)
 *   Q5101-Q5199  specialty_drugs (biosimilars)
 *   R0070-R0075  diagnostic_imaging (portable X-ray transport)
 *   T1019-T1020  long_term_care (personal care services)
 */
// One table for the corpus and the service: the national fallback ranges live in src/corpus/resolve-code.ts.
export const NATIONAL_RANGES = BUILTIN_RANGES;

export function codeMappings(): CodeMappingDoc[] {
  const out: CodeMappingDoc[] = NATIONAL_RANGES.map(([system, from, to, cat, description]) => ({
    resourceType: 'CodeMapping',
    id: `us.${system.toLowerCase()}.${from.toLowerCase()}-${to.toLowerCase()}`,
    system,
    range: { from, to },
    serviceCategory: cat,
    description,
  }));
  // State-specific single-code entries: the DMEPOS Required PA list applies in every state under Original Medicare.
  for (const f of STATES) {
    for (const d of DMEPOS_LIST) {
      out.push({
        resourceType: 'CodeMapping',
        id: `${f.code.toLowerCase()}.hcpcs.${d.code.toLowerCase()}`,
        system: 'HCPCS',
        code: d.code,
        serviceCategory: 'durable_medical_equipment',
        jurisdiction: f.code,
        description: `DMEPOS Required PA List: ${d.group}`,
      });
    }
  }
  return out;
}

// ---- Regulatory events -------------------------------------------------------------------------------------------
export function events(): RegulatoryEventDoc[] {
  const out: RegulatoryEventDoc[] = [];
  let id = 0;
  const add = (e: Omit<RegulatoryEventDoc, 'resourceType' | 'id'>): void => {
    out.push({ resourceType: 'RegulatoryEvent', id: ++id, ...e });
  };
  const mdc: Program[] = ['medicare_advantage', 'medicaid_mco', 'medicaid_ffs', 'chip'];
  add({ jurisdiction: 'US', eventKind: 'final_rule', title: 'CMS-0057-F Advancing Interoperability and Improving Prior Authorization Processes: final rule released (89 FR 8758)', issuedAt: '2024-01-17', effectiveAt: '2024-04-08', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.cms0057Faq.url, ruleId: 'CMS-0057-F', topics: ['cms-0057-f'], subjectKinds: ['service'], programs: mdc, paEffect: 'announcement', confidence: 0.95 });
  add({ jurisdiction: 'US', eventKind: 'compliance_date', title: 'CMS-0057-F: PA decision timeframes (72 hours expedited, 7 calendar days standard) and specific denial reasons apply', issuedAt: '2024-01-17', effectiveAt: '2026-01-01', mmcComplianceAt: '2026-01-01', commentDeadline: null, paRelevant: true, sourceUrl: SRC.cms0057Faq.url, ruleId: 'CMS-0057-F', topics: ['cms-0057-f'], subjectKinds: ['service'], programs: mdc, paEffect: 'decision', confidence: 0.9 });
  add({ jurisdiction: 'US', eventKind: 'reporting_deadline', title: 'CMS-0057-F: first public posting of prior authorization metrics (previous year, aggregated)', issuedAt: '2024-01-17', effectiveAt: '2026-03-31', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.cms0057Faq.url, ruleId: 'CMS-0057-F', topics: ['cms-0057-f'], subjectKinds: ['service'], programs: mdc, paEffect: 'reporting', confidence: 0.85 });
  add({ jurisdiction: 'US', eventKind: 'compliance_date', title: 'CMS-0057-F: Prior Authorization, Provider Access and Payer-to-Payer APIs, and PA data in the Patient Access API', issuedAt: '2024-01-17', effectiveAt: '2027-01-01', mmcComplianceAt: '2027-01-01', commentDeadline: null, paRelevant: true, sourceUrl: SRC.cms0057Faq.url, ruleId: 'CMS-0057-F', topics: ['cms-0057-f'], subjectKinds: ['service'], programs: mdc, paEffect: 'process', confidence: 0.9 });
  add({ jurisdiction: 'US', eventKind: 'enforcement_discretion', title: 'CMS enforcement discretion: HIPAA X12 278 not enforced when the FHIR Prior Authorization API is used', issuedAt: '2024-02-28', effectiveAt: '2024-02-28', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: null, ruleId: 'CMS-0057-F', topics: ['cms-0057-f'], subjectKinds: ['service'], programs: mdc, paEffect: 'process', confidence: 0.8 });
  add({ jurisdiction: 'US', eventKind: 'proposed_rule', title: 'CMS-0062-P 2026 CMS Interoperability Standards and Prior Authorization for Drugs: proposed rule published (FR doc 2026-07205)', issuedAt: '2026-04-14', effectiveAt: '2027-10-01', mmcComplianceAt: null, commentDeadline: '2026-06-15', paRelevant: true, sourceUrl: SRC.fr202607205, ruleId: 'CMS-0062-P', topics: ['cms-0062-p'], programs: [...mdc, 'part_d'], paEffect: 'announcement', confidence: 0.85 });
  add({ jurisdiction: 'US', eventKind: 'model_announcement', title: 'WISeR (Wasteful and Inappropriate Service Reduction) model announced for Original Medicare in six states', issuedAt: '2025-06-27', effectiveAt: '2026-01-01', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.wiserCms.url, topics: ['wiser-model'], programs: ['medicare_traditional'], paEffect: 'announcement', confidence: 0.9 });
  for (const st of WISER_STATES) {
    const name = STATES.find((f) => f.code === st)!.name;
    const route = WISER_ROUTES[st]!;
    add({ jurisdiction: st, eventKind: 'model_start', title: `WISeR model begins in ${name}: Original Medicare prior authorization through ${route.participant} (the state's participant) or ${route.mac}`, issuedAt: '2025-06-27', effectiveAt: '2026-01-01', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: route.source.url, topics: ['wiser-model'], programs: ['medicare_traditional'], subjects: [{ kind: 'service', code: 'outpatient_surgery' }], paEffect: 'requirement', confidence: route.confirmed ? 0.9 : 0.6 });
  }
  // Part D protected classes (CMS-4180-F): PA/ST for new starts in five classes, antiretrovirals excluded.
  add({ jurisdiction: 'US', eventKind: 'final_rule', title: 'CMS-4180-F Modernizing Part D and Medicare Advantage: Part D plans may use PA and step therapy for new starts in five protected classes (not antiretrovirals)', issuedAt: '2019-05-23', effectiveAt: '2020-01-01', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.cms4180F.url, ruleId: 'CMS-4180-F', topics: ['part-d-protected-classes'], programs: ['part_d', 'medicare_advantage', 'dual_eligible'], paEffect: 'requirement', confidence: 0.9 });
  // Medicare GLP-1 Bridge: a CMS demonstration outside the Part D benefit (the announcement date is not recorded, so issuedAt repeats the start).
  const glp1 = [{ kind: 'drug' as const, code: 'glp1_weight_loss' }];
  add({ jurisdiction: 'US', eventKind: 'model_start', title: 'Medicare GLP-1 Bridge begins: eligible Part D beneficiaries get certain GLP-1 drugs for weight management outside the Part D benefit, with PA through a CMS central processor', issuedAt: '2026-07-01', effectiveAt: '2026-07-01', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.glp1Bridge.url, topics: ['glp1-weight-loss'], programs: ['part_d', 'medicare_advantage', 'dual_eligible'], subjects: glp1, paEffect: 'requirement', confidence: 0.9 });
  add({ jurisdiction: 'US', eventKind: 'model_end', title: 'Medicare GLP-1 Bridge scheduled to end', issuedAt: '2026-07-01', effectiveAt: '2027-12-31', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.glp1Bridge.url, topics: ['glp1-weight-loss'], programs: ['part_d', 'medicare_advantage', 'dual_eligible'], subjects: glp1, paEffect: 'requirement', confidence: 0.85 });
  // Dates below are effective dates from regulatory-facts.md; the issue date was not recorded, so issuedAt repeats it.
  const dmeposSubj = [{ kind: 'service' as const, code: 'durable_medical_equipment' }];
  add({ jurisdiction: 'US', eventKind: 'list_update', title: 'DMEPOS Required Prior Authorization List: orthoses L0631, L0637, L0639, L1843, L1845, L1951 added; L1833 removed', issuedAt: '2024-08-12', effectiveAt: '2024-08-12', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.cmsPaInitiatives.url, topics: ['dmepos-required-pa'], programs: ['medicare_traditional'], subjects: dmeposSubj, paEffect: 'requirement', confidence: 0.8 });
  add({ jurisdiction: 'US', eventKind: 'list_update', title: 'DMEPOS prior authorization for osteogenesis stimulators (E0747, E0748, E0760) suspended', issuedAt: '2024-08-28', effectiveAt: '2024-08-28', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.cmsPaInitiatives.url, topics: ['dmepos-required-pa'], programs: ['medicare_traditional'], subjects: dmeposSubj, paEffect: 'requirement', confidence: 0.8 });
  add({ jurisdiction: 'US', eventKind: 'list_update', title: `CMS-6097-N: DMEPOS Required Prior Authorization List adds pneumatic compression devices E0651, E0652 and orthoses L0651, L1844, L1846, L1852, L1932 nationwide (requests accepted from 2026-03-30)`, issuedAt: '2026-01-13', effectiveAt: '2026-04-13', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.dmeOrthosesNoridian.url, ruleId: 'CMS-6097-N', topics: ['dmepos-required-pa'], programs: ['medicare_traditional'], subjects: dmeposSubj, paEffect: 'requirement', confidence: 0.9 });
  add({ jurisdiction: 'US', eventKind: 'timeframe_change', title: 'DMEPOS prior authorization: standard review within 7 calendar days', issuedAt: '2025-01-01', effectiveAt: '2025-01-01', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.cmsPaInitiatives.url, topics: ['dmepos-required-pa'], programs: ['medicare_traditional'], subjects: dmeposSubj, paEffect: 'decision', confidence: 0.8 });
  const opdSubj = [{ kind: 'service' as const, code: 'outpatient_surgery' }];
  add({ jurisdiction: 'US', eventKind: 'list_update', title: 'Hospital OPD prior authorization begins: blepharoplasty, botulinum toxin injections, panniculectomy, rhinoplasty, vein ablation (42 CFR 419.83)', issuedAt: '2020-07-01', effectiveAt: '2020-07-01', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.ecfr41983.url, topics: ['opd-prior-authorization'], programs: ['medicare_traditional'], subjects: [...opdSubj, { kind: 'drug', code: 'specialty_biologics' }], paEffect: 'requirement', confidence: 0.85 });
  add({ jurisdiction: 'US', eventKind: 'list_update', title: 'Hospital OPD prior authorization list adds cervical fusion with disc removal and implanted spinal neurostimulators', issuedAt: '2021-07-01', effectiveAt: '2021-07-01', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.ecfr41983.url, topics: ['opd-prior-authorization'], programs: ['medicare_traditional'], subjects: opdSubj, paEffect: 'requirement', confidence: 0.85 });
  add({ jurisdiction: 'US', eventKind: 'list_update', title: 'Hospital OPD prior authorization list adds facet joint interventions', issuedAt: '2023-07-01', effectiveAt: '2023-07-01', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.ecfr41983.url, topics: ['opd-prior-authorization'], programs: ['medicare_traditional'], subjects: opdSubj, paEffect: 'requirement', confidence: 0.85 });
  const amb = [{ kind: 'service' as const, code: 'ambulance_transport' }];
  for (const st of ['NJ', 'PA', 'SC']) {
    add({ jurisdiction: st, eventKind: 'model_start', title: `RSNAT prior authorization model begins in ${STATES.find((f) => f.code === st)!.name}`, issuedAt: '2014-12-01', effectiveAt: '2014-12-01', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.cmsPaInitiatives.url, topics: ['rsnat-ambulance'], programs: ['medicare_traditional'], subjects: amb, paEffect: 'requirement', confidence: 0.8 });
  }
  for (const st of ['DE', 'DC', 'MD', 'NC', 'VA', 'WV']) {
    add({ jurisdiction: st, eventKind: 'model_expansion', title: `RSNAT prior authorization model expands to ${STATES.find((f) => f.code === st)!.name}`, issuedAt: '2016-01-01', effectiveAt: '2016-01-01', mmcComplianceAt: null, commentDeadline: null, paRelevant: true, sourceUrl: SRC.cmsPaInitiatives.url, topics: ['rsnat-ambulance'], programs: ['medicare_traditional'], subjects: amb, paEffect: 'requirement', confidence: 0.8 });
  }
  // Compliance grid: per-state CMS-0057-F events. No state compliance facts were verified, so status is unknown
  // for the 2026 timeframes and not_yet_due for the 2027 APIs (as stated; the grid reads each as of its own date).
  // CMS-0057-F's events apply to medical items and services, not drugs (subjectKinds); what each changes is paEffect.
  for (const f of STATES) {
    add({ jurisdiction: f.code, eventKind: 'compliance_status', title: `CMS-0057-F decision timeframes and denial reasons: ${f.name} Medicaid and CHIP (status not verified)`, issuedAt: '2024-01-17', effectiveAt: '2026-01-01', mmcComplianceAt: '2026-01-01', commentDeadline: null, paRelevant: true, sourceUrl: f.url, ruleId: 'CMS-0057-F', complianceStatus: 'unknown', topics: ['cms-0057-f'], subjectKinds: ['service'], programs: ['medicaid_mco', 'medicaid_ffs', 'chip'], paEffect: 'decision', confidence: 0.5 });
    add({ jurisdiction: f.code, eventKind: 'compliance_status', title: `CMS-0057-F Prior Authorization API: ${f.name} Medicaid and CHIP`, issuedAt: '2024-01-17', effectiveAt: '2027-01-01', mmcComplianceAt: '2027-01-01', commentDeadline: null, paRelevant: true, sourceUrl: f.url, ruleId: 'CMS-0057-F', complianceStatus: 'not_yet_due', topics: ['cms-0057-f'], subjectKinds: ['service'], programs: ['medicaid_mco', 'medicaid_ffs', 'chip'], paEffect: 'process', confidence: 0.6 });
  }
  return out;
}

// ---- Topics ------------------------------------------------------------------------------------------------------
export function topics(): TopicDoc[] {
  const t = (id: string, displayName: string, kind: string, description: string, match: TopicDoc['match'], taxonomyLink: string | null = null, status: TopicDoc['status'] = 'approved'): TopicDoc =>
    ({ resourceType: 'Topic', id, displayName, kind, description, taxonomyLink, status, match });
  return [
    t('glp1-weight-loss', 'GLP-1 agonists for weight loss', 'drug_class', 'Coverage and PA criteria for GLP-1 and dual GIP/GLP-1 agents used for chronic weight management (semaglutide, tirzepatide, liraglutide). Medicaid coverage is optional by state; Part D excludes weight-loss use; the Medicare GLP-1 Bridge (2026-07-01 to 2027-12-31) covers eligible weight-management use outside Part D, with PA through a CMS central processor.', { drugClasses: ['glp1_weight_loss'], keywords: ['Wegovy', 'Zepbound', 'Saxenda', 'anti-obesity'] }, 'https://www.whocc.no/atc_ddd_index/?code=A10BJ'),
    t('hepatitis-c', 'Hepatitis C direct-acting antivirals', 'drug_class', 'PA criteria for hepatitis C direct-acting antivirals (HCV RNA, genotype, fibrosis, prescriber) across state programs and plans.', { drugClasses: ['hepatitis_c'], keywords: ['Epclusa', 'Mavyret', 'HCV'] }, 'https://www.whocc.no/atc_ddd_index/?code=J05AP'),
    t('part-d-protected-classes', 'Part D protected classes', 'regulation', 'The six Part D protected classes (antidepressants, antipsychotics, anticonvulsants, immunosuppressants, antiretrovirals, antineoplastics): plans cover all or substantially all drugs; CMS-4180-F allows PA/step therapy only for new starts, and not for antiretrovirals.', { drugClasses: ['mental_health_antidepressants', 'mental_health_antipsychotics', 'immunosuppressants', 'hiv_antiretrovirals', 'oncology_oral'], keywords: ['protected class', 'new starts'], programs: ['part_d', 'medicare_advantage', 'dual_eligible'] }),
    t('cms-0057-f', 'CMS-0057-F Interoperability and Prior Authorization final rule', 'regulation', 'Decision timeframes (72 hours expedited, 7 calendar days standard) and denial reasons from 2026, public PA metrics from 2026, and FHIR APIs from 2027 for MA, Medicaid and CHIP. Drugs are excluded.', { ruleIds: ['CMS-0057-F'], keywords: ['interoperability', 'prior authorization API'] }),
    t('cms-0062-p', 'CMS-0062-P Prior Authorization for Drugs proposed rule', 'regulation', 'Proposed extension of the PA API and decision clocks (24 hours urgent / 72 hours standard) to drugs; comments closed 2026-06-15; most provisions proposed to apply from 2027-10-01.', { ruleIds: ['CMS-0062-P'], keywords: ['drug prior authorization', 'NCPDP SCRIPT ePA'] }),
    t('wiser-model', 'WISeR model (Original Medicare)', 'regulation', 'CMMI Wasteful and Inappropriate Service Reduction model: prior authorization for selected services in Original Medicare in NJ, OH, OK, TX, AZ and WA from 2026-01-01 to 2031-12-31.', { serviceCategories: ['outpatient_surgery', 'durable_medical_equipment'], keywords: ['WISeR', 'skin substitutes', 'knee arthroscopy', 'nerve stimulator'], programs: ['medicare_traditional'], jurisdictions: [...WISER_STATES] }),
    t('dmepos-required-pa', 'DMEPOS Required Prior Authorization List', 'regulation', 'Traditional Medicare DMEPOS items that need PA from the DME MAC: power mobility devices, pressure reducing support surfaces, lower limb prostheses, orthoses and (from 2026-04-13) pneumatic compression devices.', { serviceCategories: ['durable_medical_equipment'], keywords: ['power mobility', 'orthoses', 'DME MAC'], programs: ['medicare_traditional'] }),
    t('opd-prior-authorization', 'Hospital outpatient department PA list', 'regulation', 'Traditional Medicare PA for hospital OPD services under 42 CFR 419.83: blepharoplasty, botulinum toxin injections, panniculectomy, rhinoplasty, vein ablation, cervical fusion with disc removal, implanted spinal neurostimulators and facet joint interventions.', { serviceCategories: ['outpatient_surgery'], keywords: ['OPD', 'blepharoplasty', 'facet joint'], programs: ['medicare_traditional'] }),
    t('rsnat-ambulance', 'Repetitive scheduled non-emergent ambulance (RSNAT)', 'regulation', 'Nationwide Traditional Medicare PA model for repetitive, scheduled non-emergent ambulance transport; the first three round trips are exempt.', { serviceCategories: ['ambulance_transport'], keywords: ['RSNAT', 'non-emergent ambulance'], programs: ['medicare_traditional'] }),
    t('biosimilar-substitution', 'Biosimilar substitution and preferred products', 'drug_class', 'Draft topic: how programs prefer biosimilars or reference biologics. Not yet reviewed.', { drugClasses: ['biosimilars', 'specialty_biologics'], keywords: ['biosimilar', 'interchangeable'] }, null, 'draft'),
  ];
}
