// One dispatch (issue 24): the surface of an address no route answers is read from the route table, and the answer
// while the service starts is rendered for it like every other error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import request from 'supertest';
import { allRoutes } from '../../src/http/routes/index.js';
import { startingUp, surfaceFinder } from '../../src/http/dispatch.js';
import { makeTestApp, testConfig, type TestApp } from '../support/test-app.js';

describe('dispatch: one way through for every route', () => {
  const routes = allRoutes({ config: testConfig() });
  const surfaceOf = surfaceFinder(routes);

  it('when an address is not a route, then its surface is that of the routes sharing its leading segments', () => {
    expect(surfaceOf('/v1/Claim/unknown')).to.equal('fhir');
    expect(surfaceOf('/v1/Claim')).to.equal('fhir');
    expect(surfaceOf('/v1/formulary/TX')).to.equal('fhir');
    expect(surfaceOf('/v1/MedicationKnowledge/x/y')).to.equal('fhir');
    expect(surfaceOf('/v1/cds-services/unknown-hook')).to.equal('cds');
    expect(surfaceOf('/v1/unknown')).to.equal('json');
    expect(surfaceOf('/v1/admin/whatever')).to.equal('json');
    expect(surfaceOf('/')).to.equal('json');
  });

  it('when every route is asked for its own address, then its own surface comes back', () => {
    for (const r of routes) expect(surfaceOf(r.path), r.path).to.equal(r.surface);
  });

  describe('while the service starts', () => {
    let server: Server;
    let base: string;
    before(async () => {
      server = createServer(startingUp(routes, pino({ level: 'silent' })));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('when a FHIR address is asked, then 503 as an OperationOutcome with Retry-After', async () => {
      const res = await request(base).get('/v1/metadata');
      expect(res.status).to.equal(503);
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.headers['content-type']).to.match(/^application\/fhir\+json/);
      expect(res.body.resourceType).to.equal('OperationOutcome');
      expect(res.body.issue[0].diagnostics).to.equal('The service is starting; retry in a second');
    });

    it('when a JSON address is asked, then 503 as the JSON error body with its code', async () => {
      const res = await request(base).get('/v1/pauth-lookup?state=TX');
      expect(res.status).to.equal(503);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.body).to.include({ error: 'The service is starting; retry in a second', code: 'service_unavailable' });
      expect(res.headers['cache-control']).to.equal('no-store');
    });
  });

  describe('bodies on exact and parameterised routes alike', () => {
    let t: TestApp;
    before(async () => {
      t = await makeTestApp([]);
    });
    it('when malformed JSON goes to an exact-path POST and to a parameterised POST, then both answer 400 malformed_json in their surface', async () => {
      const key = await t.key({ name: 'd' });
      const exact = await request(t.app.handler).post('/v1/ask').set('x-api-key', key).set('content-type', 'application/json').send('{"question":');
      expect(exact.status).to.equal(400);
      expect(exact.body.code).to.equal('malformed_json');
      const param = await request(t.app.handler).post('/v1/Questionnaire/$questionnaire-package').set('x-api-key', key).set('content-type', 'application/fhir+json').send('{"resourceType":');
      expect(param.status).to.equal(400);
      expect(param.body.resourceType).to.equal('OperationOutcome');
      expect(JSON.stringify(param.body)).to.contain('malformed_json');
    });
    it('when a parameterised address is asked with a method its routes do not serve, then 405 with Allow in its surface; an address no template takes stays 404', async () => {
      const key = await t.key({ name: 'm' });
      const trace = await request(t.app.handler).trace('/v1/ClaimResponse/PA-0000000000').set('x-api-key', key);
      expect(trace.status).to.equal(405);
      expect(trace.headers.allow).to.equal('GET, HEAD, OPTIONS');
      expect(trace.body.resourceType).to.equal('OperationOutcome');
      const put = await request(t.app.handler).put('/v1/admin/pas/PA-0000000000/decide').set('x-api-key', key).send({});
      expect(put.status).to.equal(405);
      expect(put.headers.allow).to.equal('POST, OPTIONS');
      expect(put.body.code).to.equal('method_not_allowed');
      const getOp = await request(t.app.handler).get('/v1/Claim/$submit').set('x-api-key', key);
      expect(getOp.status).to.equal(405);
      expect(getOp.headers.allow).to.equal('POST, OPTIONS');
      // POST /Claim/{id} without a $ is refused by that route itself (405, Allow: GET): GET there is no route at all.
      const getId = await request(t.app.handler).get('/v1/Claim/unknown').set('x-api-key', key);
      expect(getId.status).to.equal(404);
      expect(getId.body.resourceType).to.equal('OperationOutcome');
      const deeper = await request(t.app.handler).delete('/v1/ClaimResponse/PA-1/extra/segments').set('x-api-key', key);
      expect(deeper.status).to.equal(404);
    });

    it('when a body of another type goes to either, then 415 naming the type to send', async () => {
      const key = await t.key({ name: 'e' });
      const exact = await request(t.app.handler).post('/v1/ask').set('x-api-key', key).set('content-type', 'text/plain').send('hello');
      expect(exact.status).to.equal(415);
      expect(exact.body.error).to.equal('Send the body as application/json');
      const param = await request(t.app.handler).post('/v1/Claim/$submit').set('x-api-key', key).set('content-type', 'text/plain').send('hello');
      expect(param.status).to.equal(415);
      expect(JSON.stringify(param.body)).to.contain('Send the body as application/fhir+json');
    });
  });
});

describe('the manifest lists the route table', () => {
  it('when the manifest is read, then every route is listed once as METHOD /path with its summary, hooks, $inquire and Subscription included', async () => {
    const t = await makeTestApp([]);
    const res = await request(t.app.handler).get('/v1/manifest');
    expect(res.status).to.equal(200);
    const endpoints = res.body.endpoints as Record<string, string>;
    expect(Object.keys(endpoints)).to.have.length(t.app.routes.length);
    for (const r of t.app.routes) expect(endpoints[r.id], r.id).to.match(new RegExp(`^${r.method} ${r.path.replace(/:(\w+)/g, '{$1}').replace(/[$.?]/g, '\\$&')}: ${r.openapi.summary.slice(0, 20).replace(/[()$.?+*[\]]/g, '\\$&')}`));
    const all = Object.values(endpoints).join('\n');
    for (const line of ['POST /v1/cds-services/service-coverage-requirements-appointment:', 'POST /v1/cds-services/service-coverage-requirements-encounter-discharge:', 'POST /v1/Claim/{op}:', 'POST /v1/Subscription:', 'GET /v1/pa-lookup:']) {
      expect(all).to.contain(line);
    }
    expect(endpoints['pa-lookup'] ?? Object.values(endpoints).find((l) => l.startsWith('GET /v1/pa-lookup'))).to.contain('deprecated');
  });
});
