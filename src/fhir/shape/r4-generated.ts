// What scripts/fhir/build-shape.ts generates at build time into dist/generated: the R4 element tables and the
// precompiled ajv validator of the official R4 JSON schema. Loaded once, on first use (a few milliseconds).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRootOf } from '../../domain/project-root.js';

/** An element: its type codes, whether it is a list, and invariants on it the fast check leaves to the validator. */
export type R4Element = [codes: string[], list: boolean, invariants?: string[]];

export interface R4Elements {
  /** The concrete R4 resource types, sorted. */
  resources: string[];
  /** Per R4 type (backbone elements named like ClaimItem), per JSON property name (choices as valueString too). */
  types: Record<string, Record<string, R4Element>>;
  /** Per type, the elements R4 requires (min >= 1; choices as value[x]). */
  required: Record<string, string[]>;
  /** Per type, its own invariants the fast check leaves to the validator. */
  invariants: Record<string, string[]>;
}

export interface SchemaError {
  instancePath: string;
  keyword: string;
}
export type R4Validator = ((value: unknown) => boolean) & { errors?: SchemaError[] | null };

// src/fhir/shape under tsx, dist/src/fhir/shape once built: the generated files are under <project>/dist/generated.
function generatedDir(): string {
  const root = projectRootOf(import.meta.url);
  if (!root) throw new Error('package.json not found above src/fhir/shape');
  const out = join(root, 'dist', 'generated');
  if (!existsSync(join(out, 'r4-validator.cjs'))) throw new Error(`${out}/r4-validator.cjs is missing: run npm run build`);
  return out;
}

let elements: R4Elements | undefined;
let validator: R4Validator | undefined;
let resourceTypes: ReadonlySet<string> | undefined;

export function r4Elements(): R4Elements {
  return (elements ??= JSON.parse(readFileSync(join(generatedDir(), 'r4-elements.json'), 'utf8')) as R4Elements);
}

export function r4Validator(): R4Validator {
  return (validator ??= createRequire(import.meta.url)(join(generatedDir(), 'r4-validator.cjs')) as R4Validator);
}

export const r4ResourceTypes = (): ReadonlySet<string> => (resourceTypes ??= new Set(r4Elements().resources));
