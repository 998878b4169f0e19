// PAS 2.2.1 Claim/$submit and $inquire, the pure parts: structural checks of the request Bundle, item decisions from
// our rules, and the response projections. State (stored submissions, decision history, clocks) lives in
// src/services/pas/; this module has no store and no clock of its own.
// This file: the request (parse and structural checks, what it points at, its coverage context and priority).
import type { ReadModel } from '../../corpus/read-model.js';
import { CODE_SYSTEMS, PAS_EXT, X12_1322 } from '../../../fhir-profiles/canonicals.js';
import type { Failure } from '../outcome.js';
import type { Bundle, Claim, ClaimItem, Coverage, Extension, Patient } from '../r4.js';
import { bundleLookup, type Lookup } from '../resolve/lookup.js';
import { resolveCoverageContext, type CoverageContext, type ExplicitHints } from '../resolve/coverage-context.js';
import { isRecord } from '../../domain/json.js';
import { isFhirDateTime } from '../../domain/time.js';

/** R4 Claim.status (FinancialResourceStatusCodes, a required binding). */
const CLAIM_STATUSES: readonly string[] = ['active', 'cancelled', 'draft', 'entered-in-error'];

export interface PasRequest {
  bundle: Bundle;
  claim: Claim;
  /** FHIRPath prefix of the Claim, for error expressions. */
  claimPath: string;
  lookup: Lookup;
}


/** A PAS request Bundle (or a bare Claim, or a Parameters wrapping either) checked for what PAS requires. */
export function parsePasRequest(body: unknown): PasRequest | Failure {
  let input = body;
  if (isRecord(input) && input.resourceType === 'Parameters') {
    const inner = ((input.parameter as { resource?: unknown }[] | undefined) ?? []).find((p) => isRecord(p.resource))?.resource;
    if (inner) input = inner;
  }
  if (!isRecord(input) || typeof input.resourceType !== 'string') {
    return { status: 400, code: 'invalid_body', message: 'Send a PAS request Bundle (or a Claim) as application/fhir+json' };
  }
  if (input.resourceType === 'Claim') {
    const claim = input as unknown as Claim;
    return checkClaim({ resourceType: 'Bundle', type: 'collection', entry: [{ resource: claim }] }, claim, 'Claim');
  }
  if (input.resourceType !== 'Bundle') {
    return { status: 400, code: 'invalid_body', message: `Expected a Bundle or a Claim, got ${input.resourceType}`, expression: input.resourceType };
  }
  const bundle = input as unknown as Bundle;
  if (bundle.type !== 'collection') {
    return { status: 400, code: 'invalid_body', message: `A PAS request Bundle has type 'collection' (got '${String(bundle.type)}')`, expression: 'Bundle.type' };
  }
  if (!Array.isArray(bundle.entry)) return { status: 400, code: 'invalid_body', message: 'A PAS request Bundle needs entries, the first one a Claim', expression: 'Bundle.entry' };
  const first = bundle.entry[0]?.resource;
  if (!first || first.resourceType !== 'Claim') {
    return { status: 400, code: 'invalid_body', message: 'The first entry of a PAS request Bundle must be a Claim', expression: 'Bundle.entry[0].resource' };
  }
  return checkClaim(bundle, first as Claim, 'Bundle.entry[0].resource');
}

/**
 * What the PAS operations cannot do without: use=preauthorization, the patient, the insurer (or a focal Coverage
 * naming its payor) and the provider, and items with unique sequences. A reference that resolves nowhere in the
 * Bundle is not refused: PAS asks submitters to include what they reference, but a decision does not need every
 * resource (an update's prior Claim is left out by design; PAS 2.2.1), and what is read and absent is said in the
 * answer (no Coverage, state or program unknown).
 */
function checkClaim(bundle: Bundle, claim: Claim, at: string): PasRequest | Failure {
  if (claim.use !== 'preauthorization') {
    return { status: 400, code: 'invalid_body', message: `Claim.use must be 'preauthorization' (got '${String(claim.use)}')`, expression: `${at}.use` };
  }
  // Stored and echoed as sent, so checked as R4 Claim states them (status 1..1, required binding; created 1..1).
  const got = (v: unknown): string => (v === undefined ? 'it is missing' : `got '${String(v).slice(0, 40)}'`);
  if (!CLAIM_STATUSES.includes(claim.status as string)) {
    return { status: 400, code: 'invalid_body', message: `Claim.status must be one of ${CLAIM_STATUSES.join(', ')} (${got(claim.status)})`, expression: `${at}.status` };
  }
  if (!isFhirDateTime(claim.created)) {
    return { status: 400, code: 'invalid_body', message: `Claim.created must be a FHIR dateTime, a real date (${got(claim.created)})`, expression: `${at}.created` };
  }
  const entries = bundle.entry ?? [];
  const lookup = bundleLookup(entries);
  // The insurer is who answers: a Claim that does not name it (the PAS reference implementation's test claims) is
  // answered for the payer of its focal Coverage.
  if (!isRecord(claim.insurer)) {
    const focal = Array.isArray(claim.insurance) ? (claim.insurance.find((i) => i?.focal) ?? claim.insurance[0]) : undefined;
    const coverage = lookup(focal?.coverage, claim) as Coverage | undefined;
    const payor = coverage?.resourceType === 'Coverage' && Array.isArray(coverage.payor) ? coverage.payor.find(isRecord) : undefined;
    if (payor) claim.insurer = { ...payor };
  }
  for (const field of ['patient', 'insurer', 'provider'] as const) {
    if (!isRecord(claim[field])) {
      const why = field === 'insurer' ? 'Claim.insurer is required (or a focal Coverage in the Bundle naming its payor)' : `Claim.${field} is required`;
      return { status: 400, code: 'invalid_body', message: why, expression: `${at}.${field}` };
    }
  }
  if (!Array.isArray(claim.item) || !claim.item.length) return { status: 400, code: 'invalid_body', message: 'The Claim has no items to review', expression: `${at}.item` };
  const seen = new Set<number>();
  for (const [i, item] of claim.item.entries()) {
    if (!isRecord(item) || !Number.isInteger(item.sequence) || item.sequence < 1 || seen.has(item.sequence)) {
      return { status: 400, code: 'invalid_body', message: 'Every Claim.item needs a unique positive sequence', expression: `${at}.item[${i}].sequence` };
    }
    seen.add(item.sequence);
  }
  return { bundle, claim, claimPath: at, lookup };
}

// ---- updates and cancellations (PAS 2.2.1: related.claim, certificationType, infoCancelled) ----

const codeOf = (exts: Extension[] | undefined, url: string): string | undefined =>
  exts?.find((e) => e.url === url)?.valueCodeableConcept?.coding?.find((c) => c.system === X12_1322 || !c.system)?.code;

/** The prior request an update points at: its preAuthRef (identifier value) and/or a reference string. */
export function priorOf(claim: Claim): { identifiers: string[]; reference?: string } | undefined {
  const rel = (claim.related ?? []).find((r) => r.claim);
  if (!rel?.claim) return undefined;
  const identifiers = [rel.claim.identifier?.value].filter((v): v is string => !!v);
  return { identifiers, ...(rel.claim.reference ? { reference: rel.claim.reference } : {}) };
}

/** The whole request is cancelled (Claim-level certificationType 3). */
export const claimCancelled = (claim: Claim): boolean => codeOf(claim.extension, PAS_EXT.certificationType) === '3';

/** An item is cancelled by the infoCancelled modifier extension or certificationType 3. */
export function itemCancelled(item: ClaimItem): boolean {
  if ((item.modifierExtension ?? []).some((e) => e.url === PAS_EXT.infoCancelled && e.valueBoolean === true)) return true;
  return codeOf(item.extension, PAS_EXT.certificationType) === '3';
}

// ---- item decisions ----


/** Claim state and program: query > claim jurisdiction > Coverage > patient address > payer document. */
export function pasCoverageContext(model: ReadModel, req: PasRequest, hints: ExplicitHints, today: string, fallback?: ExplicitHints): CoverageContext {
  const focal = req.claim.insurance?.find((i) => i.focal) ?? req.claim.insurance?.[0];
  const coverage = req.lookup(focal?.coverage, req.claim) as Coverage | undefined;
  const patient = req.lookup(req.claim.patient, req.claim) as Patient | undefined;
  const jurisdiction = (req.claim.identifier ?? [])
    .flatMap((i) => i.extension ?? [])
    .find((e) => e.url === PAS_EXT.identifierJurisdiction)
    ?.valueCodeableConcept?.coding?.find((c) => c.system === CODE_SYSTEMS.usps)?.code;
  return resolveCoverageContext(model, { coverage: coverage?.resourceType === 'Coverage' ? coverage : undefined, patient, jurisdiction, hints, lookup: req.lookup, today, ...(fallback ? { fallback } : {}) });
}

/** The focal Coverage of the request, when the Bundle carries it. */
export function focalCoverage(req: PasRequest): Coverage | undefined {
  const focal = req.claim.insurance?.find((i) => i.focal) ?? req.claim.insurance?.[0];
  const c = req.lookup(focal?.coverage, req.claim);
  return c?.resourceType === 'Coverage' ? c : undefined;
}

/** Expedited when the Claim's priority is `stat` (processpriority); `normal` and `deferred` run the standard clock. */
export const isExpedited = (claim: Claim): boolean => (claim.priority?.coding ?? []).some((c) => c.code === 'stat');
