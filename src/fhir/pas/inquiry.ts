// PAS 2.2.1 $inquire, the pure parts: the inquiry request Bundle checked, and the keys a stored request is matched
// on (PAS matches on the member / subscriber id plus the provider, or the request's own identifiers).
import type { Failure } from '../outcome.js';
import type { Bundle, Claim, Coverage, Organization, Parameters, Patient, Practitioner, PractitionerRole, Resource } from '../r4.js';
import { bundleLookup } from '../resolve/lookup.js';
import { focalCoverage, type PasRequest } from './request.js';
import { isRecord } from '../../domain/json.js';


/** A PAS inquiry request Bundle (first entry a Claim naming the patient, the insurer and the provider). */
export function parseInquiry(body: unknown): PasRequest | Failure {
  let input = body;
  if (isRecord(input) && input.resourceType === 'Parameters') {
    const inner = ((input.parameter as { resource?: unknown }[] | undefined) ?? []).find((p) => isRecord(p.resource))?.resource;
    if (inner) input = inner;
  }
  if (!isRecord(input) || input.resourceType !== 'Bundle') {
    return { status: 400, code: 'invalid_body', message: 'Send a PAS inquiry request Bundle (first entry a Claim) as application/fhir+json', expression: 'Bundle' };
  }
  const bundle = input as unknown as Bundle;
  if (!Array.isArray(bundle.entry) || bundle.entry[0]?.resource?.resourceType !== 'Claim') {
    return { status: 400, code: 'invalid_body', message: 'The first entry of a PAS inquiry Bundle must be a Claim', expression: 'Bundle.entry[0].resource' };
  }
  const claim = bundle.entry[0].resource as Claim;
  for (const field of ['patient', 'insurer', 'provider'] as const) {
    if (!isRecord(claim[field])) return { status: 400, code: 'invalid_body', message: `The inquiry Claim must name the ${field}`, expression: `Bundle.entry[0].resource.${field}` };
  }
  // A reference that resolves nowhere in the Bundle is not refused: the inquiry still matches on what it carries.
  const lookup = bundleLookup(bundle.entry);
  return { bundle, claim, claimPath: 'Bundle.entry[0].resource', lookup };
}

export interface MatchKeys {
  /** Claim.identifier values and the Bundle identifier value. */
  claimIdentifiers: string[];
  /** Patient identifiers, Coverage.subscriberId and Coverage identifiers. */
  memberIds: string[];
  /** Identifiers (NPI and others) of the provider: the Organization, or the PractitionerRole with its practitioner and organization. */
  providerIds: string[];
  /** `system|code` of each item's productOrService (X12 `not-applicable` means any). */
  itemCodes: string[];
}

const values = (ids: { value?: string }[] | undefined): string[] => (ids ?? []).map((i) => i.value).filter((v): v is string => !!v);

/** The keys a request (a submission or an inquiry) is matched on. */
export function matchKeys(req: PasRequest): MatchKeys {
  const { claim, lookup } = req;
  const patient = lookup(claim.patient, claim) as Patient | undefined;
  const coverage: Coverage | undefined = focalCoverage(req);
  const provider = lookup(claim.provider, claim) as (Organization | PractitionerRole | Practitioner | Resource) | undefined;
  const providerIds = [...values((provider as Organization | undefined)?.identifier), ...(claim.provider?.identifier?.value ? [claim.provider.identifier.value] : [])];
  if (provider?.resourceType === 'PractitionerRole') {
    const role = provider as PractitionerRole;
    providerIds.push(...values((lookup(role.practitioner, role) as Practitioner | undefined)?.identifier), ...values((lookup(role.organization, role) as Organization | undefined)?.identifier));
  }
  return {
    claimIdentifiers: [...values(claim.identifier), ...(req.bundle.identifier?.value ? [req.bundle.identifier.value] : [])],
    memberIds: [...values(patient?.identifier), ...(coverage?.subscriberId ? [coverage.subscriberId] : []), ...values(coverage?.identifier)],
    providerIds: [...new Set(providerIds)],
    itemCodes: (claim.item ?? []).flatMap((i) => (i.productOrService?.coding ?? []).map((c) => `${c.system ?? ''}|${c.code ?? ''}`)),
  };
}

/** Identifier values of the requesting organization (the Subscription filter `org-identifier`). */
export function requestorOrgIdentifiers(req: PasRequest): string[] {
  const provider = req.lookup(req.claim.provider, req.claim);
  if (provider?.resourceType === 'Organization') return values((provider as Organization).identifier);
  if (provider?.resourceType === 'PractitionerRole') {
    const role = provider as PractitionerRole;
    return values((req.lookup(role.organization, role) as Organization | undefined)?.identifier);
  }
  return values(req.claim.provider?.identifier ? [req.claim.provider.identifier] : []);
}

/** $inquire output: Parameters with one `return` Bundle per match (the OperationDefinition's output name). */
export const toInquiryParameters = (bundles: Bundle[]): Parameters => ({
  resourceType: 'Parameters',
  ...(bundles.length ? { parameter: bundles.map((b) => ({ name: 'return', resource: b })) } : {}),
});
