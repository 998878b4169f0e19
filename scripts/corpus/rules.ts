// CoverageRule generation: program-level rules for 51 jurisdictions x 7 programs x 40 subjects (with deliberate
// gaps), national Traditional Medicare lists, Part D protected classes, and payer-level rules.
import type { CodeRef, CoverageRuleDoc, SourceCitation, Verification } from '../../src/domain/documents.js';
import {
  DRUG_CLASSES, DRUG_CLASS_LABELS, PART_D_PROTECTED_DRUG_CLASSES, SERVICE_CATEGORIES, SERVICE_CATEGORY_LABELS,
  type DrugClass, type PaType, type Program, type ServiceCategory, type SubjectKind,
} from '../../src/domain/vocabulary.js';
import { DRUG_TEMPLATES, EXAMPLE_SERVICE_CODES, SERVICE_TEMPLATES, type Template } from './content.js';
import { MCO_PAYERS, NATIONAL_PAYERS, PAYER_DRUGS, PAYER_SERVICES, type PayerSeed } from './payers.js';
import { SRC, federalFact, fnv, illustrative, pick } from './sources.js';
import { STATES, WISER_STATES, type StateFacts } from './states.js';

type Subject = { kind: SubjectKind; code: DrugClass | ServiceCategory };
type Turnaround = CoverageRuleDoc['turnaround'];
type Submission = CoverageRuleDoc['submission'];

const slug = (s: string): string => s.replace(/_/g, '-');
const ruleId = (state: string, program: Program, subj: Subject): string =>
  `${state.toLowerCase()}.${slug(program)}.${subj.kind === 'drug' ? 'd' : 's'}.${slug(subj.code)}`;

// ---- turnaround bases (federal facts) ---------------------------------------------------------------------
const TA = {
  cms0057: { standardHours: 168, expeditedHours: 72, basis: 'CMS-0057-F (from 2026-01-01): 7 calendar days / 72 h' },
  medicaidDrug: { standardHours: 24, expeditedHours: 24, basis: 'SSA 1927(d)(5): drug PA answered within 24 h' },
  chipDrug: { standardHours: 24, expeditedHours: 24, basis: 'Assumed as Medicaid drug PA, 24 h (SSA 1927(d)(5)); confirm' },
  partD: { standardHours: 72, expeditedHours: 24, basis: '42 CFR 423.568/423.572: 72 h / 24 h' },
  maDrug: { standardHours: 72, expeditedHours: 24, basis: 'Part D drugs: 42 CFR 423.568/423.572, 72 h / 24 h; Part B: confirm' },
  dmepos: { standardHours: 168, expeditedHours: 48, basis: 'DMEPOS prior authorization: decision within 7 calendar days standard (from 2025-01-01); expedited 2 business days, recorded as 48 hours.' },
  opd: { standardHours: 168, expeditedHours: 48, basis: `Hospital OPD prior authorization: MAC review within 7 calendar days standard (changed from 10 business days effective 2025-01-01 per CGS notice ${SRC.cgsTimeframes2025}); expedited 2 business days, recorded as 48 hours.` },
  rsnat: { standardHours: 168, expeditedHours: 168, basis: `RSNAT prior authorization: MAC review within 7 calendar days; the expedited review option was removed in January 2025 per CGS notice ${SRC.cgsTimeframes2025}, so the expedited value repeats the standard one.` },
  none: { standardHours: 0, expeditedHours: 0, basis: 'No PA; not applicable' },
} satisfies Record<string, Turnaround>;

// ---- helpers ---------------------------------------------------------------------------------------------------
function stateSource(f: StateFacts): SourceCitation {
  return { url: f.url, title: 'Official website', publisher: f.agency };
}

function label(subj: Subject): string {
  return subj.kind === 'drug' ? DRUG_CLASS_LABELS[subj.code as DrugClass] : SERVICE_CATEGORY_LABELS[subj.code as ServiceCategory];
}

function template(subj: Subject): Template {
  return subj.kind === 'drug' ? DRUG_TEMPLATES[subj.code as DrugClass] : SERVICE_TEMPLATES[subj.code as ServiceCategory];
}

/** The template's usual PA type, or its alternative for ~25% of (key) combinations: gives compare something to show. */
function variantPaType(t: Template, key: string): PaType {
  return t.alt && pick(`alt:${key}`, 25) ? t.alt : t.paType;
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
  exclusion?: { reason: string; citation: string };
  submission: Submission;
  turnaround: Turnaround;
  federalOverride?: boolean;
  source: SourceCitation;
  verification: Verification;
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
  if (p.exclusion) requirement.exclusion = p.exclusion;
  const doc: CoverageRuleDoc = {
    resourceType: 'CoverageRule',
    id: p.id,
    jurisdiction: p.state,
    program: p.program,
    subject: { kind: p.subj.kind, code: p.subj.code },
    ...(p.payer ? { payer: p.payer } : {}),
    ...(p.codes?.length ? { codes: p.codes } : {}),
    requirement,
    submission: p.submission,
    turnaround: p.turnaround,
    federalOverride: p.federalOverride ?? false,
    source: p.source,
    verification: p.verification,
  };
  return doc;
}

const noneTurnaround = (paType: PaType, t: Turnaround): Turnaround => (paType === 'none' ? TA.none : t);

// ---- Medicaid (MCO / FFS) and CHIP ------------------------------------------------------------------------------
const PROGRAM_PREFIX: Partial<Record<Program, string>> = {
  medicaid_mco: 'Medicaid MCO: plan PA lists, no stricter than FFS (42 CFR 438.210).',
  medicaid_ffs: 'Medicaid FFS: PA by the state or its PA vendor.',
  chip: 'CHIP: usually mirrors the state Medicaid rules.',
};

function ffsTarget(f: StateFacts, kind: SubjectKind): Submission {
  if (f.code === 'TX' && kind === 'service') return { channel: 'portal', target: 'Texas Medicaid & Healthcare Partnership (TMHP), the Texas Medicaid fee-for-service claims and PA administrator', url: 'https://www.tmhp.com' };
  if (f.code === 'CA' && kind === 'service') return { channel: 'portal', target: 'Medi-Cal fee-for-service Treatment Authorization Request (TAR)', url: f.url };
  if (f.code === 'CA' && kind === 'drug') return { channel: 'portal', target: 'Medi-Cal Rx pharmacy prior authorization', url: 'https://medi-calrx.dhcs.ca.gov' };
  if (kind === 'drug') return { channel: 'epa', target: `${f.agency}: FFS pharmacy PA (ePA or PA form)` };
  return { channel: 'portal', target: `${f.agency}: FFS PA (provider portal or PA vendor)` };
}

function mcoTarget(f: StateFacts, kind: SubjectKind): Submission {
  if (kind === 'drug' && f.pharmacyCarveOut) {
    return { channel: 'epa', target: f.pharmacyCarveOut.target, ...(f.pharmacyCarveOut.url ? { url: f.pharmacyCarveOut.url } : {}) };
  }
  return { channel: 'portal', target: "Member's Medicaid MCO provider portal (see state_meta.mco_brands)" };
}

function medicaidRule(f: StateFacts, program: 'medicaid_mco' | 'medicaid_ffs' | 'chip', subj: Subject): CoverageRuleDoc {
  const id = ruleId(f.code, program, subj);
  const t = template(subj);
  const paType = variantPaType(t, id);
  const useMco = program === 'medicaid_mco' || (program === 'chip' && f.mco === 'full');
  let submission = useMco ? mcoTarget(f, subj.kind) : ffsTarget(f, subj.kind);
  let prefix = PROGRAM_PREFIX[program]!;
  const caveats: string[] = [];
  if (program === 'medicaid_mco' && subj.kind === 'drug' && f.pharmacyCarveOut) {
    prefix += ' Pharmacy is carved out of managed care here: drug PA goes to the state pharmacy program.';
  }
  if (program === 'chip' && subj.kind === 'drug') caveats.push('The 24-hour CHIP drug clock is assumed from the Medicaid rule; confidence lowered.');
  if (f.caveat && (program === 'medicaid_mco' || f.pharmacyCarveOut)) caveats.push(`State note: ${f.caveat}`);
  if (subj.kind === 'drug' && f.code === 'TX' && program !== 'medicaid_ffs') {
    prefix += ' MCOs follow the Vendor Drug Program formulary and PDL.';
  }
  const turnaround = noneTurnaround(paType, subj.kind === 'drug' ? (program === 'chip' ? TA.chipDrug : TA.medicaidDrug) : TA.cms0057);
  if (paType === 'none') submission = { channel: 'none', target: 'No PA request needed' };
  return rule({
    id, state: f.code, program, subj, paType,
    criteria: `${prefix} ${t.criteria}`,
    documentation: t.documentation,
    quantityLimit: t.quantityLimit,
    stepTherapy: t.stepTherapy,
    submission,
    turnaround,
    source: stateSource(f),
    verification: illustrative(id, caveats.length ? caveats.join(' ') : undefined, program === 'chip' && subj.kind === 'drug' ? 0.45 : undefined),
  });
}

// ---- Medicare Advantage / dual eligible / Part D -----------------------------------------------------------------
const MA_SERVICE: Partial<Record<ServiceCategory, { paType: PaType; alt?: PaType; criteria?: string }>> = {
  advanced_imaging: { paType: 'full', alt: 'conditional' },
  ambulance_transport: { paType: 'conditional', alt: 'none' },
  behavioral_health_inpatient: { paType: 'full', alt: 'notification_only' },
  behavioral_health_outpatient: { paType: 'none', alt: 'conditional' },
  diagnostic_imaging: { paType: 'none' },
  durable_medical_equipment: { paType: 'conditional', alt: 'full' },
  home_health: { paType: 'full', alt: 'conditional' },
  hospice: { paType: 'none', criteria: 'Hospice care for Medicare Advantage enrollees is paid by Original Medicare, not by the MA plan; no plan PA applies to the hospice benefit.' },
  inpatient_hospital: { paType: 'full', alt: 'notification_only' },
  laboratory: { paType: 'conditional', alt: 'none' },
  occupational_therapy: { paType: 'conditional', alt: 'full' },
  outpatient_surgery: { paType: 'conditional', alt: 'full' },
  pharmacy_standard: { paType: 'conditional', criteria: 'Outpatient drugs are covered under a Part D formulary (MA-PD, PDP or D-SNP); non-formulary drugs and drugs with PA/ST edits need a coverage determination.' },
  physical_therapy: { paType: 'conditional', alt: 'full' },
  skilled_nursing_facility: { paType: 'full' },
  specialty_drugs: { paType: 'full', alt: 'step_therapy', criteria: 'Part B physician-administered drugs: plans may apply PA and step therapy (including Part B-to-Part D step edits) for new starts under their utilization-management policy.' },
  speech_therapy: { paType: 'conditional', alt: 'full' },
  substance_use_treatment: { paType: 'conditional', alt: 'none' },
};

const MA_PREFIX = 'MA: plan PA lists, no stricter than Original Medicare coverage.';
const DUAL_PREFIX = 'Duals: Medicare pays first; Medicaid covers Medicaid-only benefits.';
const PARTD_PREFIX = 'Part D: formulary PA/ST/QL; a request is a coverage determination.';

const maSubmission: Submission = { channel: 'portal', target: "Member's MA plan provider portal" };
const partDSubmission: Submission = { channel: 'epa', target: "Member's Part D sponsor (ePA, portal, phone or fax)" };
const dualSubmission: Submission = { channel: 'portal', target: "Member's D-SNP or Medicare plan; Medicaid-only items to Medicaid" };

function partDDrugContent(dc: DrugClass, key: string, prefix: string = PARTD_PREFIX): { paType: PaType; criteria: string; documentation: string[]; newStartsOnly?: boolean; exclusion?: { reason: string; citation: string }; federalOverride: boolean; verification: Verification; source: SourceCitation; stepTherapy?: string; quantityLimit?: string } {
  const t = DRUG_TEMPLATES[dc];
  if (PART_D_PROTECTED_DRUG_CLASSES.includes(dc)) {
    const hiv = dc === 'hiv_antiretrovirals';
    return {
      paType: 'conditional',
      newStartsOnly: true,
      federalOverride: true,
      criteria: `${DRUG_CLASS_LABELS[dc]} are a Part D protected class: plans must cover all or substantially all drugs in the class (42 U.S.C. 1395w-104(b)(3)(G)). Under CMS-4180-F plans may apply PA or step therapy only to new starts; enrollees already taking a drug continue without new PA.${hiv ? ' Antiretrovirals: whether PA/ST may be applied even to new starts in this class is not confirmed here (recorded from memory as carved out of the new-start flexibility).' : ''}`,
      documentation: ['Diagnosis', 'Whether the enrollee is a new start or continuing therapy', 'Formulary alternatives considered (new starts only)'],
      verification: hiv
        ? federalFact(0.45, 'Protected-class status is confirmed; the antiretroviral carve-out from PA/ST for new starts is from memory ([M]) and not confirmed against CMS guidance.')
        : federalFact(0.85),
      source: SRC.usc1395w104,
    };
  }
  if (dc === 'glp1_weight_loss') {
    return {
      paType: 'full', federalOverride: false,
      criteria: 'Drugs used for weight loss are excluded from Part D. A GLP-1 agent with another medically accepted, FDA-approved indication (e.g. type 2 diabetes or cardiovascular risk reduction) may be covered with PA confirming that indication; weight-loss use is not covered.',
      documentation: ['Indication other than weight loss', 'Supporting diagnosis (e.g. established cardiovascular disease or type 2 diabetes)', 'Prescriber attestation'],
      // The class is the weight-loss use: a Part D request for it is not a covered benefit (PAS answers A3).
      exclusion: {
        reason: 'Drugs used for weight loss are excluded from Part D coverage by statute. A GLP-1 for another medically accepted indication is a different request; the Medicare GLP-1 Bridge demonstration (2026-07-01 to 2027-12-31) runs outside the Part D benefit through a CMS-contracted processor.',
        citation: 'Social Security Act sections 1860D-2(e)(2)(A) and 1927(d)(2)(A) (ssa.gov)',
      },
      verification: illustrative(key, 'Weight-loss exclusion is a statutory Part D rule; per-indication coverage varies by plan.'),
      source: SRC.ecfr423568,
    };
  }
  return {
    paType: variantPaType(t, key), federalOverride: false,
    criteria: `${prefix} ${t.criteria}`,
    documentation: t.documentation, stepTherapy: t.stepTherapy, quantityLimit: t.quantityLimit,
    verification: illustrative(key), source: SRC.ecfr423568,
  };
}

function partDRule(f: StateFacts, subj: Subject): CoverageRuleDoc {
  const id = ruleId(f.code, 'part_d', subj);
  if (subj.kind === 'drug') {
    const c = partDDrugContent(subj.code as DrugClass, id);
    return rule({ id, state: f.code, program: 'part_d', subj, ...c, submission: c.paType === 'none' ? { channel: 'none', target: 'No PA request needed' } : partDSubmission, turnaround: noneTurnaround(c.paType, TA.partD) });
  }
  const criteria = subj.code === 'pharmacy_standard'
    ? `${PARTD_PREFIX} Formulary drugs without utilization edits need no PA; non-formulary drugs need a formulary exception; a transition fill is available for new enrollees.`
    : `${PARTD_PREFIX} Specialty-tier drugs commonly need PA for indication and prescriber; physician-administered drugs are usually Part B, not Part D, and a B-versus-D determination may be required.`;
  return rule({
    id, state: f.code, program: 'part_d', subj, paType: 'conditional', criteria,
    documentation: ['Diagnosis', 'Formulary alternatives tried', 'Prescriber supporting statement (for exceptions)'],
    submission: partDSubmission, turnaround: TA.partD, source: SRC.ecfr423568, verification: illustrative(id),
  });
}

function maLikeRule(f: StateFacts, program: 'medicare_advantage' | 'dual_eligible', subj: Subject): CoverageRuleDoc {
  const id = ruleId(f.code, program, subj);
  const prefix = program === 'medicare_advantage' ? MA_PREFIX : DUAL_PREFIX;
  if (subj.kind === 'drug') {
    const pfx = program === 'medicare_advantage' ? 'MA-PD (Part D benefit): formulary PA/ST/QL.' : 'Duals: drugs covered by Part D; formulary PA/ST/QL.';
    const { exclusion, ...c } = partDDrugContent(subj.code as DrugClass, id, pfx);
    return rule({
      // Full-benefit duals: a state may cover Part D-excluded drugs through Medicaid, so no blanket exclusion.
      id, state: f.code, program, subj, ...c, ...(program === 'medicare_advantage' && exclusion ? { exclusion } : {}),
      submission: c.paType === 'none' ? { channel: 'none', target: 'No PA request needed' } : partDSubmission,
      turnaround: noneTurnaround(c.paType, program === 'medicare_advantage' ? TA.maDrug : TA.partD),
    });
  }
  const sc = subj.code as ServiceCategory;
  const t = SERVICE_TEMPLATES[sc];
  if (program === 'dual_eligible' && (sc === 'long_term_care' || sc === 'dental')) {
    // Medicaid-only benefits for duals: state Medicaid rules.
    const paType = variantPaType(t, id);
    return rule({
      id, state: f.code, program, subj, paType,
      criteria: `${DUAL_PREFIX} Medicaid benefit for duals: ${t.criteria}`,
      documentation: t.documentation,
      submission: f.mco === 'full' ? mcoTarget(f, 'service') : ffsTarget(f, 'service'),
      turnaround: noneTurnaround(paType, TA.cms0057), source: stateSource(f), verification: illustrative(id),
    });
  }
  const m = MA_SERVICE[sc];
  const paType = m ? (m.alt && pick(`alt:${id}`, 25) ? m.alt : m.paType) : t.paType;
  const body = m?.criteria ?? t.criteria;
  return rule({
    id, state: f.code, program, subj, paType,
    codes: program === 'medicare_advantage' && f.code === 'TX' ? EXAMPLE_SERVICE_CODES[sc] : undefined,
    criteria: `${prefix} ${body}`,
    documentation: t.documentation,
    submission: paType === 'none' ? { channel: 'none', target: 'No plan PA request needed' } : program === 'dual_eligible' ? dualSubmission : maSubmission,
    turnaround: noneTurnaround(paType, TA.cms0057),
    source: SRC.cms0057Faq,
    verification: illustrative(id),
  });
}

// ---- Traditional Medicare: national lists ------------------------------------------------------------------------
const range = (prefix: string, from: number, to: number, width = 4): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${String(from + i).padStart(width, '0')}`);

/** DMEPOS Required Prior Authorization List, as in regulatory-facts.md (orthoses after the 2024-08-12 update; L1833 removed). */
export const DMEPOS_LIST: readonly { code: string; group: string }[] = [
  ...[...range('K', 800, 802), ...range('K', 806, 808), ...range('K', 813, 816), ...range('K', 820, 829), ...range('K', 835, 843), ...range('K', 848, 864)].map((code) => ({ code, group: 'Power mobility device' })),
  ...['E0193', 'E0277', 'E0371', 'E0372', 'E0373'].map((code) => ({ code, group: 'Pressure reducing support surface' })),
  ...['L5856', 'L5857', 'L5858', 'L5973', 'L5980', 'L5987'].map((code) => ({ code, group: 'Lower limb prosthesis' })),
  ...['L0648', 'L0650', 'L1832', 'L1851', 'L0631', 'L0637', 'L0639', 'L1843', 'L1845', 'L1951'].map((code) => ({ code, group: 'Orthosis' })),
];

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

const MAC_TARGET = 'Medicare Administrative Contractor (MAC) for the jurisdiction (MAC portal, fax or mail)';

function traditionalRules(f: StateFacts): CoverageRuleDoc[] {
  const out: CoverageRuleDoc[] = [];
  const wiser = WISER_STATES.includes(f.code);
  const svc = (code: ServiceCategory): Subject => ({ kind: 'service', code });
  const program: Program = 'medicare_traditional';

  // Hospital OPD list (42 CFR 419.83) + WISeR where applicable.
  {
    const subj = svc('outpatient_surgery');
    const id = ruleId(f.code, program, subj);
    const opd = 'Hospital outpatient department services on the national OPD list (42 CFR 419.83) need PA from the MAC: blepharoplasty, botulinum toxin injections, panniculectomy, rhinoplasty and vein ablation (from 2020-07-01); cervical fusion with disc removal and implanted spinal neurostimulators (from 2021-07-01); facet joint interventions (from 2023-07-01). Other outpatient procedures need no PA under Original Medicare.';
    const wiserText = ' WISeR model (this state, 2026-01-01 to 2031-12-31): selected services such as skin and tissue substitutes, electrical nerve stimulator implants, knee arthroscopy for knee osteoarthritis, and (per secondary sources) epidural steroid injections, percutaneous image-guided lumbar decompression, cervical fusion, and sacral, phrenic, vagus and deep brain stimulators are subject to PA; the provider may submit to the WISeR participant or the MAC, or skip PA and face prepayment review. Inpatient-only and emergency services are excluded.';
    out.push(rule({
      id, state: f.code, program, subj, paType: 'conditional', codes: OPD_EXAMPLE_CODES,
      criteria: opd + (wiser ? wiserText : ''),
      documentation: ['Prior authorization request with the anticipated date of service', 'Medical records showing the service meets Medicare coverage, coding and payment rules', 'Photographs or functional documentation for potentially cosmetic procedures'],
      submission: wiser
        ? { channel: 'portal', target: 'OPD list: the A/B MAC for the jurisdiction. WISeR services: the WISeR model participant for the state or the A/B MAC', url: SRC.wiser.url }
        : { channel: 'portal', target: MAC_TARGET },
      turnaround: wiser ? { ...TA.opd, basis: `${TA.opd.basis} WISeR participant decision timeframes not confirmed here.` } : TA.opd,
      source: wiser ? SRC.wiser : SRC.ecfr41983,
      verification: wiser
        ? federalFact(0.7, 'OPD list and WISeR states are confirmed; part of the WISeR service list comes from secondary sources and the exact HCPCS list was not loaded.')
        : federalFact(0.85, 'Codes are examples within the listed service categories, not the complete OPD code list.'),
    }));
  }
  // DMEPOS Required PA list.
  {
    const subj = svc('durable_medical_equipment');
    const id = ruleId(f.code, program, subj);
    out.push(rule({
      id, state: f.code, program, subj, paType: 'conditional',
      codes: DMEPOS_LIST.map((d) => ({ system: 'HCPCS', code: d.code, display: d.group })),
      criteria: 'Items on the DMEPOS Required Prior Authorization List need PA from the DME MAC as a condition of payment: power mobility devices, pressure reducing support surfaces, certain lower limb prostheses and certain orthoses (orthoses L0631, L0637, L0639, L1843, L1845 and L1951 added 2024-08-12, L1833 removed). PA for osteogenesis stimulators (E0747, E0748, E0760) was suspended 2024-08-28. Other DMEPOS items need no PA.' + (WISER_STATES.includes(f.code) ? ' WISeR (this state): incontinence control devices are among the WISeR services (secondary sources).' : ''),
      documentation: ['Standard written order', 'Face-to-face encounter / medical records supporting medical necessity', 'Detailed product description with HCPCS code'],
      submission: { channel: 'portal', target: 'DME Medicare Administrative Contractor (DME MAC) for the jurisdiction' },
      turnaround: TA.dmepos,
      source: SRC.cmsPaInitiatives,
      verification: federalFact(0.85),
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
      submission: { channel: 'portal', target: 'A/B Medicare Administrative Contractor (MAC) for the jurisdiction' },
      turnaround: TA.rsnat,
      source: SRC.cmsPaInitiatives,
      verification: federalFact(0.8, 'The exact date the model became nationwide is [M] and not stated here.'),
    }));
  }
  // Botulinum toxin (OPD list) as the only drug-class rule for Traditional Medicare.
  {
    const subj: Subject = { kind: 'drug', code: 'specialty_biologics' };
    const id = ruleId(f.code, program, subj);
    out.push(rule({
      id, state: f.code, program, subj, paType: 'conditional',
      codes: OPD_EXAMPLE_CODES.filter((c) => c.code.startsWith('J05') || c.code.startsWith('646')),
      criteria: 'Original Medicare has no outpatient drug formulary PA (self-administered drugs are Part D). The only biologic subject to national PA is botulinum toxin injection furnished in a hospital outpatient department (42 CFR 419.83 OPD list); other Part B biologics need no PA.',
      documentation: ['Prior authorization request to the MAC', 'Medical records supporting the indication'],
      submission: { channel: 'portal', target: MAC_TARGET },
      turnaround: TA.opd,
      source: SRC.ecfr41983,
      verification: federalFact(0.8),
    }));
  }
  // Categories with no PA under Original Medicare.
  const NONE: ServiceCategory[] = [
    'advanced_imaging', 'behavioral_health_inpatient', 'behavioral_health_outpatient', 'diagnostic_imaging', 'home_health',
    'hospice', 'inpatient_hospital', 'laboratory', 'occupational_therapy', 'physical_therapy', 'skilled_nursing_facility',
    'specialty_drugs', 'speech_therapy', 'substance_use_treatment',
  ];
  for (const sc of NONE) {
    const subj = svc(sc);
    const id = ruleId(f.code, program, subj);
    let note = 'No PA in Original Medicare; national PA covers only OPD services, DMEPOS and RSNAT' + (wiser ? ' (plus WISeR here)' : '') + '.';
    if (sc === 'home_health') note += ' Pre-claim review demonstrations (not PA) run in some states.';
    if (sc === 'specialty_drugs') note += ' Exception: botulinum toxin in a hospital OPD.';
    out.push(rule({
      id, state: f.code, program, subj, paType: 'none', criteria: note, documentation: [],
      submission: { channel: 'none', target: 'No prior authorization under Original Medicare; bill the MAC' },
      turnaround: TA.none, source: SRC.cmsPaInitiatives,
      verification: { ...federalFact(0.6, 'Derived from the absence of the category from the national PA program list; not an explicit CMS statement.'), method: 'derived-from-national-list' },
    }));
  }
  return out;
}

// ---- Coverage plan: which (state, program, subject) combinations get a program-level rule --------------------
/** Gap rates by program (percent of combinations left without a rule), beyond the structural gaps. */
const GAP_RATE: Record<Program, number> = {
  medicaid_mco: 5, medicaid_ffs: 12, medicare_advantage: 8, medicare_traditional: 0, dual_eligible: 18, part_d: 3, chip: 10,
};

function wanted(f: StateFacts, program: Program, subj: Subject): boolean {
  const key = `gap:${f.code}:${program}:${subj.kind}:${subj.code}`;
  const c = subj.code;
  switch (program) {
    case 'medicaid_mco':
      if (f.mco === 'none') return false;
      if (f.mco === 'partial') return !pick(key, 55);
      break;
    case 'medicaid_ffs':
      if (f.mco === 'full' && pick(`ffs-thin:${f.code}`, 35)) return !pick(key, 30); // states where FFS serves few people
      break;
    case 'medicare_advantage':
      if (c === 'dental' || c === 'long_term_care' || c === 'compounded_medications') return false;
      break;
    case 'dual_eligible':
      if (c === 'compounded_medications') return false;
      break;
    case 'part_d':
      if (subj.kind === 'service') return c === 'pharmacy_standard' || c === 'specialty_drugs';
      if (PART_D_PROTECTED_DRUG_CLASSES.includes(c as DrugClass)) return true; // federal rule: same everywhere
      break;
    case 'chip':
      if (c === 'long_term_care' || c === 'skilled_nursing_facility' || c === 'hospice') return false;
      break;
    case 'medicare_traditional':
      return true; // handled by traditionalRules
  }
  return !pick(key, GAP_RATE[program]);
}

export function programLevelRules(): CoverageRuleDoc[] {
  const out: CoverageRuleDoc[] = [];
  const subjects: Subject[] = [
    ...DRUG_CLASSES.map((code) => ({ kind: 'drug' as const, code })),
    ...SERVICE_CATEGORIES.map((code) => ({ kind: 'service' as const, code })),
  ];
  for (const f of STATES) {
    for (const subj of subjects) {
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

// ---- Payer-level rules -------------------------------------------------------------------------------------------
function payerSubjects(p: PayerSeed, state: string): Subject[] {
  const drugs = PAYER_DRUGS.filter((d) => !pick(`pd:${p.id}:${state}:${d}`, 25)).map((code) => ({ kind: 'drug' as const, code }));
  const services = PAYER_SERVICES.filter((s) => !pick(`ps:${p.id}:${state}:${s}`, 25)).map((code) => ({ kind: 'service' as const, code }));
  return [...drugs, ...services];
}

const PAYER_CAVEAT = 'Payer name is real; the criteria are generic for the class and were not taken from this payer\'s published policy.';

export function payerLevelRules(): CoverageRuleDoc[] {
  const out: CoverageRuleDoc[] = [];
  const byCode = new Map(STATES.map((f) => [f.code, f]));
  for (const p of MCO_PAYERS) {
    const f = byCode.get(p.jurisdictions[0])!;
    for (const subj of payerSubjects(p, f.code)) {
      if (subj.kind === 'drug' && f.pharmacyCarveOut) continue; // pharmacy not administered by the MCO
      const id = `${p.id}.${subj.kind === 'drug' ? 'd' : 's'}.${slug(subj.code)}`;
      const t = template(subj);
      const paType = variantPaType(t, id);
      out.push(rule({
        id, state: f.code, program: 'medicaid_mco', subj, payer: { id: p.id, name: p.name }, paType,
        criteria: `${p.name} (Medicaid MCO), illustrative plan rule. ${t.criteria}`,
        documentation: t.documentation, stepTherapy: t.stepTherapy, quantityLimit: t.quantityLimit,
        submission: paType === 'none' ? { channel: 'none', target: 'No PA request needed' } : { channel: subj.kind === 'drug' ? 'epa' : 'portal', target: `${p.name}: provider portal or the plan's pharmacy PA process` },
        turnaround: noneTurnaround(paType, subj.kind === 'drug' ? TA.medicaidDrug : TA.cms0057),
        source: stateSource(f),
        verification: illustrative(id, [PAYER_CAVEAT, p.caveat].filter(Boolean).join(' '), 0.6),
      }));
    }
  }
  for (const p of NATIONAL_PAYERS) {
    for (const state of p.jurisdictions) {
      for (const subj of payerSubjects(p, state)) {
        const program: Program | undefined = subj.kind === 'service'
          ? (p.programs.includes('medicare_advantage') ? 'medicare_advantage' : undefined)
          : (p.programs.includes('part_d') ? 'part_d' : 'medicare_advantage');
        if (!program) continue;
        const id = `${p.id}.${state.toLowerCase()}.${program === 'part_d' ? 'part-d' : 'ma'}.${subj.kind === 'drug' ? 'd' : 's'}.${slug(subj.code)}`;
        const caveat = `${PAYER_CAVEAT} Plan service areas vary by county; confirm the plan operates in this state.`;
        if (subj.kind === 'drug') {
          const c = partDDrugContent(subj.code as DrugClass, id);
          out.push(rule({
            id, state, program, subj, payer: { id: p.id, name: p.name }, ...c,
            criteria: `${p.name} (${program === 'part_d' ? 'Part D' : 'MA-PD'}), illustrative plan rule. ${c.criteria}`,
            submission: c.paType === 'none' ? { channel: 'none', target: 'No PA request needed' } : { channel: 'epa', target: `${p.name}: Part D coverage determination (ePA or plan portal)` },
            turnaround: noneTurnaround(c.paType, TA.partD),
            verification: c.federalOverride ? c.verification : illustrative(id, caveat, 0.6),
          }));
        } else {
          const sc = subj.code as ServiceCategory;
          const m = MA_SERVICE[sc];
          const t = SERVICE_TEMPLATES[sc];
          const paType = m ? (m.alt && pick(`alt:${id}`, 30) ? m.alt : m.paType) : t.paType;
          out.push(rule({
            id, state, program, subj, payer: { id: p.id, name: p.name }, paType,
            criteria: `${p.name} (MA), illustrative plan rule. ${m?.criteria ?? t.criteria}`,
            documentation: t.documentation,
            submission: paType === 'none' ? { channel: 'none', target: 'No PA request needed' } : { channel: 'portal', target: `${p.name}: Medicare Advantage provider portal` },
            turnaround: noneTurnaround(paType, TA.cms0057),
            source: SRC.cms0057Faq,
            verification: illustrative(id, caveat, 0.6),
          }));
        }
      }
    }
  }
  return out;
}

export { fnv };
