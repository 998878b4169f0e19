// Tests written to kill the plausible bugs a mutation spot-check of the suite left alive (issue 26): each `it` names
// the mutant it catches. Bodies are pinned to exact values where the value is known.
import { expect } from 'chai';
import request from 'supertest';
import { buildApp } from '../../src/app.js';
import { allRoutes } from '../../src/http/routes/index.js';
import type { RouteDef } from '../../src/api/route.js';
import { CRD_EXT } from '../../fhir-profiles/canonicals.js';
import { jurisdiction, payer, rule } from '../support/docs.js';
import { example, fhirCorpus } from '../support/fhir-corpus.js';
import { makeTestApp } from '../support/test-app.js';

const corpus = [
  jurisdiction('TX'),
  payer('tx-plan', 'TX Plan', ['TX'], ['medicaid_mco']),
  rule({ state: 'TX', program: 'part_d', code: 'hepatitis_c' }),
  rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' }),
  rule({ state: 'TX', program: 'medicaid_mco', code: 'diabetes_insulin' }),
];

describe('mutants the suite used to miss (issue 26)', () => {
  it('scope_gap 404 loses state/program: the body is exactly error, code, scope_gap, state, program, query and notify_url', async () => {
    const t = await makeTestApp(corpus);
    const key = await t.key();
    const res = await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=chip&drug=hepatitis_c').set('x-api-key', key);
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({
      error: "No verified rule for TX chip drug 'hepatitis_c' yet",
      code: 'scope_gap',
      scope_gap: true,
      state: 'TX',
      program: 'chip',
      query: { drug_class: 'hepatitis_c' },
      notify_url: '/v1/notify-when-ready',
    });
  });

  it('program dropped from the scope check of FHIR formulary and DTR routes: a TX part_d key reading TX medicaid_mco gets 403 naming the program', async () => {
    const t = await makeTestApp(corpus, { env: { FORMULARY_PUBLIC: 'false' } });
    const key = await t.key({ states: ['TX'], programs: ['part_d'] });
    const formulary = await request(t.app.handler).get('/v1/formulary/TX/medicaid_mco').set('x-api-key', key);
    expect(formulary.status).to.equal(403);
    expect(JSON.stringify(formulary.body)).to.contain('medicaid_mco');
    const own = await request(t.app.handler).get('/v1/formulary/TX/part_d').set('x-api-key', key);
    expect(own.status).to.equal(200);
    const dtr = await request(t.app.handler).get('/v1/dtr/questionnaire/TX/medicaid_mco/hepatitis_c').set('x-api-key', key);
    expect(dtr.status).to.equal(403);
    expect(JSON.stringify(dtr.body)).to.contain('medicaid_mco');
    const dtrOwn = await request(t.app.handler).get('/v1/dtr/questionnaire/TX/part_d/hepatitis_c').set('x-api-key', key);
    expect(dtrOwn.status).to.equal(200);
    expect(dtrOwn.body.resourceType).to.equal('Questionnaire');
  });

  it('rate-limit window keyed per minute instead of per hour: a new minute in the same hour is still limited; the next hour is not', async () => {
    let clock = new Date('2026-11-21T10:00:30.000Z');
    const t = await makeTestApp(corpus, { now: () => clock, env: { RATE_LIMITS: 'lookup=2' } });
    const key = await t.key();
    const call = () => request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=part_d&drug=hepatitis_c').set('x-api-key', key);
    expect((await call()).status).to.equal(200);
    expect((await call()).status).to.equal(200);
    const limited = await call();
    expect(limited.status).to.equal(429);
    expect(limited.body).to.include({ limit: 2, window: '1h', retry_after_seconds: 3570 });
    clock = new Date('2026-11-21T10:01:30.000Z'); // another minute, the same hour
    const stillLimited = await call();
    expect(stillLimited.status).to.equal(429);
    expect(stillLimited.body.retry_after_seconds).to.equal(3510);
    clock = new Date('2026-11-21T11:00:05.000Z'); // the next clock hour
    const next = await call();
    expect(next.status).to.equal(200);
    expect(next.headers.ratelimit).to.equal('"lookup";r=1;t=3595');
  });

  it('all demo sessions sharing one rate-limit bucket: a second session keeps its own budget when the first is spent', async () => {
    const clock = new Date('2026-11-21T10:00:00.000Z');
    const t = await makeTestApp(corpus, { now: () => clock, env: { RATE_LIMITS: 'demo_issue=10,demo_session=2' } });
    const probe: RouteDef = {
      id: 'demo-probe', method: 'GET', path: '/v1/demo-probe', auth: 'key_or_demo', group: 'action_plan', surface: 'json',
      handle: () => ({ status: 200, body: { ok: true } }), openapi: { summary: 'probe', tags: [], responses: {} },
    };
    const handler = buildApp(t.deps, [...allRoutes(t.deps), probe]).handler;
    const a = (await request(handler).post('/v1/demo-sessions')).body.session_id as string;
    const b = (await request(handler).post('/v1/demo-sessions')).body.session_id as string;
    expect(a).to.not.equal(b);
    for (let i = 0; i < 2; i++) expect((await request(handler).get('/v1/demo-probe').set('x-demo-session', a)).status).to.equal(200);
    expect((await request(handler).get('/v1/demo-probe').set('x-demo-session', a)).status).to.equal(429);
    const other = await request(handler).get('/v1/demo-probe').set('x-demo-session', b);
    expect(other.status).to.equal(200);
    expect(other.headers.ratelimit).to.equal('"demo_session";r=1;t=3600');
  });

  it('CRD coverage-information date set to the rule\'s verification date: it is the day of the hook call', async function () {
    this.timeout(30_000);
    const t = await makeTestApp(fhirCorpus(), { now: () => new Date('2026-11-24T15:00:00.000Z') });
    const key = await t.key();
    const res = await request(t.app.handler).post('/v1/cds-services/service-coverage-requirements').set('x-api-key', key).send(example('crd-2.2-order-sign-hook-request.json'));
    expect(res.status).to.equal(200);
    expect(res.body.systemActions.length).to.be.greaterThan(0);
    for (const a of res.body.systemActions) {
      const info = a.resource.extension.find((e: { url: string }) => e.url === CRD_EXT.coverageInformation);
      const dates = info.extension.filter((x: { url: string }) => x.url === 'date').map((x: { valueDate: string }) => x.valueDate);
      expect(dates).to.deep.equal(['2026-11-24']);
    }
  });
});

describe('schemathesis findings with an admin key (issue 26)', () => {
  it('an empty ?year= on pa-metrics and an empty ?state= or ?program= on staleness are 400s naming the parameter', async () => {
    const t = await makeTestApp(corpus);
    const admin = await t.key({ admin: true });
    const year = await request(t.app.handler).get('/v1/admin/pa-metrics?year=').set('x-api-key', admin);
    expect(year.status).to.equal(400);
    expect(year.body.code).to.equal('invalid_parameter');
    expect(year.body.error).to.match(/year/);
    for (const p of ['state', 'program']) {
      const res = await request(t.app.handler).get(`/v1/admin/staleness?${p}=`).set('x-api-key', admin);
      expect(res.status, p).to.equal(400);
      expect(res.body.error, p).to.be.a('string').and.not.equal('');
    }
    const ok = await request(t.app.handler).get('/v1/admin/pa-metrics').set('x-api-key', admin);
    expect(ok.status).to.equal(200);
    expect(ok.body.year).to.equal(new Date().getUTCFullYear());
  });
});
