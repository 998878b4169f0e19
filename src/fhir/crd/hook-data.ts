// What a CRD hook call asks about and what it brings: the targets per hook (draft orders, the selected ones, the
// order being dispatched, the appointments, the encounter), and everything the request carries (prefetch,
// context Bundles) as one resolver. When something needed is missing and the request gives `fhirServer` plus
// `fhirAuthorization`, it is read from the EHR through the EhrReader port, all reads under one deadline.
// Never throws on odd data: a value of the wrong shape is skipped.
import type { Bundle, Reference, Resource } from '../r4.js';
import { bundleLookup, type Lookup } from '../resolve/lookup.js';
import type { CdsHookRequest, CrdHook } from './types.js';

/** Reads from the EHR's FHIR server with the token the EHR gave (one deadline for the whole hook call). */
export interface EhrReader {
  read(resourceType: string, id: string): Promise<Resource>;
  search(resourceType: string, params: Record<string, string>): Promise<Bundle>;
}

/** Resource types a hook's coverage answer can be about. */
export const EVALUATED_TYPES = ['ServiceRequest', 'DeviceRequest', 'MedicationRequest', 'Appointment', 'Encounter'] as const;

export interface HookData {
  /** What the hook asks about, in request order (any resource type; the projection decides what it can evaluate). */
  targets: Resource[];
  /** Targets named by reference that could not be found or fetched ("ServiceRequest/123"). */
  missingTargets: string[];
  /** The Coverage search result or resource(s): prefetched, fetched, or undefined when none was had. */
  coverage?: Resource;
  /** `null` when the EHR said (prefetch null) that the patient has no coverage data. */
  coverageNull: boolean;
  patient?: Resource;
  lookup: Lookup;
  /** Plain-language notes on what was fetched from the EHR or could not be (never tokens or clinical content). */
  notes: string[];
  fetched: string[];
}

export const isResource = (v: unknown): v is Resource => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Resource).resourceType === 'string';

const entriesOf = (b: unknown): { fullUrl?: string; resource?: Resource }[] => {
  if (!isResource(b) || b.resourceType !== 'Bundle') return [];
  const entries = (b as Bundle).entry;
  return (Array.isArray(entries) ? entries : []).filter((e): e is { fullUrl?: string; resource?: Resource } => !!e && typeof e === 'object' && isResource(e.resource));
};

const REF = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/;

/** A relative "Type/id" reference (the only kind we send the EHR's token for). */
export const parseRef = (s: unknown): { type: string; id: string } | undefined => {
  if (typeof s !== 'string') return undefined;
  const m = REF.exec(s.trim());
  return m ? { type: m[1]!, id: m[2]! } : undefined;
};

function initialTargets(hook: CrdHook, req: CdsHookRequest, find: (ref: string) => Resource | undefined): { targets: Resource[]; wanted: string[] } {
  const ctx = req.context;
  switch (hook) {
    case 'order-sign':
      return { targets: entriesOf(ctx.draftOrders).map((e) => e.resource!), wanted: [] };
    case 'order-select': {
      const all = entriesOf(ctx.draftOrders).map((e) => e.resource!);
      if (!Array.isArray(ctx.selections)) return { targets: all, wanted: [] };
      const sel = new Set(ctx.selections.filter((s): s is string => typeof s === 'string'));
      return { targets: all.filter((o) => sel.has(`${o.resourceType}/${o.id}`)), wanted: [] };
    }
    case 'order-dispatch': {
      const ref = parseRef(ctx.order);
      if (!ref) return { targets: [], wanted: [] };
      const hit = find(`${ref.type}/${ref.id}`);
      return hit ? { targets: [hit], wanted: [] } : { targets: [], wanted: [`${ref.type}/${ref.id}`] };
    }
    case 'appointment-book':
      return { targets: entriesOf(ctx.appointments).map((e) => e.resource!), wanted: [] };
    case 'encounter-start':
    case 'encounter-discharge': {
      const id = typeof ctx.encounterId === 'string' ? ctx.encounterId : undefined;
      if (!id || !parseRef(`Encounter/${id}`)) return { targets: [], wanted: [] };
      const hit = find(`Encounter/${id}`);
      return hit ? { targets: [hit], wanted: [] } : { targets: [], wanted: [`Encounter/${id}`] };
    }
  }
}

/** References a target needs resolved to be evaluated (a referenced Medication, an Appointment's orders). */
function referencesNeeded(targets: readonly Resource[], lookup: Lookup): string[] {
  const out: string[] = [];
  const need = (ref: Reference | undefined, from: Resource) => {
    if (!ref || typeof ref !== 'object' || lookup(ref, from)) return;
    const r = parseRef(ref.reference);
    if (r) out.push(`${r.type}/${r.id}`);
  };
  for (const t of targets) {
    if (t.resourceType === 'MedicationRequest') need((t as { medicationReference?: Reference }).medicationReference, t);
    if (t.resourceType === 'Appointment') {
      const based = (t as { basedOn?: unknown }).basedOn;
      for (const b of Array.isArray(based) ? based : []) need(b as Reference, t);
    }
  }
  return out;
}

const coverageOrganizations = (coverage: Resource | undefined, lookup: Lookup): string[] => {
  const covs = coverage?.resourceType === 'Coverage' ? [coverage] : entriesOf(coverage).map((e) => e.resource!).filter((r) => r.resourceType === 'Coverage');
  const out: string[] = [];
  for (const c of covs) {
    const payors = (c as { payor?: unknown }).payor;
    for (const p of Array.isArray(payors) ? payors : []) {
      if (!p || typeof p !== 'object' || lookup(p as Reference, c)) continue;
      const r = parseRef((p as Reference).reference);
      if (r?.type === 'Organization') out.push(`Organization/${r.id}`);
    }
  }
  return out;
};

const hasAddressState = (p: Resource | undefined): boolean => {
  const addresses = (p as { address?: unknown } | undefined)?.address;
  return Array.isArray(addresses) && addresses.some((a) => !!a && typeof a === 'object' && typeof (a as { state?: unknown }).state === 'string');
};

/** Errors from the EHR as short, safe text (status or timeout; never a body or a token). */
function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; response?: { status?: number }; status?: number };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
  if (e?.name === 'OutboundRefused' && e.message) return e.message;
  const status = e?.response?.status ?? e?.status;
  if (typeof status === 'number') return `HTTP ${status}`;
  return 'not reachable';
}

/**
 * The data of a hook call: targets, coverage, patient and a resolver over everything the request carries, filled
 * in from the EHR when `reader` is given (the request had fhirServer + fhirAuthorization) and something is missing.
 */
export async function gatherHookData(hook: CrdHook, req: CdsHookRequest, reader: EhrReader | undefined): Promise<HookData> {
  const prefetch = req.prefetch && typeof req.prefetch === 'object' && !Array.isArray(req.prefetch) ? req.prefetch : {};
  const known: { fullUrl?: string; resource?: Resource }[] = [];
  for (const value of Object.values(prefetch)) {
    if (!isResource(value)) continue;
    if (value.resourceType === 'Bundle') known.push(...entriesOf(value));
    else known.push({ resource: value });
  }
  known.push(...entriesOf(req.context.draftOrders), ...entriesOf(req.context.appointments));
  let lookup = bundleLookup(known);
  const find = (ref: string) => lookup({ reference: ref });
  const notes: string[] = [];
  const fetched: string[] = [];

  const rawCoverage = prefetch.coverage;
  const coverageNull = rawCoverage === null;
  let coverage: Resource | undefined = isResource(rawCoverage) && rawCoverage.resourceType !== 'OperationOutcome' ? rawCoverage : undefined;
  // A client that prefetches the Coverage under another key (its own template) still gets it used.
  if (!coverage && rawCoverage === undefined) {
    coverage = Object.values(prefetch).find(
      (v): v is Resource => isResource(v) && (v.resourceType === 'Coverage' || entriesOf(v).some((e) => e.resource!.resourceType === 'Coverage')),
    );
  }
  let patient: Resource | undefined = isResource(prefetch.patient) && prefetch.patient.resourceType === 'Patient' ? prefetch.patient : undefined;
  const patientId = typeof req.context.patientId === 'string' && parseRef(`Patient/${req.context.patientId}`) ? req.context.patientId : undefined;
  if (!patient && patientId) patient = find(`Patient/${patientId}`);

  let { targets, wanted } = initialTargets(hook, req, find);
  if (reader) {
    const read = async (ref: string): Promise<Resource | undefined> => {
      const r = parseRef(ref)!;
      try {
        const res = await reader.read(r.type, r.id);
        if (!isResource(res) || res.resourceType !== r.type) throw Object.assign(new Error('unexpected resource'), { status: 0 });
        fetched.push(ref);
        return res;
      } catch (err) {
        notes.push(`Could not read ${r.type} from the EHR (${describe(err)})`);
        return undefined;
      }
    };
    // Stage 1: the targets named by reference, the Coverage and the Patient.
    const stage1: Promise<void>[] = wanted.map(async (ref) => {
      const res = await read(ref);
      if (res) known.push({ resource: res });
    });
    if (!coverage && !coverageNull && patientId) {
      stage1.push(
        (async () => {
          try {
            const b = await reader.search('Coverage', { patient: patientId, status: 'active' });
            if (isResource(b) && b.resourceType === 'Bundle') {
              coverage = b;
              known.push(...entriesOf(b));
              fetched.push('Coverage?patient&status=active');
            }
          } catch (err) {
            notes.push(`Could not search Coverage in the EHR (${describe(err)})`);
          }
        })(),
      );
    }
    if (!patient && patientId) {
      stage1.push(
        (async () => {
          const p = await read(`Patient/${patientId}`);
          if (p) (patient = p), known.push({ resource: p });
        })(),
      );
    }
    await Promise.all(stage1);
    lookup = bundleLookup(known);
    ({ targets, wanted } = initialTargets(hook, req, find));
    // Stage 2: what those point at (payer Organizations, Medications, an Appointment's orders).
    // The payer Organization only matters for the member's state when the Patient gives none.
    const orgs = hasAddressState(patient) ? [] : coverageOrganizations(coverage, lookup);
    const second = [...new Set([...orgs, ...referencesNeeded(targets, lookup)])];
    await Promise.all(
      second.map(async (ref) => {
        const res = await read(ref);
        if (res) known.push({ resource: res });
      }),
    );
    lookup = bundleLookup(known);
  }
  return { targets, missingTargets: wanted, coverage, coverageNull, patient, lookup, notes, fetched };
}
