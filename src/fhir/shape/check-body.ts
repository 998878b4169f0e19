// The one acceptance check of every request body, run by the HTTP pipeline before anything reads the body: size
// limits for all JSON bodies, then for FHIR operations and CDS services the one policy (docs/fhir.md, "Acceptance of
// incoming bodies"): refuse only what cannot be processed (not a resource of a known type, a value of the wrong JSON
// type in an element the operation reads, a CDS request without its hook, hookInstance or context); `null` on a
// property is taken as absent; every other base-R4 problem is a warning, counted by kind. Problems name elements
// only, never values. A missing element an operation reads is refused by the operation, which knows what it needs.
import { fhirBodyIssues, type BodyIssue, type ProblemKind, type ShapeProblem } from './fhir-shape.js';
import { BODY_LIMITS, checkJsonLimits, type JsonLimits } from './json-limits.js';
import type { ReadSet } from './reads.js';

export type { BodyIssue, ProblemKind, ShapeProblem } from './fhir-shape.js';
export type BodyKind = 'json' | 'fhir' | 'cds';
/** Warning kinds: the validator's, plus a JSON null taken as absent. */
export type WarningKind = ProblemKind | 'null';
export interface BodyWarning extends ShapeProblem {
  kind: WarningKind;
}

export interface BodyVerdict {
  /** What makes the request impossible to process (empty: it is processed). */
  errors: ShapeProblem[];
  /** What was accepted anyway, first ones in document order (at most MAX_PROBLEMS; `counts` has them all). */
  warnings: BodyWarning[];
  /** Every warning, counted by kind (what is logged). */
  counts: Partial<Record<WarningKind, number>>;
}

/** At most this many problems are reported (the first ones, in document order). */
export const MAX_PROBLEMS = 20;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

class Collector {
  readonly errors: ShapeProblem[] = [];
  readonly warnings: BodyWarning[] = [];
  readonly counts: Partial<Record<WarningKind, number>> = {};
  error(message: string, expression: string): void {
    this.errors.push({ message, expression });
  }
  warn(kind: WarningKind, message: string, expression: string): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    if (this.warnings.length < MAX_PROBLEMS) this.warnings.push({ kind, message, expression });
  }
  add(issues: readonly BodyIssue[]): void {
    for (const i of issues) i.severity === 'error' ? this.error(i.message, i.expression) : this.warn(i.kind, i.message, i.expression);
  }
  verdict(): BodyVerdict {
    return { errors: this.errors.slice(0, MAX_PROBLEMS), warnings: this.warnings, counts: this.counts };
  }
}

const NAME = /^[A-Za-z_$][\w$-]{0,63}$/;
const seg = (k: string): string => (NAME.test(k) ? `.${k}` : '.(name)');

/**
 * Deletes every property whose value is JSON null (taken as absent), reporting each as a `null` warning. Nulls inside
 * arrays stay (they are the primitive-extension alignment of `_given: [null, {...}]`, or a problem the validator
 * reports). `keep` names properties whose null means something (CDS prefetch: the EHR could not fill it).
 */
function dropNulls(root: unknown, at: string, c: Collector, keep?: (path: string) => boolean): void {
  if (!hasNullProperty(root, 0)) return; // the usual body: no path is spelled
  const stack: [unknown, string][] = [[root, at]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, `${path}[${i}]`]));
    else if (isObj(v)) {
      for (const k of Object.keys(v)) {
        const p = `${path}${seg(k)}`;
        if (v[k] === null && !keep?.(p)) {
          delete v[k];
          c.warn('null', 'null is taken as absent', p.replace(/^\./, ''));
        } else if (typeof v[k] === 'object') stack.push([v[k], p]);
      }
    }
  }
}

/**
 * Whether any object in the value has a property whose value is null. The body has passed its size limits (depth
 * 64), so this recursion is bounded; past MAX_NULL_SCAN_DEPTH it answers yes and the walk above decides.
 */
function hasNullProperty(v: unknown, depth: number): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (depth > MAX_NULL_SCAN_DEPTH) return true;
  if (Array.isArray(v)) {
    for (const x of v) if (hasNullProperty(x, depth + 1)) return true;
    return false;
  }
  for (const k in v) {
    const x = (v as Json)[k];
    if (x === null || hasNullProperty(x, depth + 1)) return true;
  }
  return false;
}
const MAX_NULL_SCAN_DEPTH = 100;

/** CDS Hooks 1.0/2.0 request envelope: hook, hookInstance, context, and the optional fhirServer, fhirAuthorization, prefetch, extension. */
function checkCds(body: unknown, reads: ReadSet | undefined, c: Collector): void {
  if (!isObj(body)) return c.error('Send a CDS Hooks request (a JSON object)', 'request');
  dropNulls(body, '', c, (p) => /^\.prefetch\.[^.]+$/.test(p));
  const str = (v: unknown): boolean => typeof v === 'string';
  for (const name of ['hook', 'hookInstance'] as const) {
    if (body[name] === undefined) c.error(`${name} is required`, name);
    else if (typeof body[name] !== 'string' || !body[name]) c.error(`${name} must be a non-empty string`, name);
  }
  if (!isObj(body.context)) c.error(body.context === undefined ? 'context is required' : 'context must be a JSON object', 'context');
  // fhirServer and fhirAuthorization are only used to read what the request does not carry: when they cannot be
  // used, the request is answered from what it carries.
  if (body.fhirServer !== undefined && !str(body.fhirServer)) c.warn('shape', 'fhirServer is not a string: the EHR is not read', 'fhirServer');
  if (body.fhirAuthorization !== undefined) {
    const a = body.fhirAuthorization;
    if (!isObj(a)) c.warn('shape', 'fhirAuthorization is not a JSON object: the EHR is not read', 'fhirAuthorization');
    else {
      const fields = { access_token: str, token_type: str, expires_in: Number.isInteger, scope: str, subject: str } as const;
      for (const [name, ok] of Object.entries(fields)) {
        if (a[name] === undefined) c.warn('cardinality', `fhirAuthorization.${name} is missing`, `fhirAuthorization.${name}`);
        else if (!ok(a[name])) c.warn('shape', `fhirAuthorization.${name} has the wrong type`, `fhirAuthorization.${name}`);
      }
    }
  }
  if (body.prefetch !== undefined && !isObj(body.prefetch)) c.error('prefetch must be a JSON object', 'prefetch');
  if (body.extension !== undefined && !isObj(body.extension)) c.error('extension must be a JSON object', 'extension');
  if (isObj(body.context)) {
    const ctx = body.context;
    // Read: the patient (EHR reads), the encounter, the order dispatched, the selections. userId is not read.
    for (const name of ['patientId', 'encounterId', 'order']) if (ctx[name] !== undefined && !str(ctx[name])) c.error(`context.${name} must be a string`, `context.${name}`);
    if (ctx.userId !== undefined && !str(ctx.userId)) c.warn('shape', 'context.userId is not a string', 'context.userId');
    if (ctx.selections !== undefined && !(Array.isArray(ctx.selections) && ctx.selections.every(str))) c.error('selections must be an array of strings', 'context.selections');
    // draftOrders (order-sign, order-select) and appointments (appointment-book) are Bundles of resources.
    for (const key of ['draftOrders', 'appointments'] as const) {
      if (ctx[key] === undefined) continue;
      const issues = fhirBodyIssues(ctx[key], reads, `context.${key}`);
      c.add(issues);
      if (!issues.some((i) => i.severity === 'error') && (ctx[key] as { resourceType?: unknown }).resourceType !== 'Bundle') c.error(`context.${key} must be a Bundle`, `context.${key}`);
    }
  }
  if (isObj(body.prefetch)) {
    for (const [k, v] of Object.entries(body.prefetch)) {
      // A prefetch the EHR could not fill is null (CDS Hooks); anything else must be a resource.
      if (v !== null) c.add(fhirBodyIssues(v, reads, `prefetch${seg(k)}`));
    }
  }
}

/**
 * The verdict on a request body. `reads` is what the operation reads (./reads.ts); without it every wrong-typed
 * value is an error. The body is normalized in place (null properties removed) before anything reads it.
 */
export function checkBody(kind: BodyKind, body: unknown, reads?: ReadSet, limits: JsonLimits = BODY_LIMITS): BodyVerdict {
  const c = new Collector();
  const limit = checkJsonLimits(body, limits);
  if (limit) {
    c.error(limit.message, limit.path || 'body');
    return c.verdict();
  }
  if (kind === 'fhir') {
    if (isObj(body)) dropNulls(body, typeof body.resourceType === 'string' && NAME.test(body.resourceType) ? body.resourceType : 'Resource', c);
    c.add(fhirBodyIssues(body, reads));
  } else if (kind === 'cds') checkCds(body, reads, c);
  return c.verdict();
}

/** The errors alone (what a 400 names), for callers that only need to know whether a body may be read. */
export const bodyProblems = (kind: BodyKind, body: unknown, reads?: ReadSet): ShapeProblem[] => checkBody(kind, body, reads).errors;
