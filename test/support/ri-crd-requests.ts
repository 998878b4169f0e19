// CRD hook requests as the Da Vinci CRD reference implementation's request generator builds them
// (HL7-DaVinci/crd-request-generator, src/util/buildRequest.js and src/PrefetchTemplate.js at
// 1a184daba418ca0b4fa7458d6b53a299f58571f2, see test/kit-requests/SOURCES.md), over the reference EHR's seed data
// (HL7-DaVinci/test-ehr, test/kit-requests/test-ehr-seed-data.json). What the generator does that a strict door
// refused: draftOrders a Bundle without `type`; fhirAuthorization without access_token when no SMART launch gave one
// (`token?.access_token` is undefined, so JSON.stringify drops it); prefetch Bundles of type `collection` holding the
// EHR's searchset entries (`search.mode`, forbidden outside searchsets by bdl-2); `encounterId` naming an encounter
// that is not sent.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The reference EHR's base address as the generator's default configuration names it (src/properties.json `ehr_server`). */
export const RI_EHR = 'http://localhost:8080/test-ehr/r4';

const seed: Any[] = JSON.parse(readFileSync(fileURLToPath(new URL('../kit-requests/test-ehr-seed-data.json', import.meta.url)), 'utf8'));
const byRef = new Map(seed.map((r) => [`${r.resourceType}/${r.id}`, r]));
const get = (ref: string): Any => {
  const r = byRef.get(ref);
  if (!r) throw new Error(`no ${ref} in the test-ehr seed data`);
  return JSON.parse(JSON.stringify(r));
};

/** A searchset entry as the EHR returns it, which the generator copies into its collection Bundles. */
const entry = (r: Any, mode: 'match' | 'include'): Any => ({ fullUrl: `${RI_EHR}/${r.resourceType}/${r.id}`, resource: r, search: { mode } });

const refs = (v: unknown): string[] => (Array.isArray(v) ? v : v ? [v] : []).map((x: Any) => x?.reference).filter((s): s is string => typeof s === 'string' && byRef.has(s));

/** The prefetch the generator fills from its templates: the order with its _includes, and the patient's Coverages. */
function prefetchOf(order: Any, patient: Any): Any {
  // DeviceRequest / ServiceRequest ?_id=&_include=:patient&_include=:performer&_include=:requester (MedicationRequest:
  // :patient, :intended-dispenser, :requester:PractitionerRole, :medication).
  const included = [...new Set([...refs(order.subject), ...refs(order.performer), ...(order.resourceType === 'MedicationRequest' ? [] : refs(order.requester))])].map(get);
  const key = { DeviceRequest: 'deviceRequestBundle', ServiceRequest: 'serviceRequestBundle', MedicationRequest: 'medicationRequestBundle' }[order.resourceType as string]!;
  const coverages = seed.filter((r) => r.resourceType === 'Coverage' && r.beneficiary?.reference === `Patient/${patient.id}`);
  return {
    [key]: { resourceType: 'Bundle', type: 'collection', entry: [entry(order, 'match'), ...included.map((r) => entry(r, 'include'))] },
    coverageBundle: { resourceType: 'Bundle', type: 'collection', entry: coverages.map((c) => entry(c, 'match')) },
  };
}

export interface RiRequestOptions {
  /** The SMART launch's access token; none (the generator's default without a launch) drops access_token. */
  token?: string;
  /** The generator's "send prefetch" switch (on by default). */
  prefetch?: boolean;
  /** The generator's hook configuration extension (davinci-crd.configuration with alt-drug). */
  includeConfig?: boolean;
}

/** buildRequest(request, patient, ehrUrl, token, prefetch, includePrefetch, hook, hookConfig) as the generator runs it. */
export function riGeneratorRequest(hook: 'order-sign' | 'order-select', orderRef: string, o: RiRequestOptions = {}): Any {
  const order = get(orderRef);
  const patient = get(order.subject.reference);
  const body: Any = JSON.parse(
    JSON.stringify({
      hookInstance: 'd1577c69-dfbe-44ad-ba6d-3e05e953b2ea',
      fhirServer: RI_EHR,
      hook,
      fhirAuthorization: { access_token: o.token, token_type: 'Bearer', expires_in: 300, scope: 'patient/Patient.read patient/Observation.read', subject: 'cds-service4' },
      context: { userId: 'Practitioner/example', patientId: patient.id, encounterId: 'enc89284' },
    }),
  );
  if (o.includeConfig) body.extension = { 'davinci-crd.configuration': { 'alt-drug': true } };
  body.context.draftOrders = { resourceType: 'Bundle', entry: [{ resource: order }] };
  if (hook === 'order-select') body.context.selections = [`${order.resourceType}/${order.id}`];
  if (o.prefetch ?? true) body.prefetch = prefetchOf(order, patient);
  return body;
}

/** Ten requests over the reference EHR's patients (MA, NY, VA; Medicare Part A and Part B) and their orders. */
export const RI_GENERATOR_REQUESTS: readonly [label: string, build: () => Any][] = [
  ['order-sign, oxygen E0424, MA Medicare Part A, no SMART token', () => riGeneratorRequest('order-sign', 'DeviceRequest/devreq015')],
  ['order-sign, hospital bed E0250, MA, with a SMART token', () => riGeneratorRequest('order-sign', 'DeviceRequest/devreq-015-e0250', { token: 'smart-launch-token' })],
  ['order-select, respiratory assist device E0470, MA', () => riGeneratorRequest('order-select', 'DeviceRequest/devreqe0470')],
  ['order-sign, oxygen E0424, NY Medicare Part A, hook configuration', () => riGeneratorRequest('order-sign', 'DeviceRequest/devreq016', { includeConfig: true })],
  ['order-sign, clinical social worker G0155, NY', () => riGeneratorRequest('order-sign', 'ServiceRequest/servreq16-g0155')],
  ['order-select, ventilator E0465, NY, no prefetch', () => riGeneratorRequest('order-select', 'DeviceRequest/devreq16-465', { prefetch: false })],
  ['order-sign, CPAP E0601, VA Medicare Part A', () => riGeneratorRequest('order-sign', 'DeviceRequest/devreq033')],
  ['order-sign, ambulance A0426, VA Medicare Part B', () => riGeneratorRequest('order-sign', 'ServiceRequest/servreq01')],
  ['order-sign, azathioprine (RxNorm), VA Medicare Part B', () => riGeneratorRequest('order-sign', 'MedicationRequest/pat014-mr-azathioprine')],
  ['order-select, CPAP E0601, VA Medicare Part B, with a SMART token', () => riGeneratorRequest('order-select', 'DeviceRequest/devreq021', { token: 'smart-launch-token' })],
];
