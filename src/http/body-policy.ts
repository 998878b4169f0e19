// One body policy per route, decided here from its declared bodyType and surface: which media types it reads (any
// other is a 415 naming the one to send), which reader parses it (and so which size limit applies), and which
// structural check the pipeline runs on what was read. The dispatcher and the pipeline both ask this, so the route
// table's bodyType is read in one place.
import type { RouteDef } from '../api/route.js';
import type { BodyKind } from '../fhir/shape/check-body.js';
import { BODY_LIMITS, RECORDS_BODY_LIMITS, type JsonLimits } from '../fhir/shape/json-limits.js';

export const JSON_TYPES = ['application/json', 'application/fhir+json', 'application/*+json'];
export const FORM_TYPE = 'application/x-www-form-urlencoded';

export interface BodyPolicy {
  /** Media types read (type-is patterns); a body of another type is refused with 415. */
  accepts: string[];
  /** The type the 415 tells the client to send. */
  send: string;
  /** Which reader parses the body: records (a whole corpus from the CLI) have the ingest size limit. */
  reader: 'json' | 'records' | 'form';
  /** The structural check run on the parsed body; none for form bodies (a string, read by the route's own parser). */
  shape?: { kind: BodyKind; limits: JsonLimits };
}

const decided = new WeakMap<RouteDef, BodyPolicy | undefined>();

/** The route's body policy (decided once per route); undefined for a method that carries no body. */
export function bodyPolicyOf(route: RouteDef): BodyPolicy | undefined {
  if (!decided.has(route)) decided.set(route, decide(route));
  return decided.get(route);
}

function decide(route: RouteDef): BodyPolicy | undefined {
  if (route.method !== 'POST') return undefined;
  if (route.bodyType === 'form') return { accepts: [FORM_TYPE], send: FORM_TYPE, reader: 'form' };
  const kind: BodyKind = route.surface === 'fhir' ? 'fhir' : route.surface === 'cds' ? 'cds' : 'json';
  const records = route.bodyType === 'records';
  return {
    accepts: JSON_TYPES,
    send: route.surface === 'fhir' ? 'application/fhir+json' : 'application/json',
    reader: records ? 'records' : 'json',
    shape: { kind, limits: records ? RECORDS_BODY_LIMITS : BODY_LIMITS },
  };
}
