// Id and canonical helpers shared by the FHIR projections.
import { createHash } from 'node:crypto';
import type { CoverageRuleDoc } from '../domain/documents.js';

/** A FHIR id ([A-Za-z0-9.-]{1,64}) from our vocabulary (underscores become hyphens). */
export const fhirId = (...parts: string[]): string =>
  parts.join('-').toLowerCase().replace(/[^a-z0-9.-]/g, '-').slice(0, 64);

/**
 * A FHIR id that stays unique when the parts are long: the joined form when it fits in 64 characters, else its
 * first 51 characters, a hyphen and 12 hex characters of the SHA-256 of the whole joined form (stable: same parts,
 * same id). Distinct parts never share an id unless the hash collides (2^-48).
 */
export const safeId = (...parts: string[]): string => {
  const joined = parts.join('-').toLowerCase().replace(/[^a-z0-9.-]/g, '-');
  return joined.length <= 64 ? joined : `${joined.slice(0, 51)}-${shortHash(joined, 12)}`;
};


/** Stable short hash for ids derived from content (same input, same id). */
export const shortHash = (s: string, len = 12): string => createHash('sha256').update(s).digest('hex').slice(0, len);

/** meta.lastUpdated of a rule: when it was last written, else its verification date. */
export const ruleLastUpdated = (r: CoverageRuleDoc): string => r.meta?.lastUpdated ?? `${r.verification.lastVerified}T00:00:00Z`;

/** The canonical of the DTR Questionnaire for a rule's subject (the DTR GET endpoint serves it). */
export const questionnaireUrl = (base: string, r: Pick<CoverageRuleDoc, 'jurisdiction' | 'program' | 'subject'>): string =>
  `${base}/v1/dtr/questionnaire/${r.jurisdiction}/${r.program}/${r.subject.code}`;

/** Questionnaire.version: the rule's stored version when known, else its verification date. */
export const questionnaireVersion = (r: CoverageRuleDoc): string => r.meta?.versionId ?? r.verification.lastVerified;

/** A UUID-shaped value derived from content, for `urn:uuid:` fullUrls that must be stable across calls. */
export const uuidFrom = (seed: string): string => {
  const h = shortHash(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
