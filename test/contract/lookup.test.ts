import { expect } from 'chai';
import request from 'supertest';
import { jurisdiction, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

describe('GET /v1/pauth-lookup and /v1/pa-lookup', () => {
  let t: TestApp;
  let key: string;
  const get = (path: string, k: string | null = key) => {
    const r = request(t.app.handler).get(path);
    return k ? r.set('x-api-key', k) : r;
  };

  before(async () => {
    t = await makeTestApp([
      jurisdiction('TX'),
      jurisdiction('CA'),
      // A state whose Medicaid runs no managed care plans (as the nine FFS states' jurisdiction records say).
      jurisdiction('WY', { mcoBrands: [], carveOuts: ['No risk-based MCOs; Wyoming Medicaid pays fee-for-service'] }),
      rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', paType: 'full' }),
      rule({ state: 'TX', program: 'medicare_advantage', kind: 'service', code: 'advanced_imaging', paType: 'conditional' }),
      rule({ state: 'TX', program: 'dual_eligible', code: 'glp1_weight_loss', paRequired: false }),
      rule({ state: 'CA', program: 'medicaid_mco', code: 'hepatitis_c', status: 'draft' }),
      // Issue 28: a step-therapy rule whose stored list already repeats an item.
      (() => {
        const r = rule({ state: 'TX', program: 'medicaid_mco', code: 'diabetes_non_insulin', paType: 'step_therapy' });
        return { ...r, requirement: { ...r.requirement, documentation: ['A1c result', 'Metformin trial or contraindication', 'A1c result.'], stepTherapy: 'Metformin first unless contraindicated.' } };
      })(),
    ]);
    key = await t.key({ name: 'test' });
  });

  it('when the rule exists, then it answers the PaRule with citation and the three next steps in order', async () => {
    const res = await get('/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body).to.include({ state: 'TX', program: 'medicaid_mco', served_from: 'static' });
    expect(res.body.query).to.deep.equal({ drug_class: 'hepatitis_c' });
    expect(res.body.result).to.include({
      pa_required: true,
      pa_type: 'full',
      confidence: 0.7,
      source_url: 'https://medicaid.tx.example.gov/pa/hepatitis_c',
      last_verified: '2026-11-01',
      federal_override: false,
      rule_id: 'tx.medicaid-mco.d.hepatitis-c',
    });
    expect(res.body.next_steps.map((s: { step: number; title: string }) => [s.step, s.title])).to.deep.equal([
      [1, 'Gather clinical documentation'],
      [2, 'Submit the prior authorization request'],
      [3, 'Expected turnaround'],
    ]);
    expect(res.body.next_steps[0].items).to.deep.equal(['Diagnosis', 'Prior therapies tried']);
    expect(res.body.next_steps[1].items[0]).to.equal('Submit to: TX PA portal');
    expect(res.body.next_steps[2].items).to.include('Standard: 7 calendar days (168 hours)');
    expect(res.body.next_steps[2].items).to.include('Expedited: 72 hours');
    expect(res.body.timestamp).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Math.abs(Date.parse(res.body.timestamp) - Date.now())).to.be.lessThan(5000);
    expect(res.headers['cache-control']).to.equal('private, max-age=3600');
    expect(res.headers.vary).to.contain('x-api-key');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers['access-control-expose-headers']).to.contain('Retry-After').and.contain('Deprecation').and.contain('Sunset').and.contain('RateLimit');
  });

  it('when a service is looked up, then query holds service_category', async () => {
    const res = await get('/v1/pauth-lookup?state=TX&program=medicare_advantage&service=advanced_imaging');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.query).to.deep.equal({ service_category: 'advanced_imaging' });
    expect(res.body.result.pa_type).to.equal('conditional');
  });

  it('when PA is not required, then the steps say so instead of inventing a submission', async () => {
    const res = await get('/v1/pauth-lookup?state=TX&program=dual_eligible&drug=glp1_weight_loss');
    expect(res.status).to.equal(200);
    expect(res.body.result.pa_required).to.equal(false);
    expect(res.body.next_steps[1].items[0]).to.match(/^No prior authorization request is needed/);
    expect(res.body.next_steps[2].items).to.deep.equal(['No decision to wait for']);
  });

  it('when clients send the aliases real clients use (drug_class, category, ma, dual), then they are accepted; a lower-case state is not', async () => {
    const a = await get('/v1/pauth-lookup?state=TX&program=medicaid_mco&drug_class=hepatitis_c');
    expect(a.status).to.equal(200);
    expect(a.body.state).to.equal('TX');
    const lower = await get('/v1/pauth-lookup?state=tx&program=medicaid_mco&drug_class=hepatitis_c');
    expect(lower.status).to.equal(400);
    expect(lower.body.error).to.contain('^[A-Z]{2}$');
    const b = await get('/v1/pauth-lookup?state=TX&program=ma&category=advanced_imaging');
    expect(b.status).to.equal(200);
    expect(b.body.program).to.equal('medicare_advantage');
    const c = await get('/v1/pauth-lookup?state=TX&program=dual&drug=glp1_weight_loss');
    expect(c.body.program).to.equal('dual_eligible');
  });

  const bad: [string, string, RegExp][] = [
    ['both drug and service', '?state=TX&program=medicaid_mco&drug=hepatitis_c&service=dental', /exactly one/],
    ['neither drug nor service', '?state=TX&program=medicaid_mco', /exactly one/],
    ['missing state', '?program=medicaid_mco&drug=hepatitis_c', /Missing required parameter 'state'/],
    ['an unknown state', '?state=ZZ&program=medicaid_mco&drug=hepatitis_c', /Invalid state 'ZZ'/],
    ['a malformed state', '?state=TEX&program=medicaid_mco&drug=hepatitis_c', /Invalid state/],
    ['an unknown program', '?state=TX&program=medigap&drug=hepatitis_c', /Invalid program 'medigap'/],
    ['an unknown drug class', '?state=TX&program=medicaid_mco&drug=aspirin', /Invalid drug 'aspirin'/],
    ['an unknown service', '?state=TX&program=medicaid_mco&service=massage', /Invalid service 'massage'/],
    ['a repeated parameter', '?state=TX&state=CA&program=medicaid_mco&drug=hepatitis_c', /more than once/],
    ['conflicting aliases', '?state=TX&program=medicaid_mco&drug=hepatitis_c&drug_class=biosimilars', /different values/],
  ];
  for (const [what, qs, message] of bad) {
    it(`when given ${what}, then 400 with a message that says what is wrong`, async () => {
      const res = await get(`/v1/pauth-lookup${qs}`);
      expect(res.status).to.equal(400);
      expectOpenApi(t.app.routes, res);
      expect(res.body.error).to.match(message);
      expect(res.body.code).to.be.oneOf(['missing_parameter', 'invalid_parameter', 'conflicting_parameters']);
      expect(res.headers['cache-control']).to.equal('no-store');
    });
  }

  it('when the key is missing, malformed, unknown or revoked, then 401 {error}', async () => {
    const path = '/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c';
    const missing = await get(path, null);
    expect(missing.status).to.equal(401);
    expect(missing.body.error).to.match(/Missing API key/);
    expectOpenApi(t.app.routes, missing);
    expect((await get(path, 'not-a-uuid')).status).to.equal(401);
    expect((await get(path, '0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b')).status).to.equal(401);
    const { key: k, record } = await t.deps.keys.create({ name: 'soon revoked' });
    expect((await get(path, k)).status).to.equal(200);
    await t.deps.keys.revoke(record.id);
    const revoked = await get(path, k);
    expect(revoked.status).to.equal(401);
    expect(revoked.body.error).to.match(/revoked/);
  });

  it('when the state or program is outside the key scope, then 403 naming it', async () => {
    const k = await t.key({ states: ['CA'], programs: ['medicaid_mco'] });
    const state = await get('/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c', k);
    expect(state.status).to.equal(403);
    expectOpenApi(t.app.routes, state);
    expect(state.body).to.deep.include({ code: 'forbidden', out_of_scope: { states: ['TX'] } });
    const k2 = await t.key({ programs: ['chip'] });
    const program = await get('/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c', k2);
    expect(program.status).to.equal(403);
    expect(program.body.error).to.contain('medicaid_mco');
    const k3 = await t.key({ groups: ['compare'] });
    const group = await get('/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c', k3);
    expect(group.status).to.equal(403);
    expect(group.body.error).to.contain("'lookup'");
  });

  it('when there is no verified rule (none, or only a draft), then 404 scope_gap with a distinguishing field', async () => {
    for (const qs of ['?state=TX&program=chip&drug=hepatitis_c', '?state=CA&program=medicaid_mco&drug=hepatitis_c']) {
      const res = await get(`/v1/pauth-lookup${qs}`);
      expect(res.status).to.equal(404);
      expectOpenApi(t.app.routes, res);
      expect(res.body).to.include({ code: 'scope_gap', scope_gap: true });
      expect(res.body.query).to.deep.equal({ drug_class: 'hepatitis_c' });
      expect(res.body.notify_url).to.equal('/v1/notify-when-ready');
    }
    const unknownPath = await get('/v1/nothing-here');
    expect(unknownPath.status).to.equal(404);
    expect(unknownPath.body.scope_gap).to.equal(undefined);
  });

  it('when the subject is outside the program (a non-drug service under Part D), then the 404 says no rule will exist and names the programs to ask, with no notify_url', async () => {
    const res = await get('/v1/pauth-lookup?state=TX&program=part_d&service=advanced_imaging');
    expect(res.status).to.equal(404);
    expectOpenApi(t.app.routes, res);
    expect(res.body).to.include({ code: 'scope_gap', scope_gap: true, program: 'part_d' });
    expect(res.body.error).to.contain('none will exist');
    expect(res.body.notify_url).to.equal(undefined);
    expect(res.body.outside_program.try_programs).to.deep.equal(['medicare_traditional', 'medicare_advantage']);
    expect(res.body.outside_program.reason).to.match(/Part D covers outpatient prescription drugs/);
    // Medicaid managed care in a state that runs none: no rule will exist either; ask fee-for-service.
    const noMco = await get('/v1/pauth-lookup?state=WY&program=medicaid_mco&service=advanced_imaging');
    expect(noMco.status).to.equal(404);
    expectOpenApi(t.app.routes, noMco);
    expect(noMco.body.notify_url).to.equal(undefined);
    expect(noMco.body.outside_program).to.deep.equal({
      reason: 'State WY Medicaid has no risk-based managed care plans (No risk-based MCOs; Wyoming Medicaid pays fee-for-service): its Medicaid rules are fee-for-service.',
      try_programs: ['medicaid_ffs'],
    });
    // Part D's own service categories (pharmacy, specialty tier) are inside its benefit: an ordinary gap.
    const inside = await get('/v1/pauth-lookup?state=TX&program=part_d&service=specialty_drugs');
    expect(inside.status).to.equal(404);
    expect(inside.body.notify_url).to.equal('/v1/notify-when-ready');
    expect(inside.body.outside_program).to.equal(undefined);
  });

  it('when the deprecated alias is called, then it answers the same payload with RFC 9745 Deprecation and RFC 8594 Sunset headers', async () => {
    const qs = '?state=TX&program=medicaid_mco&drug=hepatitis_c';
    const [now, old] = await Promise.all([get(`/v1/pauth-lookup${qs}`), get(`/v1/pa-lookup${qs}`)]);
    expect(old.status).to.equal(200);
    expectOpenApi(t.app.routes, old);
    const strip = (b: Record<string, unknown>) => ({ ...b, timestamp: undefined });
    expect(strip(old.body)).to.deep.equal(strip(now.body));
    expect(old.headers.deprecation).to.match(/^@\d+$/);
    expect(Number(old.headers.deprecation!.slice(1)) * 1000).to.equal(Date.parse('2026-11-21T00:00:00Z'));
    expect(old.headers.sunset).to.equal('Wed, 30 Jun 2027 23:59:59 GMT');
    expect(old.headers.link).to.equal('</v1/pauth-lookup>; rel="successor-version"');
    expect(now.headers.deprecation).to.equal(undefined);
    const gap = await get('/v1/pa-lookup?state=TX&program=chip&drug=hepatitis_c');
    expect(gap.status).to.equal(404);
    expect(gap.headers.sunset).to.equal('Wed, 30 Jun 2027 23:59:59 GMT');
  });

  it('when asked with HEAD or OPTIONS, then headers only, and CORS preflight allows the key headers', async () => {
    const head = await request(t.app.handler).head('/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c').set('x-api-key', key);
    expect(head.status).to.equal(200);
    expect(head.text ?? '').to.equal('');
    const pre = await request(t.app.handler).options('/v1/pauth-lookup').set('Origin', 'https://ehr.example').set('Access-Control-Request-Method', 'GET');
    expect(pre.status).to.equal(204);
    expect(pre.headers['access-control-allow-origin']).to.equal('*');
    expect(pre.headers['access-control-allow-headers']).to.contain('X-Api-Key');
    // What browser apps send: Prefer (handling=strict), conditional requests, gzip bodies.
    for (const h of ['Prefer', 'If-None-Match', 'If-Modified-Since', 'Content-Encoding', 'Authorization']) expect(pre.headers['access-control-allow-headers'].split(', ')).to.include(h);
  });

  it('when a method is not served on a known path, then 405 with Allow', async () => {
    const res = await request(t.app.handler).post('/v1/pauth-lookup').set('x-api-key', key).send({});
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.contain('GET');
    expect(res.body.code).to.equal('method_not_allowed');
  });

  it('when a step-therapy rule is answered again and again (lookup and ask), then documentation and next steps never repeat an item', async () => {
    const docs = ['A1c result', 'Metformin trial or contraindication'];
    const gather = [...docs, 'Step therapy: Metformin first unless contraindicated.'];
    for (let i = 0; i < 3; i++) {
      const ask = await request(t.app.handler).post('/v1/ask').set('x-api-key', key).send({ question: 'diabetes pills', state: 'TX', program: 'medicaid_mco' });
      expect(ask.status).to.equal(200);
      expect(ask.body.answers[0].result.documentation).to.deep.equal(docs);
      expect(ask.body.answers[0].next_steps[0].items).to.deep.equal(gather);
      const res = await get('/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=diabetes_non_insulin');
      expect(res.status).to.equal(200);
      expect(res.body.result.documentation).to.deep.equal(docs);
      expect(res.body.next_steps[0]).to.deep.equal({ step: 1, title: 'Gather clinical documentation', items: gather });
    }
  });
});
