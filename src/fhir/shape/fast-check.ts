// The fast structural check: whether a resource is certainly free of every problem the full validator
// (./fhir-shape.ts: @medplum/core over the R4 StructureDefinitions) would report. The precompiled official R4 JSON
// schema (./r4-generated.ts) checks element names, JSON types, lists, primitive formats, required complex elements
// and code bindings; the walk below adds what the schema cannot say and the validator checks: required primitive
// and choice elements, empty objects and lists, empty strings, integers, and the invariants of the types requests
// carry (INVARIANTS, plus ext-1, bdl-* and dom-* in the walk). A type or element with any other invariant is not
// judged here. "Clean" is the only verdict: anything else goes to the full validator, which names the problems, so
// both agree on every body (test/unit/fast-check.test.ts).
import { isComplexType } from './json-shape.js';
import { r4Elements, r4Validator, type R4Elements } from './r4-generated.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const INTEGERS: Readonly<Record<string, (n: number) => boolean>> = {
  integer: () => true,
  unsignedInt: (n) => n >= 0,
  positiveInt: (n) => n > 0,
};

const has = (o: Json, k: string): boolean => o[k] !== undefined || o[`_${k}`] !== undefined;
const obj = (v: unknown): Json => (isObj(v) ? v : {});

/**
 * R4 invariants by key, each true when the value certainly satisfies it (FHIRPath in R4's words alongside); the
 * comparisons are conservative: a pair the check cannot order as R4 would is not clean.
 */
const INVARIANTS: Readonly<Record<string, (o: Json) => boolean>> = {
  'per-1': (o) => !has(o, 'start') || !has(o, 'end') || (typeof o.start === 'string' && typeof o.end === 'string' && o.start.length === o.end.length && o.start <= o.end), // start <= end
  'ref-1': (o) => !(typeof o.reference === 'string' && o.reference.startsWith('#')), // a local reference needs contained
  'prr-1': (o) => o.orderDetail === undefined || o.code !== undefined, // orderDetail.empty() or code.exists()
  'cpt-2': (o) => !has(o, 'value') || has(o, 'system'), // value.empty() or system.exists()
  'qty-3': (o) => !has(o, 'code') || has(o, 'system'), // code.empty() or system.exists()
  'sqty-1': (o) => !has(o, 'comparator'), // comparator.empty()
  'att-1': (o) => !has(o, 'data') || has(o, 'contentType'), // data.empty() or contentType.exists()
  'org-2': (o) => o.use !== 'home' && o._use === undefined, // an organization's address is not a home
  'org-3': (o) => o.use !== 'home' && o._use === undefined, // nor its telecom
  'pat-1': (o) => ['name', 'telecom', 'address', 'organization'].some((k) => o[k] !== undefined), // a contact has details
  'rat-1': (o) => o.numerator !== undefined && o.denominator !== undefined, // both or neither (and one is enough here)
  'tim-1': (o) => !has(o, 'duration') || has(o, 'durationUnit'),
  'tim-2': (o) => !has(o, 'period') || has(o, 'periodUnit'),
  'tim-4': (o) => !has(o, 'duration') || (typeof o.duration === 'number' && o.duration >= 0),
  'tim-5': (o) => !has(o, 'period') || (typeof o.period === 'number' && o.period >= 0),
  'tim-6': (o) => !has(o, 'periodMax') || has(o, 'period'),
  'tim-7': (o) => !has(o, 'durationMax') || has(o, 'duration'),
  'tim-8': (o) => !has(o, 'countMax') || has(o, 'count'),
  'tim-9': (o) => !has(o, 'offset'), // an offset needs a when that is not a meal: left to the validator
  'tim-10': (o) => !has(o, 'timeOfDay') || !has(o, 'when'),
};
const satisfies = (keys: readonly string[] | undefined, o: Json): boolean => !keys || keys.every((k) => INVARIANTS[k]?.(o) === true);

/** True when neither the schema nor the walk finds anything the full validator could report. */
export function isCleanResource(resource: Json): boolean {
  return r4Validator()(resource) && cleanResource(resource, r4Elements());
}

function cleanResource(r: Json, t: R4Elements): boolean {
  const type = r.resourceType as string;
  // dom-2, dom-4, dom-5 constrain contained resources, ref-1 references into them: left to the validator.
  if (r.contained !== undefined) return false;
  if (type === 'Bundle' && !cleanBundle(r)) return false;
  return cleanObject(r, type, t);
}

/** bdl-1..bdl-8 for the Bundle types requests carry (collection, searchset); any other type goes to the validator. */
function cleanBundle(b: Json): boolean {
  const searchset = b.type === 'searchset';
  if (!searchset && (b.type !== 'collection' || b.total !== undefined)) return false;
  const urls = new Set<string>();
  // The schema's complex types say which properties an object may have, not that it is an object: `entry: [null]`
  // passes it, and only the walk refuses it.
  for (const e of (b.entry ?? []) as unknown[]) {
    if (!isObj(e) || e.resource === undefined || e.request !== undefined || e.response !== undefined) return false;
    if (e.search !== undefined && !searchset) return false;
    if (typeof e.fullUrl === 'string') {
      if (e.fullUrl.includes('/_history/') || urls.has(e.fullUrl)) return false;
      urls.add(e.fullUrl);
    }
  }
  return true;
}

function cleanObject(o: Json, type: string, t: R4Elements): boolean {
  const elements = t.types[type];
  if (!elements || !satisfies(t.invariants[type], o)) return false;
  // One pass over the keys, without a key list per object (a body has hundreds of objects).
  let count = 0;
  let hasValue = false;
  for (const key in o) {
    count++;
    if (key === 'resourceType') continue;
    if (!hasValue && key.startsWith('value')) hasValue = true;
    const v = o[key];
    // `_status` carries the id and extensions of the primitive `status`: an Element, listed as its primitive is.
    const primitiveExt = key.charCodeAt(0) === 95; // '_'
    const name = primitiveExt ? key.slice(1) : key;
    const el = Object.hasOwn(elements, name) ? elements[name] : undefined;
    if (!el || el[0].length !== 1) return false;
    const code = primitiveExt ? 'Element' : el[0][0]!;
    const inv = primitiveExt ? undefined : el[2];
    // An element's invariants are asked only where it has some (no empty object made for every primitive).
    if (Array.isArray(v)) {
      if (!v.length) return false;
      for (const x of v) if (!cleanValue(x, code, t) || (inv && !satisfies(inv, obj(x)))) return false;
    } else if (!cleanValue(v, code, t) || (inv && !satisfies(inv, obj(v)))) return false;
  }
  if (!count) return false;
  for (const name of t.required[type] ?? []) {
    if (name.endsWith('[x]') ? !hasChoice(o, name.slice(0, -3)) : o[name] === undefined) return false;
  }
  if (type === 'Extension' && (o.extension !== undefined) === hasValue) return false; // ext-1
  return true;
}

/** Whether the object holds the choice element `prefix[x]` under some type (valueString, valueCoding, ...). */
function hasChoice(o: Json, prefix: string): boolean {
  for (const k in o) if (k.startsWith(prefix) && /^[A-Z]/.test(k.charAt(prefix.length))) return true;
  return false;
}

function cleanValue(v: unknown, code: string, t: R4Elements): boolean {
  if (code === 'Resource') return isObj(v) && cleanResource(v, t);
  if (isComplexType(code)) return isObj(v) && cleanObject(v, code, t);
  const integer = INTEGERS[code];
  if (integer) return typeof v === 'number' && Number.isInteger(v) && integer(v);
  return v !== null && v !== '' && typeof v !== 'object';
}
