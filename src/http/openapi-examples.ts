// The pieces of the OpenAPI document that show a working request (parameter and body examples), from what the
// declarations state (their links are OpenAPI Link objects as they stand). The examples run against the bundled
// sample corpus; scripts/ci/schemathesis.sh sends them first, so every keyed operation is exercised past its refusals.
import type { DeclExample } from '../api/decl-types.js';

/** A parameter object with the example the declaration gives for it, if any. */
export function withExample<P extends { name: string }>(param: P, example: DeclExample | undefined): P | (P & { example: string }) {
  const value = example?.params?.[param.name];
  return value === undefined ? param : { ...param, example: value };
}

/** A required request body of `mediaType`, with the declaration's example body when it gives one. */
export function bodyOf(mediaType: string, schema: Record<string, unknown>, example: DeclExample | undefined): Record<string, unknown> {
  return { required: true, content: { [mediaType]: { schema, ...(example?.body !== undefined ? { example: example.body } : {}) } } };
}
