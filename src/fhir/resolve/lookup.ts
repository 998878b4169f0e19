// Resolving what a FHIR client sent: references within a Bundle, prefetch or contained resources, the orders and
// Coverages among them. Pure.
import type { Bundle, Coverage, OrderResource, Reference, Resource, DomainResource } from '../r4.js';

/** A resource resolver over what the client sent (a request Bundle, prefetch, contained resources). */
export type Lookup = (ref: Reference | undefined, from?: Resource) => Resource | undefined;

export function bundleLookup(resources: readonly { fullUrl?: string; resource?: Resource }[]): Lookup {
  const byUrl = new Map<string, Resource>();
  for (const e of resources) {
    const r = e?.resource;
    if (!r || typeof r !== 'object' || typeof r.resourceType !== 'string') continue;
    if (typeof e.fullUrl === 'string') byUrl.set(e.fullUrl, r);
    if (typeof r.id === 'string') byUrl.set(`${r.resourceType}/${r.id}`, r);
  }
  return (ref, from) => {
    const s = ref && typeof ref === 'object' ? ref.reference : undefined;
    if (typeof s !== 'string' || !s) return undefined;
    if (s.startsWith('#')) {
      const contained = (from as DomainResource | undefined)?.contained;
      return (Array.isArray(contained) ? contained.find((c) => c?.id === s.slice(1)) : undefined) as Resource | undefined;
    }
    const direct = byUrl.get(s);
    if (direct) return direct;
    const m = /([A-Za-z]+\/[A-Za-z0-9.-]{1,64})(\/_history\/[^/]+)?$/.exec(s);
    return m ? byUrl.get(m[1]!) : undefined;
  };
}

export const ORDER_TYPES = ['ServiceRequest', 'DeviceRequest', 'MedicationRequest'] as const;
export const isOrder = (r: Resource | undefined): r is OrderResource =>
  !!r && (ORDER_TYPES as readonly string[]).includes(r.resourceType);

export const coverageOf = (b: Bundle | Resource | null | undefined): Coverage[] => {
  if (!b || typeof b !== 'object') return [];
  if (b.resourceType === 'Coverage') return [b as Coverage];
  if (b.resourceType === 'Bundle') {
    const entries = (b as Bundle).entry;
    return (Array.isArray(entries) ? entries : []).map((e) => e?.resource).filter((r): r is Coverage => !!r && typeof r === 'object' && r.resourceType === 'Coverage');
  }
  return [];
};

