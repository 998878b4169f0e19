// Official source addresses used by the sample corpus, and the shared helpers (deterministic hash, verification).
// Every URL here is an official agency, regulation or contractor address named in reference/regulatory-facts.md
// or a well-known official home page. No deep links were guessed.
import type { Verification } from '../../src/domain/documents.js';

export const COMPILED_ON = '2026-11-21';

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
    title: '42 CFR 423.568 (Part D coverage determinations)',
    publisher: 'eCFR',
  },
  usc1395w104: {
    url: 'https://www.law.cornell.edu/uscode/text/42/1395w-104',
    title: '42 U.S. Code 1395w-104 - Beneficiary protections for qualified prescription drug coverage',
    publisher: 'Legal Information Institute, Cornell Law School',
  },
  wiser: {
    url: 'https://www.cgsmedicare.com/parta/pa/wiser.html',
    title: 'Wasteful and Inappropriate Service Reduction (WISeR) Model',
    publisher: 'CGS Administrators, LLC (Medicare Administrative Contractor)',
  },
  cgsTimeframes2025: 'https://cgsmedicare.com/partb/pubs/news/2024/12/cope168401.html',
  fr202607205: 'https://www.federalregister.gov/d/2026-07205',
} as const;

/** FNV-1a 32-bit: the only source of "randomness" in the generator, so every run writes the same bytes. */
export function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** True for roughly `percent`% of keys, deterministically. */
export const pick = (key: string, percent: number): boolean => fnv(key) % 1000 < percent * 10;

export const ILLUSTRATIVE_CAVEAT = 'Illustrative sample rule; confirm against the source before use';

export function illustrative(key: string, extraCaveat?: string, cap?: number): Verification {
  let confidence = 0.5 + (fnv(`conf:${key}`) % 21) / 100;
  if (cap !== undefined) confidence = Math.min(confidence, cap);
  return {
    status: 'verified',
    lastVerified: COMPILED_ON,
    confidence: Math.round(confidence * 100) / 100,
    by: 'sample-curation',
    method: 'illustrative-sample',
    caveat: extraCaveat ? `${ILLUSTRATIVE_CAVEAT}. ${extraCaveat}` : ILLUSTRATIVE_CAVEAT,
  };
}

export function federalFact(confidence: number, caveat?: string): Verification {
  const v: Verification = {
    status: 'verified',
    lastVerified: COMPILED_ON,
    confidence,
    by: 'sample-curation',
    method: 'public-federal-list',
  };
  if (caveat) v.caveat = caveat;
  return v;
}
