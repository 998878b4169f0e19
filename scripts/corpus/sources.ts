// Official source addresses used by the sample corpus, and the verification helpers.
// Every URL is an official agency, regulation, Federal Register or Medicare contractor address; each one and the
// facts taken from it are listed in fixtures/README.md (SOURCE_NOTES below). Statute and regulation text is cited
// from ecfr.gov, govinfo.gov or ssa.gov only, never from a mirror.
import type { Verification } from '../../src/domain/documents.js';

export const COMPILED_ON = '2026-11-21';

export interface Source {
  url: string;
  title: string;
  publisher: string;
}

export const SRC = {
  cmsPaInitiatives: {
    url: 'https://www.cms.gov/data-research/monitoring-programs/medicare-fee-service-compliance-programs/prior-authorization-and-pre-claim-review-initiatives',
    title: 'Prior Authorization and Pre-Claim Review Initiatives',
    publisher: 'CMS',
  },
  cms0057Faq: {
    url: 'https://www.cms.gov/priorities/burden-reduction/overview/interoperability/frequently-asked-questions/prior-authorization-api',
    title: 'CMS-0057-F Prior Authorization API FAQ',
    publisher: 'CMS',
  },
  ecfr41983: {
    url: 'https://www.ecfr.gov/current/title-42/section-419.83',
    title: '42 CFR 419.83 - List of hospital outpatient department services requiring prior authorization',
    publisher: 'eCFR',
  },
  ecfr423568: {
    url: 'https://www.ecfr.gov/current/title-42/section-423.568',
    title: '42 CFR 423.568 (Part D coverage determinations: timeframes)',
    publisher: 'eCFR',
  },
  ecfr423120: {
    url: 'https://www.ecfr.gov/current/title-42/section-423.120',
    title: '42 CFR 423.120 - Access to covered Part D drugs (formularies); the framework, not the source of sample criteria',
    publisher: 'eCFR',
  },
  ecfr422138: {
    url: 'https://www.ecfr.gov/current/title-42/section-422.138',
    title: '42 CFR 422.138 - Prior authorization in Medicare Advantage; the framework, not the source of sample criteria',
    publisher: 'eCFR',
  },
  ecfr438210: {
    url: 'https://www.ecfr.gov/current/title-42/section-438.210',
    title: '42 CFR 438.210 - Coverage and authorization of services (Medicaid managed care)',
    publisher: 'eCFR',
  },
  cms4180F: {
    url: 'https://www.govinfo.gov/content/pkg/FR-2019-05-23/html/2019-10521.htm',
    title: 'CMS-4180-F, Modernizing Part D and Medicare Advantage To Lower Drug Prices and Reduce Out-of-Pocket Expenses (84 FR 23832, 2019-05-23)',
    publisher: 'Federal Register (govinfo.gov)',
  },
  ssa1927: {
    url: 'https://www.ssa.gov/OP_Home/ssact/title19/1927.htm',
    title: 'Social Security Act 1927 - Payment for covered outpatient drugs (PA answered within 24 hours: (d)(5); weight-loss agents: (d)(2)(A))',
    publisher: 'Social Security Administration',
  },
  partBId: {
    url: 'https://www.cms.gov/partbid-provider',
    title: 'Medicare Part B Immunosuppressive Drug Benefit (Part B-ID)',
    publisher: 'CMS',
  },
  glp1Bridge: {
    url: 'https://www.cms.gov/medicare/coverage/prescription-drug-coverage/medicare-glp-1-bridge',
    title: 'Medicare GLP-1 Bridge',
    publisher: 'CMS',
  },
  wiserCms: {
    url: 'https://www.cms.gov/priorities/innovation/innovation-models/wiser',
    title: 'WISeR (Wasteful and Inappropriate Service Reduction) Model',
    publisher: 'CMS Innovation Center',
  },
  wiserNoridianJf: {
    url: 'https://med.noridianmedicare.com/web/jfa/cert-reviews/pre-claim/wiser-model',
    title: 'WISeR Model - Arizona and Washington Providers and Suppliers',
    publisher: 'Noridian Healthcare Solutions (A/B MAC Jurisdiction F)',
  },
  wiserCgs: {
    url: 'https://www.cgsmedicare.com/partb/pa/wiser.html',
    title: 'Wasteful and Inappropriate Service Reduction (WISeR) Model',
    publisher: 'CGS Administrators, LLC (A/B MAC Jurisdiction 15)',
  },
  dmeOrthosesNoridian: {
    url: 'https://med.noridianmedicare.com/web/jddme/cert-reviews/mr/pre-claim/required-programs/prior-authorization-for-orthoses',
    title: 'Prior Authorization for Orthoses (DME MAC Jurisdiction D)',
    publisher: 'Noridian Healthcare Solutions (DME MAC)',
  },
  dmePcdCgs: {
    url: 'https://www.cgsmedicare.com/jc/pa/pneumatic-comp-devices.html',
    title: 'Pneumatic Compression Devices: prior authorization (DME MAC Jurisdiction C)',
    publisher: 'CGS Administrators, LLC (DME MAC)',
  },
  cgsTimeframes2025: 'https://cgsmedicare.com/partb/pubs/news/2024/12/cope168401.html',
  fr202607205: 'https://www.federalregister.gov/d/2026-07205',
} as const satisfies Record<string, Source | string>;

/** Where each fact in the corpus comes from; printed in fixtures/README.md. */
export const SOURCE_NOTES: readonly { fact: string; url: string; status: 'confirmed' | 'partly confirmed' | 'not confirmed' }[] = [
  { fact: 'Hospital OPD services needing PA and their start dates (2020-07-01, 2021-07-01, 2023-07-01)', url: SRC.ecfr41983.url, status: 'confirmed' },
  { fact: 'OPD and DMEPOS PA: 7 calendar days standard from 2025-01-01; RSNAT expedited review removed', url: SRC.cgsTimeframes2025, status: 'confirmed' },
  { fact: 'DMEPOS Required PA List (power mobility, support surfaces, lower limb prostheses, orthoses; 2024-08-12 changes; osteogenesis stimulators suspended 2024-08-28)', url: SRC.cmsPaInitiatives.url, status: 'confirmed' },
  { fact: 'CMS-6097-N (FR 2026-01-13), effective 2026-04-13: orthoses L0651, L1844, L1846, L1852, L1932 added to the Required PA List; requests accepted from 2026-03-30; 5 business days (not over 7 calendar days), expedited 2 business days, valid 60 days', url: SRC.dmeOrthosesNoridian.url, status: 'confirmed' },
  { fact: 'CMS-6097-N, effective 2026-04-13: pneumatic compression devices E0651, E0652 added to the Required PA List', url: SRC.dmePcdCgs.url, status: 'confirmed' },
  { fact: 'DME MAC jurisdictions by state (A and D: Noridian; B and C: CGS), from the contractor table of LCD L33829 (Pneumatic Compression Devices), read from a copy of the LCD', url: 'https://www.cms.gov/medicare-coverage-database/view/lcd.aspx?lcdid=33829', status: 'partly confirmed' },
  { fact: 'RSNAT prior authorization (first 3 round trips exempt; SSA 1834(l)(16)); the date it became nationwide is not stated', url: SRC.cmsPaInitiatives.url, status: 'partly confirmed' },
  { fact: 'WISeR: Original Medicare, 2026-01-01 to 2031-12-31, NJ, OH, OK, TX, AZ, WA', url: SRC.wiserCms.url, status: 'confirmed' },
  { fact: 'WISeR in Arizona (Zyter|TruCare) and Washington (Virtix Health), A/B MAC Noridian (JF)', url: SRC.wiserNoridianJf.url, status: 'confirmed' },
  { fact: 'WISeR in Ohio: Innovaccer is the participant assigned to Ohio; CGS (A/B MAC J15) suspends claims without PA and forwards them to it', url: SRC.wiserCgs.url, status: 'confirmed' },
  { fact: 'WISeR in New Jersey (Genzeon, Novitas JL), Texas (Cohere Health, Novitas JH) and Oklahoma (Humata Health): participant pages and press, not a CMS or MAC page', url: SRC.wiserCms.url, status: 'not confirmed' },
  { fact: 'Part D protected classes; PA and step therapy allowed for new starts in five classes; antiretrovirals excluded; effective 2020-01-01', url: SRC.cms4180F.url, status: 'confirmed' },
  { fact: 'Part D coverage determinations: 72 h standard, 24 h expedited (42 CFR 423.568 / 423.572)', url: SRC.ecfr423568.url, status: 'confirmed' },
  { fact: 'Medicaid covered outpatient drugs: PA answered within 24 hours (SSA 1927(d)(5)); weight-loss agents may be excluded ((d)(2)(A))', url: SRC.ssa1927.url, status: 'confirmed' },
  { fact: 'CMS-0057-F timeframes (7 calendar days / 72 h from 2026-01-01) exclude drugs', url: SRC.cms0057Faq.url, status: 'confirmed' },
  { fact: 'Medicaid managed care: services no less in amount, duration and scope than FFS; utilization controls allowed (42 CFR 438.210)', url: SRC.ecfr438210.url, status: 'confirmed' },
  { fact: 'Medicare Advantage PA is limited to confirming diagnoses or medical criteria and medical necessity (42 CFR 422.138(b))', url: SRC.ecfr422138.url, status: 'partly confirmed' },
  { fact: 'Medicare GLP-1 Bridge: CMS demonstration 2026-07-01 to 2027-12-31, outside the Part D benefit, PA through one CMS central processor', url: SRC.glp1Bridge.url, status: 'confirmed' },
  { fact: 'Immunosuppressive drugs: Part B-ID for kidney recipients whose ESRD Medicare ends 36 months after the transplant; Part B after a Medicare-covered transplant, Part D otherwise', url: SRC.partBId.url, status: 'partly confirmed' },
  { fact: 'CMS-0062-P (FR doc 2026-07205) proposed drug PA clocks and dates', url: SRC.fr202607205, status: 'confirmed' },
];

export const ILLUSTRATIVE_CAVEAT = 'Illustrative sample rule; confirm against the source before use';

/** Facts recorded from memory or not confirmed lower a rule to this confidence at most. */
export const UNCONFIRMED_CAP = 0.45;
const UNCONFIRMED = /from memory|\[M\]|not confirmed/i;

/** An illustrative (sample) rule: fixed confidence, lowered when any part rests on an unconfirmed fact. */
export function illustrative(extraCaveat?: string, confidence = 0.6): Verification {
  const caveat = extraCaveat ? `${ILLUSTRATIVE_CAVEAT}. ${extraCaveat}` : ILLUSTRATIVE_CAVEAT;
  return {
    status: 'sample',
    lastVerified: COMPILED_ON,
    confidence: UNCONFIRMED.test(caveat) ? Math.min(confidence, UNCONFIRMED_CAP) : confidence,
    by: 'sample-curation',
    method: 'illustrative-sample',
    caveat,
  };
}

/** A rule every claim of which rests on the cited official source (status verified). */
export function federalFact(confidence: number, caveat?: string): Verification {
  if (caveat && UNCONFIRMED.test(caveat)) throw new Error(`a verified rule cannot rest on an unconfirmed fact: ${caveat}`);
  const v: Verification = { status: 'verified', lastVerified: COMPILED_ON, confidence, by: 'sample-curation', method: 'public-federal-list' };
  if (caveat) v.caveat = caveat;
  return v;
}

/** A federal fact only partly confirmed (or derived): served as sample, confidence capped when unconfirmed. */
export function partlyConfirmed(confidence: number, caveat: string, method = 'public-federal-list'): Verification {
  return {
    status: 'sample',
    lastVerified: COMPILED_ON,
    confidence: UNCONFIRMED.test(caveat) ? Math.min(confidence, UNCONFIRMED_CAP) : confidence,
    by: 'sample-curation',
    method,
    caveat,
  };
}
