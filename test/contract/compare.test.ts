import { expect } from 'chai';
import request from 'supertest';
import { jurisdiction, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

describe('GET /v1/compare', () => {
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
      jurisdiction('WY', { mcoBrands: [], carveOuts: ['No risk-based MCOs'] }),
      rule({ state: 'TX', program: 'medicaid_mco', code: 'glp1_weight_loss', paType: 'full' }),
      rule({ state: 'CA', program: 'medicaid_mco', code: 'glp1_weight_loss', paType: 'full' }),
      rule({ state: 'NY', program: 'medicaid_mco', code: 'glp1_weight_loss', paType: 'step_therapy' }),
      rule({ state: 'FL', program: 'medicaid_mco', code: 'glp1_weight_loss', paType: 'full' }),
      rule({ state: 'OH', program: 'medicaid_mco', code: 'glp1_weight_loss', paRequired: false }),
      rule({ state: 'WA', program: 'medicaid_mco', code: 'glp1_weight_loss', status: 'draft' }),
      rule({ state: 'TX', program: 'medicare_advantage', kind: 'service', code: 'advanced_imaging', paType: 'conditional' }),
      rule({ state: 'CA', program: 'medicare_advantage', kind: 'service', code: 'advanced_imaging', paRequired: false }),
      rule({ state: 'PA', program: 'part_d', code: 'hepatitis_c' }),
      rule({ state: 'NJ', program: 'part_d', code: 'hepatitis_c', paRequired: false }),
    ]);
    key = await t.key({ name: 'compare', compare: true });
  });

  it('when five states are compared, then results keep the requested order and the summary names the outliers', async () => {
    const res = await get('/v1/compare?states=OH,TX,NY,CA,FL&program=medicaid_mco&drug=glp1_weight_loss');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.states).to.deep.equal(['OH', 'TX', 'NY', 'CA', 'FL']);
    expect(res.body.results.map((r: { state_abbr: string }) => r.state_abbr)).to.deep.equal(['OH', 'TX', 'NY', 'CA', 'FL']);
    expect(res.body).to.include({ program: 'medicaid_mco', served_from: 'api' });
    expect(res.body.query).to.deep.equal({ drug_class: 'glp1_weight_loss' });
    expect(res.body.results[1]).to.include({
      state_abbr: 'TX',
      gap: false,
      pa_required: true,
      pa_type: 'full',
      confidence: 0.7,
      notes: 'Criteria for glp1_weight_loss in TX',
      source_url: 'https://medicaid.tx.example.gov/pa/glp1_weight_loss',
      last_verified: '2026-11-01',
      federal_override: false,
      rule_id: 'tx.medicaid-mco.d.glp1-weight-loss',
    });
    expect(res.body.summary).to.deep.equal({
      total: 5,
      require_pa: 4,
      no_pa: 1,
      gaps: 0,
      divergence: true,
      divergence_summary:
        'PA required in 4 of 5 states with a verified rule; outlier without PA: OH. PA type differs: most states requiring PA use full; outlier: NY (step_therapy).',
      outliers: { pa_required: ['OH'], pa_type: ['NY'] },
      gap_states: [],
      not_covered: 0,
      not_covered_states: [],
    });
    expect(res.body.timestamp).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.headers['cache-control']).to.equal('private, max-age=3600');
  });

  it('when a state has no verified rule (none, or only a draft), then it is a gap item with nulls, not dropped', async () => {
    const res = await get('/v1/compare?states=TX,WA,NV&program=medicaid_mco&drug=glp1_weight_loss');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.results).to.have.length(3);
    expect(res.body.results[1]).to.deep.equal({
      state_abbr: 'WA',
      gap: true,
      pa_required: null,
      pa_type: null,
      confidence: null,
      notes: null,
      source_url: null,
      last_verified: null,
      federal_override: null,
      rule_id: null,
    });
    expect(res.body.summary).to.include({ total: 3, require_pa: 1, no_pa: 0, gaps: 2, divergence: false });
    expect(res.body.summary.divergence_summary).to.equal('The only state with a verified rule, TX, requires PA. No verified rule for WA, NV (gaps).');
  });

  it('when every state is a gap, then the summary says so and nothing diverges', async () => {
    const res = await get('/v1/compare?states=WA,NV&program=chip&service=dental');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.query).to.deep.equal({ service_category: 'dental' });
    expect(res.body.summary).to.include({ total: 2, require_pa: 0, no_pa: 0, gaps: 2, divergence: false });
    expect(res.body.summary.divergence_summary).to.equal('No verified rule in any of the 2 states. Gaps: WA, NV.');
  });

  it('when the subject is outside the program (an MRI under Part D), then every state is a gap and the body says no rule will exist and where to ask', async () => {
    const res = await get('/v1/compare?states=WA,NV&program=part_d&service=advanced_imaging');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.summary).to.include({ total: 2, gaps: 2 });
    expect(res.body.summary.divergence_summary).to.match(/^No verified rule in any of the 2 states\. Gaps: WA, NV\. Medicare Part D covers outpatient prescription drugs, not this service/);
    expect(res.body.outside_program.try_programs).to.deep.equal(['medicare_traditional', 'medicare_advantage']);
    const inside = await get('/v1/compare?states=WA,NV&program=chip&service=dental');
    expect(inside.body.outside_program).to.equal(undefined);
  });

  it('when one state has no Medicaid managed care plans (WY), then its row says no rule will exist and to ask fee-for-service; other gaps stay ordinary', async () => {
    const res = await get('/v1/compare?states=TX,WY,AK&program=medicaid_mco&drug=glp1_weight_loss');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    const [tx, wy, ak] = res.body.results;
    expect(tx.gap).to.equal(false);
    expect(wy).to.include({ gap: true });
    expect(wy.outside_program.try_programs).to.deep.equal(['medicaid_ffs']);
    expect(wy.outside_program.reason).to.contain('has no risk-based managed care plans');
    expect(ak).to.not.have.property('outside_program'); // no jurisdiction record here: an ordinary gap
    expect(res.body).to.not.have.property('outside_program');
    expect(res.body.summary.divergence_summary).to.equal(
      'The only state with a verified rule, TX, requires PA. No verified rule for WY, AK (gaps). No rule will exist for WY in this program (see each row\'s outside_program); ask medicaid_ffs instead.',
    );
  });

  it('when a service is compared and the states split evenly, then both sides are named', async () => {
    const res = await get('/v1/compare?states=TX,CA&program=ma&category=advanced_imaging');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.states).to.deep.equal(['TX', 'CA']);
    expect(res.body.program).to.equal('medicare_advantage');
    expect(res.body.summary).to.include({ require_pa: 1, no_pa: 1, divergence: true });
    expect(res.body.summary.divergence_summary).to.equal('PA requirement is split evenly: required in TX; not required in CA.');
    expect(res.body.summary.outliers).to.deep.equal({ pa_required: [], pa_type: [] });
  });

  it('when most states need no PA, then the minority requiring PA are the outliers', async () => {
    const res = await get('/v1/compare?states=NJ,PA,TX&program=part_d&drug=hepatitis_c');
    expect(res.status).to.equal(200);
    expect(res.body.summary.divergence_summary).to.equal(
      'PA requirement is split evenly: required in PA; not required in NJ. No verified rule for TX (gap).',
    );
  });

  it('when ten states are compared, then all ten come back; eleven is a 400', async () => {
    const ten = 'TX,CA,NY,FL,OH,WA,NV,PA,NJ,IL';
    const res = await get(`/v1/compare?states=${ten}&program=medicaid_mco&drug=glp1_weight_loss`);
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.results).to.have.length(10);
    expect(res.body.summary.total).to.equal(10);
    const eleven = await get(`/v1/compare?states=${ten},GA&program=medicaid_mco&drug=glp1_weight_loss`);
    expect(eleven.status).to.equal(400);
    expectOpenApi(t.app.routes, eleven);
  });

  const bad: [string, string, RegExp][] = [
    ['a missing states list', '?program=medicaid_mco&drug=hepatitis_c', /Missing required parameter 'states'/],
    ['a single state', '?states=TX&program=medicaid_mco&drug=hepatitis_c', /2 to 10 comma-separated/],
    ['a malformed list (trailing comma)', '?states=TX,CA,&program=medicaid_mco&drug=hepatitis_c', /2 to 10 comma-separated/],
    ['a malformed list (spaces)', '?states=TX,%20CA&program=medicaid_mco&drug=hepatitis_c', /2 to 10 comma-separated/],
    ['a malformed list (three letters)', '?states=TX,CAL&program=medicaid_mco&drug=hepatitis_c', /2 to 10 comma-separated/],
    ['an unknown state', '?states=TX,ZZ,QQ&program=medicaid_mco&drug=hepatitis_c', /ZZ, QQ are not a state/],
    ['a duplicate state', '?states=TX,CA,TX&program=medicaid_mco&drug=hepatitis_c', /TX is listed more than once/],
    ['a repeated states parameter', '?states=TX,CA&states=NY,FL&program=medicaid_mco&drug=hepatitis_c', /more than once/],
    ['both drug and service', '?states=TX,CA&program=medicaid_mco&drug=hepatitis_c&service=dental', /exactly one/],
    ['neither drug nor service', '?states=TX,CA&program=medicaid_mco', /exactly one/],
    ['a missing program', '?states=TX,CA&drug=hepatitis_c', /Missing required parameter 'program'/],
    ['an unknown program', '?states=TX,CA&program=medigap&drug=hepatitis_c', /Invalid program/],
    ['an unknown drug class', '?states=TX,CA&program=medicaid_mco&drug=aspirin', /Invalid drug 'aspirin'/],
    ['an unknown service', '?states=TX,CA&program=medicaid_mco&service=massage', /Invalid service 'massage'/],
  ];
  for (const [what, qs, message] of bad) {
    it(`when given ${what}, then 400 saying what is wrong`, async () => {
      const res = await get(`/v1/compare${qs}`);
      expect(res.status).to.equal(400);
      expectOpenApi(t.app.routes, res);
      expect(res.body.error).to.match(message);
      expect(res.body.code).to.be.oneOf(['missing_parameter', 'invalid_parameter', 'conflicting_parameters']);
    });
  }

  it('when the key is missing or unknown, then 401', async () => {
    const path = '/v1/compare?states=TX,CA&program=medicaid_mco&drug=glp1_weight_loss';
    const missing = await get(path, null);
    expect(missing.status).to.equal(401);
    expectOpenApi(t.app.routes, missing);
    expect(missing.body.error).to.match(/Missing API key/);
    const unknown = await get(path, '0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b');
    expect(unknown.status).to.equal(401);
    expectOpenApi(t.app.routes, unknown);
  });

  it('when the key lacks the Compare add-on, then 403 naming the add-on', async () => {
    const k = await t.key({ name: 'no add-on' });
    const res = await get('/v1/compare?states=TX,CA&program=medicaid_mco&drug=glp1_weight_loss', k);
    expect(res.status).to.equal(403);
    expectOpenApi(t.app.routes, res);
    expect(res.body).to.deep.include({ code: 'forbidden', out_of_scope: { add_on: 'compare' } });
  });

  it('when some requested states or the program are outside the key scope, then 403 naming exactly those', async () => {
    const k = await t.key({ compare: true, states: ['TX', 'CA'], programs: ['medicaid_mco'] });
    const res = await get('/v1/compare?states=TX,NY,CA,FL&program=medicaid_mco&drug=glp1_weight_loss', k);
    expect(res.status).to.equal(403);
    expectOpenApi(t.app.routes, res);
    expect(res.body.error).to.equal("States NY, FL not in this key's subscription");
    expect(res.body.out_of_scope).to.deep.equal({ states: ['NY', 'FL'] });
    const program = await get('/v1/compare?states=TX,CA&program=chip&drug=glp1_weight_loss', k);
    expect(program.status).to.equal(403);
    expect(program.body.out_of_scope).to.deep.equal({ programs: ['chip'] });
    const inScope = await get('/v1/compare?states=TX,CA&program=medicaid_mco&drug=glp1_weight_loss', k);
    expect(inScope.status).to.equal(200);
  });

  it('when the key subscription excludes the compare endpoint group, then 403', async () => {
    const k = await t.key({ compare: true, groups: ['lookup'] });
    const res = await get('/v1/compare?states=TX,CA&program=medicaid_mco&drug=glp1_weight_loss', k);
    expect(res.status).to.equal(403);
    expectOpenApi(t.app.routes, res);
    expect(res.body.error).to.contain("'compare'");
  });
});
