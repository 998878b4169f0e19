// CoverageRule generation: program-level rules for 51 jurisdictions x 7 programs x 40 subjects (with structural
// gaps only), national Traditional Medicare lists, Part D protected classes, the Medicare GLP-1 Bridge, and
// payer-level rules.
//
// Consistency is by construction and checked by test/unit/corpus-consistency.test.ts:
//  - one requirement per (program family, subject): no per-state or per-payer variants, no hashes, no randomness;
//  - CHIP uses the same-state Medicaid requirement; Part D is the same in every state; an MCO drug rule in a
//    pharmacy carve-out state is the FFS rule; a payer-level rule carries its program rule's requirement.
// Status: `verified` only where every claim rests on a cited official source (national Medicare lists, Part D
// protected classes, the GLP-1 Bridge); everything illustrative or partly confirmed is `sample`.
import type { CodeRef, CoverageRuleDoc, SourceCitation, Verification } from '../../src/domain/documents.js';
import { outsideProgram } from '../../src/domain/program-scope.js';
import {
  DRUG_CLASSES, DRUG_CLASS_LABELS, PART_D_PROTECTED_DRUG_CLASSES, SERVICE_CATEGORIES, SERVICE_CATEGORY_LABELS,
  type DrugClass, type Jurisdiction, type PaType, type Program, type ServiceCategory, type SubjectKind,
} from '../../src/domain/vocabulary.js';
import { DRUG_TEMPLATES, EXAMPLE_SERVICE_CODES, SERVICE_TEMPLATES, type Template } from './content.js';
import { MCO_PAYERS, NATIONAL_PAYERS, PAYER_DRUGS, PAYER_SERVICES } from './payers.js';
import { SRC, federalFact, illustrative, partlyConfirmed, type Source } from './sources.js';
import { STATES, WISER_STATES, type StateFacts } from './states.js';

type Subject = { kind: SubjectKind; code: DrugClass | ServiceCategory };
type Turnaround = CoverageRuleDoc['turnaround'];
type Submission = CoverageRuleDoc['submission'];

const slug = (s: string): string => s.replace(/_/g, '-');
export const ruleId = (state: string, program: Program, subj: Subject): string =>
  `${state.toLowerCase()}.${slug(program)}.${subj.kind === 'drug' ? 'd' : 's'}.${slug(subj.code)}`;

// ---- turnaround bases (federal facts) ---------------------------------------------------------------------
// CMS-0057-F excludes drugs: drug and pharmacy rules never use its clock.
export const TA = {
  cms0057: { standardHours: 168, expeditedHours: 72, basis: 'CMS-0057-F (from 2026-01-01, items and services other than drugs): 7 calendar days / 72 h' },
  medicaidDrug: { standardHours: 24, expeditedHours: 24, basis: 'SSA 1927(d)(5): Medicaid covered outpatient drug PA answered within 24 h (CMS-0057-F excludes drugs)' },
  medicaidPhysicianDrug: { standardHours: 24, expeditedHours: 24, basis: 'SSA 1927(d)(5) 24 h, where the physician-administered drug is paid as a covered outpatient drug (CMS-0057-F excludes drugs); confirm with the state' },
  chipDrug: { standardHours: 24, expeditedHours: 24, basis: 'Same-state Medicaid drug clock applied to CHIP (SSA 1927(d)(5), 24 h); CHIP drug timeframes are state-specific, confirm' },
  partD: { standardHours: 72, expeditedHours: 24, basis: '42 CFR 423.568/423.572: Part D coverage determination 72 h standard / 24 h expedited (CMS-0057-F excludes drugs)' },
  maPartBDrug: { standardHours: 72, expeditedHours: 24, basis: 'MA Part B drug requests: 72 h standard / 24 h expedited (CMS-0057-F excludes drugs); the 42 CFR 422.568/422.572 paragraph is not confirmed here' },
  glp1Bridge: { standardHours: 0, expeditedHours: 0, basis: 'No decision timeframe for Medicare GLP-1 Bridge prior authorization is published on the CMS page cited; ask the CMS central processor' },
  dmepos: { standardHours: 168, expeditedHours: 48, basis: 'DMEPOS prior authorization: decision within 5 business days, not over 7 calendar days (recorded as 168 h); expedited 2 business days (recorded as 48 h); an affirmation is valid 60 days.' },
  opd: { standardHours: 168, expeditedHours: 48, basis: `Hospital OPD prior authorization: MAC review within 7 calendar days standard (changed from 10 business days effective 2025-01-01 per CGS notice ${SRC.cgsTimeframes2025}); expedited 2 business days, recorded as 48 hours.` },
  rsnat: { standardHours: 168, expeditedHours: 168, basis: `RSNAT prior authorization: MAC review within 7 calendar days; the expedited review option was removed in January 2025 per CGS notice ${SRC.cgsTimeframes2025}, so the expedited value repeats the standard one.` },
  none: { standardHours: 0, expeditedHours: 0, basis: 'No PA; not applicable' },
} satisfies Record<string, Turnaround>;

const NO_PA: Submission = { channel: 'none', target: 'No PA request needed' };
const cite = (s: Source): SourceCitation => ({ url: s.url, title: s.title, publisher: s.publisher });

// ---- helpers ---------------------------------------------------------------------------------------------------
/** A state agency home page: where to confirm a sample rule; it is not the source of the sample criteria. */
function stateSource(f: StateFacts): SourceCitation {
  return { url: f.url, title: 'Official website: where to confirm (the sample criteria are not taken from this page)', publisher: f.agency };
}

function template(subj: Subject): Template {
  return subj.kind === 'drug' ? DRUG_TEMPLATES[subj.code as DrugClass] : SERVICE_TEMPLATES[subj.code as ServiceCategory];
}

interface RuleParts {
  id: string;
  state: string;
  program: Program;
  subj: Subject;
  payer?: { id: string; name: string };
  codes?: CodeRef[];
  paType: PaType;
  criteria: string;
  documentation: string[];
  newStartsOnly?: boolean;
  quantityLimit?: string;
  stepTherapy?: string;
  submission: Submission;
  turnaround: Turnaround;
  federalOverride?: boolean;
  source: SourceCitation;
  verification: Verification;
  effective?: CoverageRuleDoc['effective'];
}

function rule(p: RuleParts): CoverageRuleDoc {
  const requirement: CoverageRuleDoc['requirement'] = {
    paRequired: p.paType !== 'none',
    paType: p.paType,
    criteria: p.criteria,
    documentation: p.paType === 'none' ? [] : p.documentation.slice(0, 3),
  };
  if (p.newStartsOnly !== undefined) requirement.newStartsOnly = p.newStartsOnly;
  if (p.paType !== 'none' && p.quantityLimit) requirement.quantityLimit = p.quantityLimit;
  if (p.paType !== 'none' && p.stepTherapy && (p.paType === 'step_therapy' || p.paType === 'conditional' || p.paType === 'full')) {
    requirement.stepTherapy = p.stepTherapy;
  }
  return {
    resourceType: 'CoverageRule',
    id: p.id,
    jurisdiction: p.state,
    program: p.program,
    subject: { kind: p.subj.kind, code: p.subj.code },
    ...(p.payer ? { payer: p.payer } : {}),
    ...(p.codes?.length ? { codes: p.codes } : {}),
    requirement,
    submission: p.paType === 'none' ? NO_PA : p.submission,
    turnaround: p.paType === 'none' ? TA.none : p.turnaround,
    federalOverride: p.federalOverride ?? false,
    source: p.source,
    verification: p.verification,
    ...(p.effective ? { effective: p.effective } : {}),
  };
}

// ---- Medicaid (MCO / FFS) and CHIP: one requirement per subject -------------------------------------------------
type MedicaidProgram = 'medicaid_mco' | 'medicaid_ffs' | 'chip';

const PROGRAM_PREFIX: Record<MedicaidProgram, string> = {
  medicaid_mco: "Medicaid managed care: the member's plan (MCO) administers PA for the benefits it covers, under its own utilization management (MCOs may use PA; services must be no less in amount, duration and scope than fee-for-service, 42 CFR 438.210).",
  medicaid_ffs: 'Medicaid fee-for-service: PA by the state or its PA vendor.',
  chip: 'CHIP: this sample applies the same-state Medicaid rule (no CHIP-specific source was checked).',
};

function medicaidTurnaround(subj: Subject, program: MedicaidProgram): Turnaround {
  if (subj.kind === 'drug' || subj.code === 'pharmacy_standard') return program === 'chip' ? TA.chipDrug : TA.medicaidDrug;
  if (subj.code === 'specialty_drugs') return program === 'chip' ? TA.chipDrug : TA.medicaidPhysicianDrug;
  return TA.cms0057;
}

function isDrugBenefit(subj: Subject): boolean {
  return subj.kind === 'drug' || subj.code === 'pharmacy_standard';
}

/** Where a provider sends a Medicaid FFS request, in words a provider understands. */
function ffsTarget(f: StateFacts, subj: Subject): Submission {
  if (isDrugBenefit(subj) && f.pharmacyCarveOut && f.code !== 'OH') return carveOutTarget(f);
  if (f.code === 'TX' && !isDrugBenefit(subj)) return { channel: 'portal', target: 'Texas Medicaid & Healthcare Partnership (TMHP), the Texas Medicaid fee-for-service claims and PA administrator', url: 'https://www.tmhp.com' };
  if (f.code === 'CA' && !isDrugBenefit(subj)) return { channel: 'portal', target: 'Medi-Cal fee-for-service Treatment Authorization Request (TAR)', url: f.url };
  if (isDrugBenefit(subj)) return { channel: 'epa', target: `${f.agency}: fee-for-service pharmacy prior authorization (ePA or the state PA form)` };
  return { channel: 'portal', target: `${f.agency}: fee-for-service prior authorization (the state provider portal or its PA vendor)` };
}

function carveOutTarget(f: StateFacts): Submission {
  return { channel: 'epa', target: f.pharmacyCarveOut!.target, ...(f.pharmacyCarveOut!.url ? { url: f.pharmacyCarveOut!.url } : {}) };
}

/** The member's managed care plan, named the way a provider looks it up (the plan on the member's ID card). */
function mcoTarget(f: StateFacts, subj: Subject, program: MedicaidProgram | 'dual_eligible'): Submission {
  if (isDrugBenefit(subj) && f.pharmacyCarveOut) return carveOutTarget(f);
  const examples = f.mcoBrands.slice(0, 3).join(', ');
  const plan = program === 'chip' ? `CHIP health plan${f.chipName && f.chipName !== 'CHIP' ? ` (${f.chipName})` : ''}` : 'Medicaid health plan (MCO)';
  return { channel: 'portal', target: `The member's ${plan} named on the member's ID card${examples ? ` (for example ${examples})` : ''}: use that plan's provider portal`.slice(0, 300) };
}

function medicaidRule(f: StateFacts, program: MedicaidProgram, subj: Subject): CoverageRuleDoc {
  const id = ruleId(f.code, program, subj);
  const t = template(subj);
  const useMco = program === 'medicaid_mco' || (program === 'chip' && f.mco === 'full');
  const submission = useMco ? mcoTarget(f, subj, program) : ffsTarget(f, subj);
  let prefix = PROGRAM_PREFIX[program];
  const caveats: string[] = [];
  if (program === 'medicaid_mco' && isDrugBenefit(subj) && f.pharmacyCarveOut) {
    prefix += ' Pharmacy is carved out of managed care here: drug PA follows the fee-for-service rule and goes to the state pharmacy program.';
  }
  if (subj.kind === 'drug' && f.code === 'TX' && program !== 'medicaid_ffs') prefix += ' MCOs follow the Vendor Drug Program formulary and PDL.';
  if (program === 'chip' && isDrugBenefit(subj)) caveats.push('The 24-hour CHIP drug clock is assumed from the Medicaid rule (not confirmed for CHIP).');
  if (subj.kind === 'service' && subj.code === 'specialty_drugs' && program !== 'chip') caveats.push('Whether the 24-hour covered outpatient drug clock applies to a physician-administered drug is not confirmed here.');
  if (f.caveat && (program === 'medicaid_mco' || (isDrugBenefit(subj) && f.pharmacyCarveOut))) caveats.push(`State note: ${f.caveat}`);
  return rule({
    id, state: f.code, program, subj, paType: t.paType,
    criteria: `${prefix} ${t.criteria}`,
    documentation: t.documentation,
    quantityLimit: t.quantityLimit,
    stepTherapy: t.stepTherapy,
    submission,
    turnaround: medicaidTurnaround(subj, program),
    source: stateSource(f),
    verification: illustrative(caveats.length ? caveats.join(' ') : undefined),
  });
}

// ---- Medicare drug benefit: which part usually pays -------------------------------------------------------------
/** Which Medicare benefit usually applies to a drug class (every Medicare drug rule states it). */
export const MEDICARE_BENEFIT: Readonly<Record<DrugClass, string>> = Object.fromEntries(DRUG_CLASSES.map((dc) => [dc,
  'Usual benefit: Part D (self-administered outpatient drug dispensed by a pharmacy).'])) as Record<DrugClass, string>;
Object.assign(MEDICARE_BENEFIT, {
  immunosuppressants: 'Usual benefit: split. Part B pays for transplant immunosuppressants after a Medicare-covered organ transplant (and Part B-ID covers them for eligible kidney recipients after ESRD Medicare ends, CMS); Part D pays otherwise, and a Part D plan may ask whether Part B applies.',
  specialty_biologics: 'Usual benefit: Part B when a provider infuses or injects the drug in a clinic or hospital outpatient department; Part D when it is self-administered (e.g. adalimumab, etanercept pens).',
  biosimilars: 'Usual benefit: Part B for provider-administered biosimilars (e.g. infliximab, filgrastim in the clinic); Part D for self-administered ones (e.g. adalimumab biosimilars).',
  rare_disease_orphan: 'Usual benefit: Part B for provider-administered agents (e.g. intrathecal or infused drugs); Part D for oral and self-administered agents.',
  oncology_oral: 'Usual benefit: Part D for oral anticancer drugs dispensed by a pharmacy; chemotherapy given in a clinic is Part B.',
  opioid_treatment: 'Usual benefit: Part D for buprenorphine and naloxone dispensed by a pharmacy; Part B for opioid treatment program services and provider-administered injections.',
  glp1_weight_loss: 'Usual benefit: none under Part D for weight loss (Part D excludes the uses Medicaid may exclude under SSA 1927(d)(2), which lists agents for weight loss); the Medicare GLP-1 Bridge covers eligible weight-management use outside the Part D benefit.',
} satisfies Partial<Record<DrugClass, string>>);

// ---- Medicare Advantage / dual eligible / Part D -----------------------------------------------------------------
const MA_SERVICE: Partial<Record<ServiceCategory, { paType: PaType; criteria?: string }>> = {
  advanced_imaging: { paType: 'full' },
  ambulance_transport: { paType: 'conditional' },
  behavioral_health_inpatient: { paType: 'full' },
  behavioral_health_outpatient: { paType: 'none' },
  diagnostic_imaging: { paType: 'none' },
  durable_medical_equipment: { paType: 'conditional' },
  home_health: { paType: 'full' },
  hospice: { paType: 'none', criteria: 'Hospice care for Medicare Advantage enrollees is paid by Original Medicare, not by the MA plan; no plan PA applies to the hospice benefit.' },
  inpatient_hospital: { paType: 'full' },
  laboratory: { paType: 'conditional' },
  occupational_therapy: { paType: 'conditional' },
  outpatient_surgery: { paType: 'conditional' },
  pharmacy_standard: { paType: 'conditional', criteria: 'Usual benefit: Part D. Outpatient drugs are covered under the Part D formulary (MA-PD or D-SNP); non-formulary drugs and drugs with PA/ST edits need a coverage determination.' },
  physical_therapy: { paType: 'conditional' },
  skilled_nursing_facility: { paType: 'full' },
  specialty_drugs: { paType: 'full', criteria: 'Usual benefit: Part B (physician-administered drugs). Plans may apply PA and step therapy (including Part B-to-Part D step edits) for new starts under their utilization-management policy.' },
  speech_therapy: { paType: 'conditional' },
  substance_use_treatment: { paType: 'conditional' },
};

const MA_PREFIX = "Medicare Advantage: the member's plan sets its own PA list; MA plans may use PA only to confirm diagnoses or other medical criteria and medical necessity (42 CFR 422.138).";
const DUAL_PREFIX = 'Duals: Medicare pays first (through the D-SNP or Medicare plan); Medicaid covers Medicaid-only benefits.';
const PARTD_PREFIX = 'Part D: formulary PA/ST/QL; a request is a coverage determination.';
const TRADITIONAL_DRUG_PREFIX = 'Original Medicare covers most outpatient drugs only through a separate Medicare drug plan (Part D), whose formulary PA/ST/QL apply; a request is a coverage determination.';

const maSubmission: Submission = { channel: 'portal', target: "The member's Medicare Advantage plan (named on the member's plan ID card): the plan's provider portal" };
const partDSubmission: Submission = { channel: 'epa', target: "The member's Part D plan (named on the member's plan ID card): ePA, the plan's portal, phone or fax" };
const dualSubmission: Submission = { channel: 'portal', target: "The member's D-SNP or Medicare plan (named on the plan ID card); Medicaid-only items to the state Medicaid program" };
const bridgeSubmission: Submission = { channel: 'portal', target: 'CMS Medicare GLP-1 Bridge central processor (not the Part D plan)', url: SRC.glp1Bridge.url };

interface DrugContent {
  paType: PaType;
  criteria: string;
  documentation: string[];
  newStartsOnly?: boolean;
  federalOverride: boolean;
  verification: Verification;
  source: SourceCitation;
  stepTherapy?: string;
  quantityLimit?: string;
  submission: Submission;
  turnaround: Turnaround;
  effective?: CoverageRuleDoc['effective'];
}

/** The national Part D content for a drug class: identical in every state and for every MA-PD / D-SNP. */
export function partDDrugContent(dc: DrugClass, prefix: string = PARTD_PREFIX): DrugContent {
  const t = DRUG_TEMPLATES[dc];
  const benefit = MEDICARE_BENEFIT[dc];
  if (dc === 'hiv_antiretrovirals') {
    return {
      paType: 'none', federalOverride: true,
      criteria: `${benefit} Antiretrovirals are a Part D protected class: plans must cover all or substantially all drugs in the class, and CMS-4180-F, which lets plans use PA and step therapy for new starts in the other protected classes, excludes antiretrovirals. No PA or step therapy applies.`,
      documentation: [],
      verification: federalFact(0.85),
      source: cite(SRC.cms4180F),
      submission: NO_PA, turnaround: TA.none,
    };
  }
  if (PART_D_PROTECTED_DRUG_CLASSES.includes(dc)) {
    const immuno = dc === 'immunosuppressants';
    return {
      paType: 'conditional',
      newStartsOnly: true,
      federalOverride: true,
      criteria: `${benefit} ${DRUG_CLASS_LABELS[dc]} are a Part D protected class: plans must cover all or substantially all drugs in the class. Under CMS-4180-F (effective 2020-01-01) plans may apply PA or step therapy only to new starts; enrollees already taking a drug continue without new PA.`,
      documentation: ['Diagnosis', 'Whether the enrollee is a new start or continuing therapy', immuno ? 'Transplant date and whether Medicare paid for it (Part B or Part D)' : 'Formulary alternatives considered (new starts only)'],
      verification: immuno
        ? partlyConfirmed(0.7, 'Protected-class facts are confirmed (CMS-4180-F); the Part B / Part D split for transplant immunosuppressants is partly confirmed (CMS Part B-ID page and secondary summaries).')
        : federalFact(0.85),
      source: cite(SRC.cms4180F),
      submission: partDSubmission, turnaround: TA.partD,
    };
  }
  if (dc === 'glp1_weight_loss') {
    return {
      paType: 'full', federalOverride: false,
      criteria: `${benefit} Medicare GLP-1 Bridge (CMS demonstration, 2026-07-01 to 2027-12-31): eligible Medicare Part D beneficiaries can get certain GLP-1 drugs for weight management outside the Part D benefit's coverage and payment flow; a prior authorization request goes to the single CMS central processor, not to the Part D plan. A GLP-1 prescribed for a use Part D covers (for example type 2 diabetes) stays with the Part D plan (see diabetes_non_insulin).`,
      documentation: ['Prescription for an eligible GLP-1 drug for weight management', 'Diagnosis, BMI and weight-related comorbidities', 'Confirmation the drug is not prescribed for a use Part D covers'],
      verification: federalFact(0.8, 'Drug list, BMI tiers and the $50 copay are described in CMS guidance summarized by the AMA; they are not restated here.'),
      source: cite(SRC.glp1Bridge),
      submission: bridgeSubmission, turnaround: TA.glp1Bridge,
      effective: { start: '2026-07-01', end: '2027-12-31' },
    };
  }
  return {
    paType: t.paType, federalOverride: false,
    criteria: `${benefit} ${prefix} ${t.criteria}`,
    documentation: t.documentation, stepTherapy: t.stepTherapy, quantityLimit: t.quantityLimit,
    verification: illustrative(), source: cite(SRC.ecfr423120),
    submission: partDSubmission, turnaround: TA.partD,
  };
}

function partDRule(f: StateFacts, subj: Subject): CoverageRuleDoc {
  const id = ruleId(f.code, 'part_d', subj);
  if (subj.kind === 'drug') {
    const c = partDDrugContent(subj.code as DrugClass);
    return rule({ id, state: f.code, program: 'part_d', subj, ...c });
  }
  return rule({ id, state: f.code, program: 'part_d', subj, ...partDServiceContent(subj.code as 'pharmacy_standard' | 'specialty_drugs') });
}

/** A Part D plan's pharmacy and specialty-tier rule (sample), shared by Part D and by Original Medicare's pharmacy rule. */
function partDServiceContent(sc: 'pharmacy_standard' | 'specialty_drugs', prefix: string = PARTD_PREFIX) {
  const criteria = sc === 'pharmacy_standard'
    ? `Usual benefit: Part D. ${prefix} Formulary drugs without utilization edits need no PA; non-formulary drugs need a formulary exception; a transition fill is available for new enrollees.`
    : `Usual benefit: Part D for self-administered specialty-tier drugs; physician-administered drugs are usually Part B, not Part D, and a B-versus-D determination may be required. ${prefix} Specialty-tier drugs commonly need PA for indication and prescriber.`;
  return {
    paType: 'conditional' as const, criteria,
    documentation: ['Diagnosis', 'Formulary alternatives tried', 'Prescriber supporting statement (for exceptions)'],
    submission: partDSubmission, turnaround: TA.partD, source: cite(SRC.ecfr423120), verification: illustrative(),
  };
}

/** The Medicare Advantage service requirement, shared by MA, duals and the MA organizations' payer-level rules. */
function maService(sc: ServiceCategory): { paType: PaType; body: string; turnaround: Turnaround; caveat?: string } {
  const m = MA_SERVICE[sc];
  const t = SERVICE_TEMPLATES[sc];
  const paType = m ? m.paType : t.paType;
  if (sc === 'pharmacy_standard') return { paType, body: m!.criteria!, turnaround: TA.partD };
  if (sc === 'specialty_drugs') return { paType, body: m!.criteria!, turnaround: TA.maPartBDrug, caveat: 'The MA Part B drug clock citation is not confirmed here.' };
  return { paType, body: m?.criteria ?? t.criteria, turnaround: TA.cms0057 };
}

function maLikeRule(f: StateFacts, program: 'medicare_advantage' | 'dual_eligible', subj: Subject): CoverageRuleDoc {
  const id = ruleId(f.code, program, subj);
  if (subj.kind === 'drug') {
    const pfx = program === 'medicare_advantage' ? 'MA-PD (its Part D benefit): formulary PA/ST/QL.' : 'Duals: drugs are covered by Part D; formulary PA/ST/QL.';
    const c = partDDrugContent(subj.code as DrugClass, pfx);
    return rule({ id, state: f.code, program, subj, ...c });
  }
  const sc = subj.code as ServiceCategory;
  const t = SERVICE_TEMPLATES[sc];
  if (program === 'dual_eligible' && (sc === 'long_term_care' || sc === 'dental')) {
    // Medicaid-only benefits for duals: the same-state Medicaid rule.
    return rule({
      id, state: f.code, program, subj, paType: t.paType,
      criteria: `${DUAL_PREFIX} Medicaid benefit for duals (the same-state Medicaid rule applies): ${t.criteria}`,
      documentation: t.documentation,
      submission: f.mco === 'full' ? mcoTarget(f, subj, 'dual_eligible') : ffsTarget(f, subj),
      turnaround: TA.cms0057, source: stateSource(f), verification: illustrative(),
    });
  }
  const m = maService(sc);
  return rule({
    id, state: f.code, program, subj, paType: m.paType,
    codes: program === 'medicare_advantage' && f.code === 'TX' ? EXAMPLE_SERVICE_CODES[sc] : undefined,
    criteria: `${program === 'medicare_advantage' ? MA_PREFIX : DUAL_PREFIX} ${m.body}`,
    documentation: t.documentation,
    submission: program === 'dual_eligible' ? dualSubmission : maSubmission,
    turnaround: m.turnaround,
    source: cite(SRC.ecfr422138),
    verification: illustrative(m.caveat),
  });
}

// ---- Traditional Medicare: national lists ------------------------------------------------------------------------
const range = (prefix: string, from: number, to: number, width = 4): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${String(from + i).padStart(width, '0')}`);

/**
 * DMEPOS Required Prior Authorization List: regulatory-facts.md (orthoses after the 2024-08-12 update; L1833
 * removed) plus CMS-6097-N, effective 2026-04-13 (E0651, E0652; L0651, L1844, L1846, L1852, L1932).
 */
export const DMEPOS_LIST: readonly { code: string; group: string; since?: string }[] = [
  ...[...range('K', 800, 802), ...range('K', 806, 808), ...range('K', 813, 816), ...range('K', 820, 829), ...range('K', 835, 843), ...range('K', 848, 864)].map((code) => ({ code, group: 'Power mobility device' })),
  ...['E0193', 'E0277', 'E0371', 'E0372', 'E0373'].map((code) => ({ code, group: 'Pressure reducing support surface' })),
  ...['L5856', 'L5857', 'L5858', 'L5973', 'L5980', 'L5987'].map((code) => ({ code, group: 'Lower limb prosthesis' })),
  ...['L0648', 'L0650', 'L1832', 'L1851'].map((code) => ({ code, group: 'Orthosis' })),
  ...['L0631', 'L0637', 'L0639', 'L1843', 'L1845', 'L1951'].map((code) => ({ code, group: 'Orthosis', since: '2024-08-12' })),
  ...['E0651', 'E0652'].map((code) => ({ code, group: 'Pneumatic compression device', since: '2026-04-13' })),
  ...['L0651', 'L1844', 'L1846', 'L1852', 'L1932'].map((code) => ({ code, group: 'Orthosis', since: '2026-04-13' })),
];
/** The codes CMS-6097-N added to the Required PA List effective 2026-04-13. */
export const DMEPOS_2026_ADDITIONS = DMEPOS_LIST.filter((d) => d.since === '2026-04-13').map((d) => d.code);

/** Example CPT/HCPCS codes in the OPD service categories of 42 CFR 419.83 (examples, not the complete list). */
const OPD_EXAMPLE_CODES: CodeRef[] = [
  ...['15820', '15821', '15822', '15823'].map((code) => ({ system: 'CPT', code, display: 'Blepharoplasty (example)' })),
  { system: 'CPT', code: '15830', display: 'Panniculectomy (example)' },
  ...['30400', '30410', '30420', '30430', '30435', '30450'].map((code) => ({ system: 'CPT', code, display: 'Rhinoplasty (example)' })),
  ...['64612', '64615'].map((code) => ({ system: 'CPT', code, display: 'Chemodenervation, botulinum toxin injection (example)' })),
  ...['J0585', 'J0586', 'J0587', 'J0588'].map((code) => ({ system: 'HCPCS', code, display: 'Botulinum toxin (example)' })),
  ...['36470', '36471', '36475', '36476', '36478', '36479'].map((code) => ({ system: 'CPT', code, display: 'Vein ablation / sclerotherapy (example)' })),
  ...['22551', '22552'].map((code) => ({ system: 'CPT', code, display: 'Cervical fusion with disc removal (example)' })),
  ...['63650', '63685', '63688'].map((code) => ({ system: 'CPT', code, display: 'Implanted spinal neurostimulator (example)' })),
  ...['64490', '64491', '64492', '64493', '64494', '64495', '64633', '64634', '64635', '64636'].map((code) => ({ system: 'CPT', code, display: 'Facet joint intervention (example)' })),
];

const AB_MAC_TARGET = "The A/B Medicare Administrative Contractor (MAC) that processes the provider's Medicare claims (MAC portal, fax or mail)";

/** Each WISeR state's own participant and A/B MAC, and how far that is confirmed. */
export const WISER_ROUTES: Readonly<Record<string, { participant: string; mac: string; source: Source; confirmed: boolean; note?: string }>> = {
  AZ: { participant: 'Zyter|TruCare', mac: 'Noridian Healthcare Solutions (A/B MAC Jurisdiction F)', source: SRC.wiserNoridianJf, confirmed: true },
  WA: { participant: 'Virtix Health', mac: 'Noridian Healthcare Solutions (A/B MAC Jurisdiction F)', source: SRC.wiserNoridianJf, confirmed: true },
  OH: { participant: 'Innovaccer', mac: 'CGS Administrators (A/B MAC Jurisdiction 15)', source: SRC.wiserCgs, confirmed: true },
  NJ: { participant: 'Genzeon', mac: 'Novitas Solutions (A/B MAC Jurisdiction L)', source: SRC.wiserCms, confirmed: false, note: 'Participant and MAC named on the participant\'s own pages; not confirmed on a CMS or MAC page.' },
  TX: { participant: 'Cohere Health', mac: 'Novitas Solutions (A/B MAC Jurisdiction H)', source: SRC.wiserCms, confirmed: false, note: 'Participant and MAC named in press coverage of the CMS announcement; not confirmed on a CMS or MAC page.' },
  OK: { participant: 'Humata Health', mac: 'Novitas Solutions (A/B MAC Jurisdiction H)', source: SRC.wiserCms, confirmed: false, note: 'Participant named in secondary sources and the MAC recorded from memory; not confirmed on a CMS or MAC page.' },
};

/** DME MAC jurisdictions (CMS LCD L33829 contractor table). */
const DME_MAC: Readonly<Record<string, string>> = {
  ...Object.fromEntries(['CT', 'DE', 'DC', 'ME', 'MD', 'MA', 'NH', 'NJ', 'NY', 'PA', 'RI', 'VT'].map((s) => [s, 'Noridian Healthcare Solutions (DME MAC Jurisdiction A)'])),
  ...Object.fromEntries(['IL', 'IN', 'KY', 'MI', 'MN', 'OH', 'WI'].map((s) => [s, 'CGS Administrators (DME MAC Jurisdiction B)'])),
  ...Object.fromEntries(['AL', 'AR', 'CO', 'FL', 'GA', 'LA', 'MS', 'NM', 'NC', 'OK', 'SC', 'TN', 'TX', 'VA', 'WV'].map((s) => [s, 'CGS Administrators (DME MAC Jurisdiction C)'])),
};
const dmeMac = (state: string): string => DME_MAC[state] ?? 'Noridian Healthcare Solutions (DME MAC Jurisdiction D)';

function traditionalRules(f: StateFacts): CoverageRuleDoc[] {
  const out: CoverageRuleDoc[] = [];
  const route = WISER_STATES.includes(f.code as Jurisdiction) ? WISER_ROUTES[f.code] : undefined;
  const svc = (code: ServiceCategory): Subject => ({ kind: 'service', code });
  const program: Program = 'medicare_traditional';

  // Hospital OPD list (42 CFR 419.83) + WISeR where applicable.
  {
    const subj = svc('outpatient_surgery');
    const id = ruleId(f.code, program, subj);
    const opd = 'Hospital outpatient department services on the national OPD list (42 CFR 419.83) need PA from the MAC: blepharoplasty, botulinum toxin injections, panniculectomy, rhinoplasty and vein ablation (from 2020-07-01); cervical fusion with disc removal and implanted spinal neurostimulators (from 2021-07-01); facet joint interventions (from 2023-07-01). Other outpatient procedures need no PA under Original Medicare.';
    const wiserText = route
      ? ` WISeR model (this state, 2026-01-01 to 2031-12-31): the items and services in Appendix A of the CMS WISeR Model Provider and Supplier Operational Guide (for example skin and tissue substitutes, electrical nerve stimulator implants and knee arthroscopy for knee osteoarthritis) are subject to PA. Submit to ${route.participant} (this state's WISeR participant) or to ${route.mac}, or skip PA and face prepayment review. Inpatient-only and emergency services are excluded.`
      : '';
    out.push(rule({
      id, state: f.code, program, subj, paType: 'conditional', codes: OPD_EXAMPLE_CODES,
      criteria: opd + wiserText,
      documentation: ['Prior authorization request with the anticipated date of service', 'Medical records showing the service meets Medicare coverage, coding and payment rules', 'Photographs or functional documentation for potentially cosmetic procedures'],
      submission: route
        ? { channel: 'portal', target: `OPD list: ${route.mac}. WISeR services: ${route.participant} (this state's WISeR participant) or ${route.mac}`, url: route.source.url }
        : { channel: 'portal', target: AB_MAC_TARGET },
      turnaround: route ? { ...TA.opd, basis: `${TA.opd.basis} WISeR participant decision timeframes are not stated here.` } : TA.opd,
      source: cite(route ? route.source : SRC.ecfr41983),
      verification: !route
        ? federalFact(0.85, 'Codes are examples within the listed service categories, not the complete OPD code list.')
        : route.confirmed
          ? federalFact(0.8, 'WISeR participant and MAC as published by the MAC; the exact WISeR HCPCS list was not loaded.')
          : partlyConfirmed(0.6, `OPD list and WISeR states are confirmed. ${route.note}`),
    }));
  }
  // DMEPOS Required PA list (national; identical in every state but for the DME MAC that receives the request).
  {
    const subj = svc('durable_medical_equipment');
    const id = ruleId(f.code, program, subj);
    out.push(rule({
      id, state: f.code, program, subj, paType: 'conditional',
      codes: DMEPOS_LIST.map((d) => ({ system: 'HCPCS', code: d.code, display: d.group })),
      criteria: 'Items on the DMEPOS Required Prior Authorization List need PA from the DME MAC as a condition of payment: power mobility devices, pressure reducing support surfaces, certain lower limb prostheses and certain orthoses (orthoses L0631, L0637, L0639, L1843, L1845 and L1951 added 2024-08-12, L1833 removed). From 2026-04-13 (CMS-6097-N, published 2026-01-13) the list adds pneumatic compression devices E0651 and E0652 and orthoses L0651, L1844, L1846, L1852 and L1932. PA for osteogenesis stimulators (E0747, E0748, E0760) was suspended 2024-08-28. Other DMEPOS items need no PA.',
      documentation: ['Standard written order', 'Face-to-face encounter / medical records supporting medical necessity', 'Detailed product description with HCPCS code'],
      submission: { channel: 'portal', target: `The DME MAC for the beneficiary's state: ${dmeMac(f.code)}` },
      turnaround: TA.dmepos,
      source: cite(SRC.cmsPaInitiatives),
      verification: federalFact(0.85, `2026 additions confirmed on the DME MAC pages (${SRC.dmeOrthosesNoridian.url}, ${SRC.dmePcdCgs.url}); the DME MAC for each state follows the CMS LCD L33829 contractor table.`),
    }));
  }
  // RSNAT.
  {
    const subj = svc('ambulance_transport');
    const id = ruleId(f.code, program, subj);
    out.push(rule({
      id, state: f.code, program, subj, paType: 'conditional',
      criteria: 'Repetitive, scheduled non-emergent ambulance transport (RSNAT): PA through the MAC under the nationwide RSNAT model (Social Security Act 1834(l)(16)). The first 3 round trips are exempt. The model is voluntary, but transports without PA go to prepayment review. Emergency ambulance needs no PA.',
      documentation: ['Physician certification statement', 'Medical records showing transport by other means is contraindicated', 'Transport schedule and number of trips'],
      submission: { channel: 'portal', target: AB_MAC_TARGET },
      turnaround: TA.rsnat,
      source: cite(SRC.cmsPaInitiatives),
      verification: federalFact(0.8, 'The date the model became nationwide is not stated in this rule.'),
    }));
  }
  // Botulinum toxin (OPD list) as the only drug-class rule for Traditional Medicare.
  {
    const subj: Subject = { kind: 'drug', code: 'specialty_biologics' };
    const id = ruleId(f.code, program, subj);
    out.push(rule({
      id, state: f.code, program, subj, paType: 'conditional',
      codes: OPD_EXAMPLE_CODES.filter((c) => c.code.startsWith('J05') || c.code.startsWith('646')),
      criteria: 'Usual benefit: Part B (physician-administered). Original Medicare has no outpatient drug formulary PA (self-administered drugs are Part D). The only biologic subject to national PA is botulinum toxin injection furnished in a hospital outpatient department (42 CFR 419.83 OPD list); other Part B biologics need no PA.',
      documentation: ['Prior authorization request to the MAC', 'Medical records supporting the indication'],
      submission: { channel: 'portal', target: AB_MAC_TARGET },
      turnaround: TA.opd,
      source: cite(SRC.ecfr41983),
      verification: federalFact(0.8),
    }));
  }
  // The other drug classes: Original Medicare (Parts A and B) has no outpatient drug benefit of its own; a person in it
  // gets drug coverage by joining a separate Medicare drug plan (Part D). The rule repeats the Part D content as sample;
  // only a hand-over fact to part_d (corpus/facts/FORMAT.md, "Following another program's rule") can verify it.
  // Weight-loss drugs are outside Part D (only the CMS GLP-1 Bridge pays for some), so they get no rule here.
  for (const dc of DRUG_CLASSES) {
    if (dc === 'specialty_biologics' || dc === 'glp1_weight_loss') continue;
    const subj: Subject = { kind: 'drug', code: dc };
    out.push(rule({ id: ruleId(f.code, program, subj), state: f.code, program, subj, ...partDDrugContent(dc, TRADITIONAL_DRUG_PREFIX) }));
  }
  // The standard pharmacy benefit likewise: the separate drug plan's (sample, as above).
  const pharmacy = svc('pharmacy_standard');
  out.push(rule({ id: ruleId(f.code, program, pharmacy), state: f.code, program, subj: pharmacy, ...partDServiceContent('pharmacy_standard', TRADITIONAL_DRUG_PREFIX) }));
  // Categories with no PA under Original Medicare (derived from the national lists: served as sample).
  const NONE: ServiceCategory[] = [
    'advanced_imaging', 'behavioral_health_inpatient', 'behavioral_health_outpatient', 'diagnostic_imaging', 'home_health',
    'hospice', 'inpatient_hospital', 'laboratory', 'occupational_therapy', 'physical_therapy', 'skilled_nursing_facility',
    'specialty_drugs', 'speech_therapy', 'substance_use_treatment',
  ];
  for (const sc of NONE) {
    const subj = svc(sc);
    const id = ruleId(f.code, program, subj);
    let note = 'No PA in Original Medicare; national PA covers only OPD services, DMEPOS and RSNAT' + (route ? ' (plus WISeR here)' : '') + '.';
    if (sc === 'home_health') note += ' Pre-claim review demonstrations (not PA) run in some states.';
    if (sc === 'specialty_drugs') note = 'Usual benefit: Part B (physician-administered drugs). ' + note + ' Exception: botulinum toxin in a hospital OPD.';
    out.push(rule({
      id, state: f.code, program, subj, paType: 'none', criteria: note, documentation: [],
      submission: NO_PA, turnaround: TA.none, source: cite(SRC.cmsPaInitiatives),
      verification: partlyConfirmed(0.6, 'Derived from the absence of the category from the national PA program list; not an explicit CMS statement.', 'derived-from-national-list'),
    }));
  }
  return out;
}

// ---- Coverage plan: which (state, program, subject) combinations get a program-level rule --------------------
/** Structural gaps only (no hashed or random gaps): a program that does not cover or administer the subject. */
export function wanted(f: StateFacts, program: Program, subj: Subject): boolean {
  const c = subj.code;
  switch (program) {
    case 'medicaid_mco':
      return f.mco !== 'none';
    case 'medicaid_ffs':
      return true;
    case 'medicare_advantage':
      return !(c === 'dental' || c === 'long_term_care' || c === 'compounded_medications');
    case 'dual_eligible':
      return c !== 'compounded_medications';
    case 'part_d':
      return !outsideProgram('part_d', subj);
    case 'chip':
      return !(c === 'long_term_care' || c === 'skilled_nursing_facility' || c === 'hospice');
    case 'medicare_traditional':
      return true; // handled by traditionalRules
  }
}

export const SUBJECTS: readonly Subject[] = [
  ...DRUG_CLASSES.map((code) => ({ kind: 'drug' as const, code })),
  ...SERVICE_CATEGORIES.map((code) => ({ kind: 'service' as const, code })),
];

export function programLevelRules(): CoverageRuleDoc[] {
  const out: CoverageRuleDoc[] = [];
  for (const f of STATES) {
    for (const subj of SUBJECTS) {
      for (const program of ['medicaid_mco', 'medicaid_ffs', 'chip'] as const) {
        if (wanted(f, program, subj)) out.push(medicaidRule(f, program, subj));
      }
      for (const program of ['medicare_advantage', 'dual_eligible'] as const) {
        if (wanted(f, program, subj)) out.push(maLikeRule(f, program, subj));
      }
      if (wanted(f, 'part_d', subj)) out.push(partDRule(f, subj));
    }
    out.push(...traditionalRules(f));
  }
  return out;
}

// ---- Payer-level rules: the program rule's requirement, the plan's own submission route --------------------------
const PAYER_CAVEAT = 'Payer name is real; the rule repeats the program-level sample requirement and was not taken from this payer\'s published policy.';

/** A payer-level rule keeps its program rule's verification; a sample one says why it names a payer. */
function withPayerCaveat(v: Verification, caveat: string): Verification {
  if (v.status === 'verified') return v;
  return { ...v, caveat: `${v.caveat ?? ''} ${caveat}`.trim() };
}

export function payerLevelRules(): CoverageRuleDoc[] {
  const out: CoverageRuleDoc[] = [];
  const byCode = new Map(STATES.map((f) => [f.code, f]));
  const subjects: Subject[] = [
    ...PAYER_DRUGS.map((code) => ({ kind: 'drug' as const, code })),
    ...PAYER_SERVICES.map((code) => ({ kind: 'service' as const, code })),
  ];
  for (const p of MCO_PAYERS) {
    const f = byCode.get(p.jurisdictions[0])!;
    for (const subj of subjects) {
      if (isDrugBenefit(subj) && f.pharmacyCarveOut) continue; // pharmacy not administered by the MCO
      const base = medicaidRule(f, 'medicaid_mco', subj);
      const id = `${p.id}.${subj.kind === 'drug' ? 'd' : 's'}.${slug(subj.code)}`;
      out.push({
        ...base,
        id,
        payer: { id: p.id, name: p.name },
        requirement: { ...base.requirement, criteria: `${p.name} (Medicaid MCO), sample plan rule (the state MCO requirement). ${base.requirement.criteria}` },
        submission: base.requirement.paRequired ? { channel: subj.kind === 'drug' ? 'epa' : 'portal', target: `${p.name}: the plan's provider portal${subj.kind === 'drug' ? ' or pharmacy PA process' : ''}` } : NO_PA,
        verification: withPayerCaveat(base.verification, [PAYER_CAVEAT, p.caveat].filter(Boolean).join(' ')),
      });
    }
  }
  for (const p of NATIONAL_PAYERS) {
    for (const state of p.jurisdictions) {
      const f = byCode.get(state)!;
      for (const subj of subjects) {
        const program: Program | undefined = subj.kind === 'service'
          ? (p.programs.includes('medicare_advantage') ? 'medicare_advantage' : undefined)
          : (p.programs.includes('part_d') ? 'part_d' : 'medicare_advantage');
        if (!program) continue;
        const id = `${p.id}.${state.toLowerCase()}.${program === 'part_d' ? 'part-d' : 'ma'}.${subj.kind === 'drug' ? 'd' : 's'}.${slug(subj.code)}`;
        const base = program === 'part_d' ? partDRule(f, subj) : maLikeRule(f, 'medicare_advantage', subj);
        const label = program === 'part_d' ? 'Part D' : subj.kind === 'drug' ? 'MA-PD' : 'MA';
        const plan = base.submission.url === SRC.glp1Bridge.url; // the Bridge bypasses the plan
        out.push({
          ...base,
          id,
          payer: { id: p.id, name: p.name },
          requirement: { ...base.requirement, criteria: `${p.name} (${label}): ${base.verification.status === 'verified' ? 'the national rule applies to this plan' : 'sample plan rule (the program requirement)'}. ${base.requirement.criteria}` },
          submission: !base.requirement.paRequired || plan
            ? base.submission
            : subj.kind === 'drug' ? { channel: 'epa', target: `${p.name}: Part D coverage determination (ePA or the plan's portal)` } : { channel: 'portal', target: `${p.name}: Medicare Advantage provider portal` },
          verification: withPayerCaveat(base.verification, `${PAYER_CAVEAT} Plan service areas vary by county; confirm the plan operates in this state.`),
        });
      }
    }
  }
  return out;
}

export { DRUG_CLASS_LABELS, SERVICE_CATEGORY_LABELS };
