// One ajv instance; each document schema compiled once, on its first use (a start that ingests nothing compiles
// nothing: about 0.3 s of start-up, measured by the issue 25 bench).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { CanonicalDoc, ResourceType } from '../domain/documents.js';
import { RESOURCE_TYPES } from '../domain/documents.js';
import { DOCUMENT_SCHEMAS } from './schemas/index.js';

const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
const validators = new Map<ResourceType, ValidateFunction>();
const isResourceType = (t: string): t is ResourceType => (RESOURCE_TYPES as readonly string[]).includes(t);
function validatorOf(t: ResourceType): ValidateFunction {
  let v = validators.get(t);
  if (!v) validators.set(t, (v = ajv.compile(DOCUMENT_SCHEMAS[t])));
  return v;
}

export type ValidationResult = { ok: true; doc: CanonicalDoc } | { ok: false; reason: string };

export function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'invalid';
  return errors
    .filter((e) => e.keyword !== 'if')
    .slice(0, 5)
    .map((e) => {
      const where = e.instancePath || '(root)';
      if (e.keyword === 'enum') return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.slice(0, 8).join(', ')}`;
      if (e.keyword === 'additionalProperties') return `${where} has unknown property '${(e.params as { additionalProperty: string }).additionalProperty}'`;
      return `${where} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

export function validateDocument(value: unknown): ValidationResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'record must be a JSON object' };
  }
  const rt = (value as { resourceType?: unknown }).resourceType;
  if (typeof rt !== 'string' || !isResourceType(rt)) {
    return { ok: false, reason: `resourceType must be one of ${RESOURCE_TYPES.join(', ')}` };
  }
  const validate = validatorOf(rt);
  if (!validate(value)) return { ok: false, reason: describeErrors(validate.errors) };
  return { ok: true, doc: value as CanonicalDoc };
}
