// The OpenAPI document's examples are requests that work (issue 26): each operation whose parameters and body the
// document gives as examples answers 2xx when sent exactly so, against the sample corpus; each link names an
// operation of the document and only parameters that operation has. The CI fuzzer sends the same examples first.
import { expect } from 'chai';
import request from 'supertest';
import { buildOpenApi } from '../../src/http/openapi.js';
import { readFileSync } from 'node:fs';
import type { CanonicalDoc } from '../../src/domain/documents.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const fixture = (f: string): CanonicalDoc[] => readFileSync(new URL(`../../fixtures/${f}`, import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
/** The bundled sample corpus for the states the examples name (TX, OK), as a server started with it serves. */
const corpus = (): CanonicalDoc[] => [
  ...fixture('jurisdictions.ndjson'),
  ...fixture('payers.ndjson'),
  ...fixture('drugs.ndjson'),
  ...fixture('code-mappings.ndjson'),
  ...fixture('rules.ndjson').filter((d: Any) => d.jurisdiction === 'TX' || d.jurisdiction === 'OK'),
];

describe('OpenAPI examples and links', () => {
  let t: TestApp;
  let doc: Any;
  let key: string;
  let admin: string;
  before(async () => {
    t = await makeTestApp(corpus(), { env: { PUBLIC_BASE_URL: 'https://prauth.test' } });
    doc = buildOpenApi(t.app.routes);
    key = await t.key({ name: 'examples', compare: true });
    admin = await t.key({ name: 'examples-admin', admin: true });
  });

  const operations = (): { method: string; path: string; op: Any }[] =>
    Object.entries(doc.paths as Record<string, Record<string, Any>>).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })));

  /** The request the document shows, or undefined when a required part has no example. */
  function shown(path: string, op: Any): { url: string; body?: unknown; contentType?: string } | undefined {
    let url = path;
    const query = new URLSearchParams();
    for (const p of op.parameters ?? []) {
      if (p.example === undefined) {
        if (p.required) return undefined;
        continue;
      }
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(p.example).replace(/%24/g, '$'));
      else if (p.in === 'query') query.set(p.name, p.example);
    }
    if (url.includes('{')) return undefined;
    const content = op.requestBody?.content ?? {};
    const [contentType, media] = Object.entries(content as Record<string, Any>).find(([, m]) => m.example !== undefined) ?? [];
    if (op.requestBody?.required && !media) return undefined;
    // Parameters the document gives no example of at all (e.g. "exactly one of class, brand, generic"): not shown.
    const params = op.parameters ?? [];
    if (params.length && !params.some((p: Any) => p.example !== undefined) && !media) return undefined;
    return { url: `${url}${query.size ? `?${query}` : ''}`, ...(media ? { body: media.example, contentType } : {}) };
  }

  it('when each operation is sent as its examples show it, then it answers 2xx (and the keyed ones are most of the document)', async () => {
    const answered: string[] = [];
    for (const { method, path, op } of operations()) {
      const req = shown(path, op);
      if (!req || (method !== 'get' && req.body === undefined && op.requestBody)) continue;
      const apiKey = path.startsWith('/v1/admin') ? admin : key;
      let call = method === 'get' ? request(t.app.handler).get(req.url) : request(t.app.handler).post(req.url);
      call = call.set('x-api-key', apiKey);
      if (req.body !== undefined) call = call.set('content-type', req.contentType!).send(JSON.stringify(req.body));
      const res = await call;
      expect(res.status, `${method.toUpperCase()} ${req.url}: ${JSON.stringify(res.body).slice(0, 300)}`).to.be.within(200, 299);
      answered.push(`${method.toUpperCase()} ${path}`);
    }
    // The examples added for the fuzzer: the hooks, PAS, DTR and the keyed lookups are among them.
    for (const id of [
      'POST /v1/cds-services/service-coverage-requirements',
      'POST /v1/cds-services/service-coverage-requirements-encounter-discharge',
      'POST /v1/Claim/{op}',
      'POST /v1/Questionnaire/{op}',
      'POST /v1/Questionnaire/{id}/{op}',
      'POST /v1/Subscription',
      'GET /v1/Library/{id}',
      'GET /v1/ValueSet/{id}',
      'GET /v1/pauth-lookup',
      'GET /v1/compare',
      'POST /v1/admin/clients',
      'GET /v1/admin/pa-metrics',
    ]) expect(answered, id).to.include(id);
  });

  it('when a link names an operation, then that operation exists and has every parameter the link sets', () => {
    const byId = new Map(operations().map((o) => [o.op.operationId, o.op]));
    let links = 0;
    for (const { op } of operations()) {
      for (const resp of Object.values(op.responses as Record<string, Any>)) {
        for (const [name, link] of Object.entries((resp.links ?? {}) as Record<string, Any>)) {
          links++;
          const target = byId.get(link.operationId);
          expect(target, `${op.operationId} link ${name}`).to.exist;
          const names = (target.parameters ?? []).map((p: Any) => p.name);
          for (const p of Object.keys(link.parameters)) expect(names, `${op.operationId} link ${name} -> ${link.operationId}`).to.include(p);
          for (const expr of Object.values(link.parameters)) expect(expr).to.match(/^\$response\.body#\/[A-Za-z0-9_/]+$/);
        }
      }
    }
    // search -> read for the four formulary types (GET and POST _search), $submit -> ClaimResponse (2),
    // Subscription (2), admin clients (2), keys (2), PAS queue (3).
    expect(links).to.equal(19);
  });
});
