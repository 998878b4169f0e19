// The one structural check of every request body, run by the HTTP pipeline before anything reads the body:
// size limits for all JSON bodies, FHIR R4 structure for FHIR operations, the CDS Hooks request envelope (and the
// FHIR resources inside it) for CDS services. Problems name elements only, never values.
import { fhirShapeProblems, type ShapeProblem } from './fhir-shape.js';
import { checkJsonLimits } from './json-limits.js';

export type { ShapeProblem } from './fhir-shape.js';
export type BodyKind = 'json' | 'fhir' | 'cds';

/** At most this many problems are reported (the first ones, in document order). */
export const MAX_PROBLEMS = 20;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type FieldCheck = (v: unknown) => boolean;
const str: FieldCheck = (v) => typeof v === 'string';
const nonEmptyStr: FieldCheck = (v) => typeof v === 'string' && v.length > 0;
const obj: FieldCheck = isObj;
const int: FieldCheck = (v) => Number.isInteger(v);
const strArray: FieldCheck = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');

const TYPE_NAMES = new Map<FieldCheck, string>([
  [str, 'a string'],
  [nonEmptyStr, 'a non-empty string'],
  [obj, 'a JSON object'],
  [int, 'an integer'],
  [strArray, 'an array of strings'],
]);

function checkFields(v: Record<string, unknown>, at: string, fields: Record<string, [FieldCheck, boolean]>, out: ShapeProblem[]): void {
  for (const [name, [check, required]] of Object.entries(fields)) {
    const value = v[name];
    if (value === undefined) {
      if (required) out.push({ message: `${name} is required`, expression: `${at}${name}` });
    } else if (!check(value)) {
      out.push({ message: `${name} must be ${TYPE_NAMES.get(check)}`, expression: `${at}${name}` });
    }
  }
}

/** CDS Hooks 1.0/2.0 request: hook, hookInstance, context, and the optional fhirServer, fhirAuthorization, prefetch, extension. */
function cdsProblems(body: unknown): ShapeProblem[] {
  if (!isObj(body)) return [{ message: 'Send a CDS Hooks request (a JSON object)', expression: 'request' }];
  const out: ShapeProblem[] = [];
  checkFields(body, '', { hook: [nonEmptyStr, true], hookInstance: [nonEmptyStr, true], fhirServer: [str, false], fhirAuthorization: [obj, false], context: [obj, true], prefetch: [obj, false], extension: [obj, false] }, out);
  if (isObj(body.fhirAuthorization)) {
    checkFields(body.fhirAuthorization, 'fhirAuthorization.', { access_token: [str, true], token_type: [str, true], expires_in: [int, true], scope: [str, true], subject: [str, true] }, out);
  }
  if (isObj(body.context)) {
    const ctx = body.context;
    checkFields(ctx, 'context.', { userId: [str, false], patientId: [str, false], encounterId: [str, false], selections: [strArray, false] }, out);
    // draftOrders (order-sign, order-select) and appointments (appointment-book) are Bundles of resources.
    for (const key of ['draftOrders', 'appointments'] as const) {
      if (ctx[key] === undefined) continue;
      const problems = fhirShapeProblems(ctx[key], `context.${key}`);
      if (!problems.length && (ctx[key] as { resourceType?: unknown }).resourceType !== 'Bundle') {
        out.push({ message: `context.${key} must be a Bundle`, expression: `context.${key}` });
      }
      out.push(...problems);
    }
  }
  if (isObj(body.prefetch)) {
    for (const [k, v] of Object.entries(body.prefetch)) {
      // A prefetch the EHR could not fill is null (CDS Hooks); anything else must be a resource.
      if (v !== null) out.push(...fhirShapeProblems(v, `prefetch.${/^[A-Za-z0-9_-]{1,64}$/.test(k) ? k : '(name)'}`));
    }
  }
  return out;
}

/** Structural problems of a request body (empty: it may be read). */
export function bodyProblems(kind: BodyKind, body: unknown): ShapeProblem[] {
  const limit = checkJsonLimits(body);
  if (limit) return [{ message: limit.message, expression: limit.path || 'body' }];
  if (kind === 'fhir') return fhirShapeProblems(body).slice(0, MAX_PROBLEMS);
  if (kind === 'cds') return cdsProblems(body).slice(0, MAX_PROBLEMS);
  return [];
}
