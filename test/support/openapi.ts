// Checks a response against the generated OpenAPI document: the operation is found by method and path
// template, the status must be declared, and the body must match the declared schema.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import type { Response } from 'supertest';
import { buildOpenApi } from '../../src/http/openapi.js';
import type { RouteDef } from '../../src/api/route.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };

function findOperation(doc: Doc, method: string, path: string) {
  for (const [template, ops] of Object.entries(doc.paths)) {
    const re = new RegExp(`^${template.replace(/[$]/g, '\\$').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (re.test(path) && ops[method.toLowerCase()]) return { template, op: ops[method.toLowerCase()]! };
  }
  return undefined;
}

export function expectOpenApi(routes: readonly RouteDef[], res: Response, method = 'GET'): void {
  const doc = buildOpenApi(routes) as unknown as Doc;
  const path = new URL((res as unknown as { req: { path: string } }).req.path, 'http://x').pathname;
  const found = findOperation(doc, method, path);
  expect(found, `no OpenAPI operation for ${method} ${path}`).to.not.equal(undefined);
  const declared = found!.op.responses[String(res.status)];
  expect(declared, `status ${res.status} not declared for ${method} ${found!.template}`).to.not.equal(undefined);
  const content = declared!.content;
  if (!content) return;
  const [ct, media] = Object.entries(content)[0]!;
  expect(res.headers['content-type'] ?? '').to.contain(ct);
  let validate = compiled.get(media.schema);
  if (!validate) {
    validate = ajv.compile(media.schema);
    compiled.set(media.schema, validate);
  }
  const ok = validate(res.body);
  expect(ok, `${method} ${path} ${res.status} body does not match OpenAPI: ${ajv.errorsText(validate.errors)}`).to.equal(true);
}
