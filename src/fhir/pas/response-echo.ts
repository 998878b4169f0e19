// What a PAS ClaimResponse can say from the request itself, truthfully: the request's identifiers and each item's
// trace numbers, previous authorization number, requested service date and diagnoses echoed back (the X12 278
// response echoes them the same way), what a certified-in-total item authorizes (the item as requested, by the
// provider who requested it), and the resources the response points at, carried from the request Bundle.
// Nothing here is invented: an element the request does not carry is left out.
import { PAS_EXT } from '../../../fhir-profiles/canonicals.js';
import type { Bundle, BundleEntry, Claim, ClaimItem, Extension, Identifier, Reference, Resource } from '../r4.js';
import { uuidFrom } from '../ids.js';
import type { Lookup } from '../resolve/lookup.js';
import { recordsOf } from '../../domain/json.js';

/** Extensions PAS defines on the request item that the response item carries under the same url. */
const ECHOED_ITEM_EXTENSIONS = [PAS_EXT.itemTraceNumber, PAS_EXT.authorizationNumber] as const;

/** The Claim's identifiers (with their jurisdiction and sub-department extensions) as the response's. */
export const echoedIdentifiers = (claim: Claim): Identifier[] => (Array.isArray(claim.identifier) ? claim.identifier.filter((i) => i && typeof i.value === 'string' && typeof i.system === 'string') : []);

/** The request item with this sequence. */
export const requestItem = (claim: Claim, sequence: number): ClaimItem | undefined => recordsOf<ClaimItem>(claim.item).find((i) => i.sequence === sequence);

/** Item extensions echoed from the request: trace numbers, previous authorization number, requested service date, diagnoses. */
export function echoedItemExtensions(claim: Claim, item: ClaimItem | undefined): Extension[] {
  if (!item) return [];
  const out: Extension[] = recordsOf<Extension>(item.extension).filter((e) => (ECHOED_ITEM_EXTENSIONS as readonly string[]).includes(e.url)).map((e) => ({ ...e }));
  if (item.servicedPeriod) out.push({ url: PAS_EXT.itemRequestedServiceDate, valuePeriod: item.servicedPeriod });
  else if (item.servicedDate) out.push({ url: PAS_EXT.itemRequestedServiceDate, valueDateTime: item.servicedDate });
  for (const seq of item.diagnosisSequence ?? []) {
    const dx = recordsOf<NonNullable<Claim['diagnosis']>[number]>(claim.diagnosis).find((d) => d.sequence === seq)?.diagnosisCodeableConcept;
    if (dx) out.push({ url: PAS_EXT.communicatedDiagnosis, valueCodeableConcept: dx });
  }
  return out;
}

/**
 * A1 (certified in total) authorizes the item as requested: its code, first modifier, unit price and quantity, and
 * the providers the request names for it (careTeam members of the item, else the Claim's provider).
 */
export function authorizedExtensions(claim: Claim, item: ClaimItem | undefined): Extension[] {
  if (!item) return [];
  const detail: Extension[] = [];
  if (item.productOrService) detail.push({ url: 'productOrServiceCode', valueCodeableConcept: item.productOrService });
  if (item.modifier?.[0]) detail.push({ url: 'modifier', valueCodeableConcept: item.modifier[0] });
  if (item.unitPrice) detail.push({ url: 'unitPrice', valueMoney: item.unitPrice });
  if (item.quantity) detail.push({ url: 'quantity', valueQuantity: item.quantity });
  const out: Extension[] = detail.length ? [{ url: PAS_EXT.itemAuthorizedDetail, extension: detail }] : [];
  return [...out, ...authorizedProviders(claim, item)];
}

/** itemAuthorizedProvider for each careTeam member the item names (provider, role, qualification), else the Claim's provider. */
export function authorizedProviders(claim: Claim, item?: ClaimItem): Extension[] {
  const team = recordsOf<NonNullable<Claim['careTeam']>[number]>(claim.careTeam).filter((c) => c.provider && Array.isArray(item?.careTeamSequence) && item.careTeamSequence.includes(c.sequence));
  const members = team.length ? team : claim.provider ? [{ provider: claim.provider, role: undefined, qualification: undefined }] : [];
  return members.map((c) => ({
    url: PAS_EXT.itemAuthorizedProvider,
    extension: [
      { url: 'provider', valueReference: c.provider },
      ...(c.role ? [{ url: 'role', valueCodeableConcept: c.role }] : []),
      ...(c.qualification ? [{ url: 'qualification', valueCodeableConcept: c.qualification }] : []),
    ],
  }));
}

/** The span of certification periods (ClaimResponse.preAuthPeriod), when there is at least one. */
export function spanOf(periods: { start: string; end: string }[]): { start: string; end: string } | undefined {
  if (!periods.length) return undefined;
  const starts = periods.map((p) => p.start).sort();
  const ends = periods.map((p) => p.end).sort();
  return { start: starts[0]!, end: ends[ends.length - 1]! };
}

/**
 * The request's resources the response points at, carried into the response Bundle: the patient, insurer and
 * provider, every careTeam provider and, for a PractitionerRole, its practitioner and organization. What the
 * request does not carry is not carried.
 */
export function carriedEntries(request: Bundle, claim: Claim, lookup: Lookup): BundleEntry[] {
  const entries = request.entry ?? [];
  const carried: BundleEntry[] = [];
  const add = (ref: Reference | undefined, from: Resource): Resource | undefined => {
    const r = lookup(ref, from);
    if (!r || carried.some((e) => e.resource === r)) return r;
    const original = entries.find((e) => e.resource === r);
    carried.push({ fullUrl: original?.fullUrl ?? `urn:uuid:${uuidFrom(`${r.resourceType}/${r.id}`)}`, resource: r });
    return r;
  };
  const refs: (Reference | undefined)[] = [claim.patient, claim.insurer, claim.provider, ...recordsOf<NonNullable<Claim['careTeam']>[number]>(claim.careTeam).map((c) => c.provider)];
  for (const ref of refs) {
    const r = add(ref, claim);
    if (r?.resourceType === 'PractitionerRole') {
      const role = r as Resource & { practitioner?: Reference; organization?: Reference };
      add(role.practitioner, r);
      add(role.organization, r);
    }
  }
  return carried;
}
