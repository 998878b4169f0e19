// PAS 2.2.1 Claim/$submit: structural validation of the request Bundle, then a response Bundle whose first
// entry is a ClaimResponse with one reviewAction per item, decided by our rules.
//   rule, PA not required  -> A1 (certified in total) + a note that no PA was needed
//   rule, PA required      -> A4 (pended) + the documentation the rule lists
//   subject known, no rule -> A4 (pended for manual review; a data gap is never a denial)
//   no code we can map     -> A4 (pended for manual review) + a note asking for a CPT/HCPCS/RxNorm code:
//                             a code missing from our lists is our data gap, and a data gap is never a denial
import type { ReadModel } from '../corpus/read-model.js';
import type { CoverageRuleDoc } from '../domain/documents.js';
import { CODE_SYSTEMS, PAS_EXT, PAS_PROFILE, PRAUTH_PREAUTH_ID_SYSTEM, REVIEW_ACTION, X12_306, type ReviewActionCode } from '../../fhir-profiles/canonicals.js';
import { isoDate, shortHash, uuidFrom } from './ids.js';
import type { Failure } from './outcome.js';
import type { Bundle, BundleEntry, Claim, ClaimItem, ClaimResponse, ClaimResponseItem, Coverage, Patient, Resource } from './r4.js';
import { bundleLookup, isOrder, orderCodings, resolveCoverageContext, resolveRule, type CoverageContext, type ExplicitHints, type Lookup } from './resolve.js';

export interface PasRequest {
  bundle: Bundle;
  claim: Claim;
  /** FHIRPath prefix of the Claim, for error expressions. */
  claimPath: string;
  lookup: Lookup;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every `reference` string in a resource, with its FHIRPath. */
function references(node: unknown, path: string, out: { path: string; reference: string }[] = []): { path: string; reference: string }[] {
  if (Array.isArray(node)) node.forEach((v, i) => references(v, `${path}[${i}]`, out));
  else if (isObj(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'contained') continue;
      if (k === 'reference' && typeof v === 'string') out.push({ path, reference: v });
      else references(v, `${path}.${k}`, out);
    }
  }
  return out;
}

/** A PAS request Bundle (or a bare Claim, or a Parameters wrapping either) checked for what PAS requires. */
export function parsePasRequest(body: unknown): PasRequest | Failure {
  let input = body;
  if (isObj(input) && input.resourceType === 'Parameters') {
    const inner = ((input.parameter as { resource?: unknown }[] | undefined) ?? []).find((p) => isObj(p.resource))?.resource;
    if (inner) input = inner;
  }
  if (!isObj(input) || typeof input.resourceType !== 'string') {
    return { status: 400, code: 'invalid_body', message: 'Send a PAS request Bundle (or a Claim) as application/fhir+json' };
  }
  if (input.resourceType === 'Claim') {
    const claim = input as unknown as Claim;
    return checkClaim({ resourceType: 'Bundle', type: 'collection', entry: [{ resource: claim }] }, claim, 'Claim', false);
  }
  if (input.resourceType !== 'Bundle') {
    return { status: 400, code: 'invalid_body', message: `Expected a Bundle or a Claim, got ${input.resourceType}`, expression: input.resourceType };
  }
  const bundle = input as unknown as Bundle;
  if (bundle.type !== 'collection') {
    return { status: 400, code: 'invalid_body', message: `A PAS request Bundle has type 'collection' (got '${String(bundle.type)}')`, expression: 'Bundle.type' };
  }
  const first = bundle.entry?.[0]?.resource;
  if (!first || first.resourceType !== 'Claim') {
    return { status: 400, code: 'invalid_body', message: 'The first entry of a PAS request Bundle must be a Claim', expression: 'Bundle.entry[0].resource' };
  }
  return checkClaim(bundle, first as Claim, 'Bundle.entry[0].resource', true);
}

function checkClaim(bundle: Bundle, claim: Claim, at: string, checkRefs: boolean): PasRequest | Failure {
  if (claim.use !== 'preauthorization') {
    return { status: 400, code: 'invalid_body', message: `Claim.use must be 'preauthorization' (got '${String(claim.use)}')`, expression: `${at}.use` };
  }
  for (const field of ['patient', 'insurer', 'provider'] as const) {
    if (!claim[field]) return { status: 400, code: 'invalid_body', message: `Claim.${field} is required`, expression: `${at}.${field}` };
  }
  if (!claim.item?.length) return { status: 400, code: 'invalid_body', message: 'The Claim has no items to review', expression: `${at}.item` };
  const seen = new Set<number>();
  for (const [i, item] of claim.item.entries()) {
    if (!Number.isInteger(item.sequence) || item.sequence < 1 || seen.has(item.sequence)) {
      return { status: 400, code: 'invalid_body', message: 'Every Claim.item needs a unique positive sequence', expression: `${at}.item[${i}].sequence` };
    }
    seen.add(item.sequence);
  }
  const entries = bundle.entry ?? [];
  const lookup = bundleLookup(entries);
  if (checkRefs) {
    for (const [i, e] of entries.entries()) {
      if (!e.resource) return { status: 400, code: 'invalid_body', message: `Bundle.entry[${i}] has no resource`, expression: `Bundle.entry[${i}]` };
      for (const ref of references(e.resource, `Bundle.entry[${i}].resource`)) {
        if (lookup({ reference: ref.reference }, e.resource)) continue;
        return {
          status: 400,
          code: 'invalid_body',
          message: `Referenced resource '${ref.reference}' is not in the Bundle (PAS requires every referenced resource to be included)`,
          expression: `${ref.path}.reference`,
        };
      }
    }
  }
  return { bundle, claim, claimPath: at, lookup };
}

export interface ItemDecision {
  sequence: number;
  action: ReviewActionCode;
  rule?: CoverageRuleDoc;
  notes: string[];
}

function itemCodings(item: ClaimItem, lookup: Lookup, claim: Claim) {
  const requested = (item.extension ?? [])
    .filter((e) => e.url === PAS_EXT.requestedService)
    .map((e) => lookup(e.valueReference, claim))
    .filter(isOrder)
    .flatMap((o) => orderCodings(o, lookup));
  return [...(item.productOrService?.coding ?? []), ...requested];
}

export function decideItems(model: ReadModel, req: PasRequest, cc: { state: string; program: CoverageContext['program'] & string; payer?: CoverageContext['payer'] }): ItemDecision[] {
  return req.claim.item!.map((item) => {
    const res = resolveRule(model, cc, itemCodings(item, req.lookup, req.claim));
    if (res.kind === 'unmapped') {
      const codes = res.codings.map((c) => c.code).filter(Boolean).join(', ') || 'none';
      return { sequence: item.sequence, action: 'A4', notes: [`Pended for manual review: the service codes (${codes}) are not in our CPT/HCPCS/RxNorm code lists, so no rule could be applied automatically. Resubmit with a CPT, HCPCS or RxNorm code for an automated answer.`] };
    }
    if (res.kind === 'no-rule') {
      return { sequence: item.sequence, action: 'A4', notes: [`Pended for manual review: no verified rule yet for ${cc.state} ${cc.program} ${res.subject.kind} '${res.subject.code}'.`] };
    }
    const r = res.rule;
    if (!r.requirement.paRequired) {
      return { sequence: item.sequence, action: 'A1', rule: r, notes: [`Prior authorization is not required (rule ${r.id}; ${r.source.url}). Certified: no review was needed.`] };
    }
    const docs = r.requirement.documentation.length ? r.requirement.documentation : ['Clinical notes supporting medical necessity'];
    return {
      sequence: item.sequence,
      action: 'A4',
      rule: r,
      notes: [`Pended for review under rule ${r.id} (${r.source.url}). Documentation needed: ${docs.join('; ')}.`, ...(r.requirement.criteria ? [`Criteria: ${r.requirement.criteria}`] : [])],
    };
  });
}

/** Claim state and program: query > claim jurisdiction > Coverage > patient address > payer document. */
export function pasCoverageContext(model: ReadModel, req: PasRequest, hints: ExplicitHints, today: string): CoverageContext {
  const focal = req.claim.insurance?.find((i) => i.focal) ?? req.claim.insurance?.[0];
  const coverage = req.lookup(focal?.coverage, req.claim) as Coverage | undefined;
  const patient = req.lookup(req.claim.patient, req.claim) as Patient | undefined;
  const jurisdiction = (req.claim.identifier ?? [])
    .flatMap((i) => i.extension ?? [])
    .find((e) => e.url === PAS_EXT.identifierJurisdiction)
    ?.valueCodeableConcept?.coding?.find((c) => c.system === CODE_SYSTEMS.usps)?.code;
  return resolveCoverageContext(model, { coverage: coverage?.resourceType === 'Coverage' ? coverage : undefined, patient, jurisdiction, hints, lookup: req.lookup, today });
}

export function toPasResponse(req: PasRequest, decisions: ItemDecision[], now: Date): Bundle {
  const claim = req.claim;
  const seed = JSON.stringify([req.bundle.identifier ?? null, claim.identifier ?? null, claim.id ?? null, claim.created ?? null, decisions.map((d) => [d.sequence, d.action])]);
  const preAuthRef = `PA-${shortHash(seed, 10).toUpperCase()}`;
  const notes: NonNullable<ClaimResponse['processNote']> = [];
  const items: ClaimResponseItem[] = decisions.map((d) => {
    const noteNumber = d.notes.map((text) => {
      notes.push({ number: notes.length + 1, type: 'display', text });
      return notes.length;
    });
    return {
      ...(d.action === 'A1' ? { extension: [{ url: PAS_EXT.itemPreAuthIssueDate, valueDate: isoDate(now) }] } : {}),
      itemSequence: d.sequence,
      noteNumber,
      adjudication: [
        {
          category: { coding: [{ system: CODE_SYSTEMS.adjudication, code: 'submitted' }] },
          extension: [
            {
              url: PAS_EXT.reviewAction,
              extension: [
                { url: PAS_EXT.reviewActionCode, valueCodeableConcept: { coding: [{ system: X12_306, code: d.action, display: REVIEW_ACTION[d.action] }] } },
                { url: 'number', valueString: `${preAuthRef}-${d.sequence}` },
              ],
            },
          ],
        },
      ],
    };
  });
  const claimEntry = req.bundle.entry?.[0];
  const crId = uuidFrom(`ClaimResponse|${seed}`);
  const response: ClaimResponse = {
    resourceType: 'ClaimResponse',
    id: crId,
    meta: { profile: [PAS_PROFILE.claimResponse] },
    identifier: [{ system: PRAUTH_PREAUTH_ID_SYSTEM, value: preAuthRef }],
    status: 'active',
    type: claim.type ?? { coding: [{ system: CODE_SYSTEMS.claimType, code: 'professional' }] },
    use: 'preauthorization',
    patient: claim.patient!,
    created: now.toISOString(),
    insurer: claim.insurer!,
    requestor: claim.provider,
    request: claimEntry?.fullUrl ? { reference: claimEntry.fullUrl } : claim.id ? { reference: `Claim/${claim.id}` } : { display: 'The submitted Claim (no id)' },
    outcome: decisions.some((d) => d.action === 'A4') ? 'queued' : 'complete',
    preAuthRef,
    item: items,
    processNote: notes,
  };
  // The response Bundle carries the resources the ClaimResponse points at (patient, insurer, requestor).
  const carried: BundleEntry[] = [];
  for (const ref of [claim.patient, claim.insurer, claim.provider]) {
    const r = req.lookup(ref, claim);
    if (!r || carried.some((e) => e.resource === r)) continue;
    const original = req.bundle.entry?.find((e) => e.resource === r);
    carried.push({ fullUrl: original?.fullUrl ?? `urn:uuid:${uuidFrom(`${r.resourceType}/${r.id}`)}`, resource: r as Resource });
  }
  return {
    resourceType: 'Bundle',
    id: uuidFrom(`Bundle|${seed}`),
    meta: { profile: [PAS_PROFILE.responseBundle] },
    identifier: req.bundle.identifier ?? { system: PRAUTH_PREAUTH_ID_SYSTEM, value: preAuthRef },
    type: 'collection',
    timestamp: now.toISOString(),
    entry: [{ fullUrl: `urn:uuid:${crId}`, resource: response }, ...carried],
  };
}
