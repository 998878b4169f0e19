// The Inferno kits' must-support check, re-implemented: every element a profile marks mustSupport (its
// StructureDefinition snapshot in test/igs, the same source the kits' generators read) must be present in at least
// one of the resources of interest. Slices are told apart as the kits tell them: extension slices by url, others by
// the slice's pattern or fixed value at the discriminator path, `type` discriminators by resource type.
import type { StructureDefinition } from 'fhir/r4';
import { profile } from '../ig-validate.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type El = NonNullable<StructureDefinition['snapshot']>['element'][number];

const asList = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** `a` contains everything `pattern` says (FHIR pattern matching: arrays match item by item, any order). */
function matches(value: unknown, pattern: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.every((p) => asList(value).some((v) => matches(v, p)));
  if (pattern && typeof pattern === 'object') return !!value && typeof value === 'object' && Object.entries(pattern).every(([k, p]) => matches((value as Json)[k], p));
  return value === pattern;
}

/** The value of a pattern[x] or fixed[x] on an element, if any. */
const patternOf = (e: El | undefined): unknown => (e ? Object.entries(e).find(([k]) => k.startsWith('pattern') || k.startsWith('fixed'))?.[1] : undefined);

/** Values one path step below `v`: `name`, `name[x]` (any choice), `name:slice` (the slice's members). */
function step(sd: StructureDefinition, idSoFar: string, v: unknown, seg: string): unknown[] {
  const [name, slice] = seg.split(':') as [string, string | undefined];
  const values = name.endsWith('[x]')
    ? asList(v).flatMap((x) => (x && typeof x === 'object' ? Object.entries(x as Json).filter(([k]) => k.startsWith(name.slice(0, -3)) && !k.startsWith('_')).flatMap(([, y]) => asList(y)) : []))
    : asList(v).flatMap((x) => (x && typeof x === 'object' ? asList((x as Json)[name]) : []));
  if (!slice) return values;
  // A type slice of a choice element (`multipleBirth[x]:multipleBirthInteger`) is the element of that name.
  if (name.endsWith('[x]')) return asList(v).flatMap((x) => (x && typeof x === 'object' ? asList((x as Json)[slice]) : []));
  const els = sd.snapshot!.element;
  const sliceId = `${idSoFar}.${seg}`;
  const sliceEl = els.find((e) => e.id === sliceId);
  const base = els.find((e) => e.id === `${idSoFar}.${name}`);
  if (name === 'extension' || name === 'modifierExtension') {
    const url = sliceEl?.type?.[0]?.profile?.[0]?.split('|')[0] ?? patternOf(els.find((e) => e.id === `${sliceId}.url`));
    return values.filter((x) => (x as Json)?.url === url);
  }
  const d = base?.slicing?.discriminator?.[0];
  if (!d) return values;
  if (d.type === 'type') {
    const typed = els.find((e) => e.id === `${sliceId}.${d.path}`)?.type?.[0]?.code ?? sliceEl?.type?.[0]?.code;
    return values.filter((x) => (d.path === 'resource' ? (x as Json)?.resource?.resourceType : (x as Json)?.resourceType) === typed);
  }
  const at = d.path === '$this' ? sliceEl : els.find((e) => e.id === `${sliceId}.${d.path}`);
  const pattern = patternOf(at);
  if (pattern === undefined) return values;
  return values.filter((x) => matches(d.path === '$this' ? x : (x as Json)?.[d.path], pattern));
}

/** The must-support element ids of a profile, as the kits list them (`ClaimResponse.item.extension:preAuthPeriod`). */
export function mustSupportIds(profileUrl: string): string[] {
  const sd = profile(profileUrl);
  return sd.snapshot!.element.filter((e) => e.mustSupport && e.id!.includes('.')).map((e) => e.id!);
}

/** Whether some resource has a value at the element id. */
function present(sd: StructureDefinition, resources: Json[], id: string): boolean {
  const segs = id.split('.');
  let values: unknown[] = resources;
  let idSoFar = segs[0]!;
  for (const seg of segs.slice(1)) {
    values = step(sd, idSoFar, values, seg);
    idSoFar = `${idSoFar}.${seg}`;
    if (!values.length) return false;
  }
  return values.length > 0;
}

/** The must-support elements of `profileUrl` that none of `resources` carries (empty: the kit's test passes). */
export function missingMustSupport(profileUrl: string, resources: Json[]): string[] {
  const sd = profile(profileUrl);
  return mustSupportIds(profileUrl).filter((id) => !present(sd, resources, id));
}
