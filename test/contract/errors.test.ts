import { expect } from 'chai';
import { Writable } from 'node:stream';
import request from 'supertest';
import { buildApp } from '../../src/app.js';
import { allRoutes } from '../../src/http/routes/index.js';
import type { RouteDef } from '../../src/api/route.js';
import { createLogger } from '../../src/logger.js';
import { jurisdiction, rule } from '../support/docs.js';
import { makeTestApp } from '../support/test-app.js';

function captureLog(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, stream };
}

describe('errors: bodies, status codes, and what reaches the log', () => {
  it('when a route throws an unexpected error, then 500 with a request id and no internals, and the log has the stack', async () => {
    const cap = captureLog();
    const t = await makeTestApp([], {
      extend: (deps) => {
        deps.log = createLogger('info', cap.stream);
      },
    });
    const boom: RouteDef = {
      id: 'boom',
      method: 'GET',
      path: '/v1/boom',
      auth: 'none',
      surface: 'json',
      handle() {
        throw new Error('secret internal detail: connection string mongodb://user:pw@db');
      },
      openapi: { summary: 'test', tags: [], responses: {} },
    };
    const app = buildApp(t.deps, [...allRoutes(t.deps), boom]);
    const res = await request(app.handler).get('/v1/boom').set('x-request-id', 'req-123');
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({
      error: 'Internal server error; quote request id req-123 when reporting it',
      code: 'internal_error',
      request_id: 'req-123',
    });
    expect(res.text).to.not.contain('secret');
    expect(res.headers['x-request-id']).to.equal('req-123');
    const logged = cap.lines.join('');
    // Operators get the class and the stack frames; not the message, which can quote a request value.
    expect(logged).to.contain('"type":"Error"');
    expect(logged).to.match(/at .*errors\.test\.ts/);
    expect(logged).to.not.contain('secret internal detail');
    expect(logged).to.contain('"reqId":"req-123"');
  });

  it('when bodies are malformed, oversized or of the wrong type, then 400, 413 and 415, never 500', async () => {
    const t = await makeTestApp([], { env: { BODY_LIMIT: '1kb', INGEST_BODY_LIMIT: '2kb' } });
    const admin = await t.key({ admin: true });
    // The ingest route reads records under its own limit: 1.5 kB passes the reader, 3 kB is refused naming 2kb.
    const records = (n: number) => JSON.stringify({ records: [{ resourceType: 'Jurisdiction', id: 'TX', pad: 'x'.repeat(n) }] });
    const fits = await request(t.app.handler).post('/v1/admin/ingest').set('x-api-key', admin).set('content-type', 'application/json').send(records(1500));
    expect(fits.status).to.not.equal(413);
    const over = await request(t.app.handler).post('/v1/admin/ingest').set('x-api-key', admin).set('content-type', 'application/json').send(records(3000));
    expect(over.status).to.equal(413);
    expect(over.body).to.deep.include({ code: 'payload_too_large', error: 'Body larger than the 2kb limit' });
    const malformed = await request(t.app.handler).post('/v1/admin/keys').set('x-api-key', admin).set('content-type', 'application/json').send('{"name": ');
    expect(malformed.status).to.equal(400);
    expect(malformed.body).to.deep.include({ code: 'malformed_json', error: 'Malformed JSON body' });
    const big = await request(t.app.handler).post('/v1/admin/keys').set('x-api-key', admin).set('content-type', 'application/json').send(JSON.stringify({ name: 'x'.repeat(5000) }));
    expect(big.status).to.equal(413);
    expect(big.body.code).to.equal('payload_too_large');
    const text = await request(t.app.handler).post('/v1/admin/keys').set('x-api-key', admin).set('content-type', 'text/plain').send('hello');
    expect(text.status).to.equal(415);
    const wrongShape = await request(t.app.handler).post('/v1/admin/keys').set('x-api-key', admin).send({ states: 'TX' });
    expect(wrongShape.status).to.equal(400);
    expect(wrongShape.body.error).to.equal("'states' must be an array of strings");
  });

  it('when a FHIR path gets a malformed body, then the error is an OperationOutcome in application/fhir+json', async () => {
    const t = await makeTestApp([]);
    const res = await request(t.app.handler).post('/v1/Claim/$submit').set('content-type', 'application/fhir+json').send('{oops');
    expect(res.status).to.equal(400);
    expect(res.headers['content-type']).to.contain('application/fhir+json');
    expect(res.body.resourceType).to.equal('OperationOutcome');
    expect(res.body.issue[0]).to.include({ severity: 'error', code: 'invalid', diagnostics: 'Malformed JSON body' });
  });

  it('when requests carry keys, tokens and bodies, then none of them reaches the log', async () => {
    const cap = captureLog();
    const t = await makeTestApp([jurisdiction('TX'), rule({ state: 'TX', program: 'chip', code: 'hepatitis_c' })], {
      extend: (deps) => {
        deps.log = createLogger('debug', cap.stream);
      },
    });
    const key = await t.key();
    const admin = await t.key({ admin: true });
    await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=chip&drug=hepatitis_c').set('x-api-key', key);
    await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=chip&drug=hepatitis_c').set('x-api-key', '0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b');
    const created = await request(t.app.handler).post('/v1/admin/keys').set('x-api-key', admin).send({ name: 'jane.doe@example.org' });
    const logged = cap.lines.join('');
    expect(cap.lines.length).to.be.greaterThan(2);
    for (const secret of [key, admin, '0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b', created.body.key, 'jane.doe@example.org', 'hepatitis_c']) {
      expect(logged).to.not.contain(secret);
    }
    expect(logged).to.contain('"path":"/v1/pauth-lookup"');
  });
});
