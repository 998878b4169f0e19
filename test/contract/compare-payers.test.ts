import { expect } from 'chai';
import request from 'supertest';
import type { CodeMappingDoc } from '../../src/domain/documents.js';
import { jurisdiction, payer, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

const superior = { id: 'tx-superior', name: 'Superior HealthPlan' };
const molina = { id: 'tx-molina', name: 'Molina Healthcare of Texas' };
const humana = { id: 'humana-ma', name: 'Humana Medicare Advantage' };

const stateListEntry: CodeMappingDoc = {
  resourceType: 'CodeMapping',
  id: 'tx.cpt.70553',
  system: 'CPT',
  code: '70553',
  serviceCategory: 'advanced_imaging',
  jurisdiction: 'TX',
  description: 'TX PA list: MRI brain with and without contrast',
  source: { title: 'TX PA code list', url: 'https://medicaid.tx.example.gov/pa-codes' },
};
const nationalRange: CodeMappingDoc = {
  resourceType: 'CodeMapping',
  id: 'us.hcpcs.e0100-e8002',
  system: 'HCPCS',
  range: { from: 'E0100', to: 'E8002' },
  serviceCategory: 'durable_medical_equipment',
  description: 'Durable medical equipment',
};

describe('GET /v1/compare-payers', () => {
  let t: TestApp;
  let key: string;
  const get = (path: string, k: string | null = key) => {
    const r = request(t.app.handler).get(path);
    return k ? r.set('x-api-key', k) : r;
  };

  before(async () => {
    t = await makeTestApp([
      jurisdiction('TX'),
      payer('tx-superior', 'Superior HealthPlan', ['TX']),
      payer('tx-molina', 'Molina Healthcare of Texas', ['TX']),
      payer('tx-community', 'Community First Health Plans', ['TX']),
      { ...payer('humana-ma', 'Humana Medicare Advantage', ['TX', 'FL'], ['medicare_advantage']), kind: 'ma_plan' },
      rule({ state: 'TX', program: 'medicaid_mco', code: 'glp1_weight_loss', payer: superior, paType: 'full' }),
      rule({ state: 'TX', program: 'medicaid_mco', code: 'glp1_weight_loss', payer: molina, paType: 'step_therapy' }),
      rule({ state: 'TX', program: 'medicare_advantage', code: 'glp1_weight_loss', payer: humana, paRequired: false }),
      rule({ state: 'TX', program: 'medicaid_mco', code: 'glp1_weight_loss', paType: 'full' }),
      rule({ state: 'TX', program: 'medicaid_ffs', code: 'glp1_weight_loss', paType: 'full' }),
      rule({ state: 'TX', program: 'medicaid_mco', kind: 'service', code: 'advanced_imaging', payer: superior }),
      rule({ state: 'TX', program: 'medicare_advantage', kind: 'service', code: 'advanced_imaging', payer: humana, paType: 'conditional' }),
      rule({ state: 'TX', program: 'medicaid_mco', kind: 'service', code: 'durable_medical_equipment', payer: molina }),
      stateListEntry,
      nationalRange,
    ]);
    key = await t.key({ name: 'payers' });
  });

  it('when a drug class is compared, then every payer in the state appears by program then name, gaps included', async () => {
    const res = await get('/v1/compare-payers?state=TX&drug=glp1_weight_loss');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body).to.include({ state: 'TX', program: null, code_resolution: null, served_from: 'api' });
    expect(res.body.query).to.deep.equal({ drug_class: 'glp1_weight_loss' });
    expect(res.body.payers.map((p: { payer_id: string; program: string; gap: boolean; pa_required: boolean | null; pa_type: string | null }) => [p.program, p.payer_id, p.gap, p.pa_required, p.pa_type])).to.deep.equal([
      ['medicaid_mco', 'tx-community', true, null, null],
      ['medicaid_mco', 'tx-molina', false, true, 'step_therapy'],
      ['medicaid_mco', 'tx-superior', false, true, 'full'],
      ['medicare_advantage', 'humana-ma', false, false, 'none'],
    ]);
    expect(res.body.payers[2]).to.include({
      payer_name: 'Superior HealthPlan',
      payer_kind: 'medicaid_mco',
      source_url: 'https://medicaid.tx.example.gov/pa/glp1_weight_loss',
      last_verified: '2026-11-01',
      rule_id: 'tx-superior.d.glp1-weight-loss',
    });
    expect(res.body.payers[3].payer_kind).to.equal('ma_plan');
    expect(res.body.program_rules.map((r: { program: string; rule_id: string }) => [r.program, r.rule_id])).to.deep.equal([
      ['medicaid_mco', 'tx.medicaid-mco.d.glp1-weight-loss'],
      ['medicaid_ffs', 'tx.medicaid-ffs.d.glp1-weight-loss'],
    ]);
    expect(res.body.summary).to.deep.equal({
      total: 4,
      with_rule: 3,
      gaps: 1,
      require_pa: 2,
      no_pa: 1,
      not_covered: 0,
      programs_not_covered: [],
      divergence: true,
      divergence_summary:
        'PA required by 2 of 3 payers with a rule; outlier without PA: Humana Medicare Advantage (medicare_advantage). PA types differ: step_therapy (1), full (1). 1 payer known in the state has no verified rule for this subject. ' +
        'Program rules (what a payer without its own rule follows): Medicaid managed care requires PA; Medicaid fee-for-service requires PA.',
    });
  });

  it('when a service is compared, then a payer gets no gap row for a program whose benefit cannot hold the service (Part D), but keeps it for a drug', async () => {
    const t2 = await makeTestApp([
      jurisdiction('TX'),
      { ...payer('wellcare', 'Wellcare', ['TX'], ['medicare_advantage', 'part_d']), kind: 'ma_plan' },
      rule({ state: 'TX', program: 'medicare_advantage', kind: 'service', code: 'advanced_imaging', payer: { id: 'wellcare', name: 'Wellcare' } }),
    ]);
    const k = await t2.key({ name: 'payers' });
    const svc = await request(t2.app.handler).get('/v1/compare-payers?state=TX&service=advanced_imaging').set('x-api-key', k);
    expect(svc.status).to.equal(200);
    expectOpenApi(t2.app.routes, svc);
    expect(svc.body.payers.map((p: { program: string; gap: boolean }) => [p.program, p.gap])).to.deep.equal([['medicare_advantage', false]]);
    expect(svc.body.summary).to.include({ total: 1, gaps: 0 });
    // With the program named, a gap no rule will fill says so, and where to ask.
    const partD = await request(t2.app.handler).get('/v1/compare-payers?state=TX&service=advanced_imaging&program=part_d').set('x-api-key', k);
    expectOpenApi(t2.app.routes, partD);
    expect(partD.body.outside_program.try_programs).to.deep.equal(['medicare_traditional', 'medicare_advantage']);
    expect(partD.body.summary.divergence_summary).to.match(/covers outpatient prescription drugs, not this service/);
    const drug = await request(t2.app.handler).get('/v1/compare-payers?state=TX&drug=hepatitis_c').set('x-api-key', k);
    expect(drug.body).to.not.have.property('outside_program');
    expect(drug.body.payers.map((p: { program: string; gap: boolean }) => [p.program, p.gap])).to.deep.equal([['medicare_advantage', true], ['part_d', true]]);
  });

  it('when a program filter is given, then only that program is listed', async () => {
    const res = await get('/v1/compare-payers?state=TX&drug=glp1_weight_loss&program=medicare_advantage');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.program).to.equal('medicare_advantage');
    expect(res.body.payers.map((p: { payer_id: string }) => p.payer_id)).to.deep.equal(['humana-ma']);
    expect(res.body.program_rules).to.deep.equal([]);
    expect(res.body.summary.divergence_summary).to.equal('The only payer with a rule, Humana Medicare Advantage (medicare_advantage), does not require PA.');
  });

  it('when a CPT code is on the state PA list, then it resolves there first and the service category is compared', async () => {
    const res = await get('/v1/compare-payers?state=TX&code=70553');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.query).to.deep.equal({ service_category: 'advanced_imaging', code: '70553' });
    expect(res.body.code_resolution).to.deep.equal({
      code: '70553',
      system: 'CPT',
      service_category: 'advanced_imaging',
      matched_by: 'state_pa_list',
      mapping_id: 'tx.cpt.70553',
      description: 'TX PA list: MRI brain with and without contrast',
      source: { title: 'TX PA code list', url: 'https://medicaid.tx.example.gov/pa-codes' },
    });
    const withRule = res.body.payers.filter((p: { gap: boolean }) => !p.gap).map((p: { payer_id: string; pa_type: string }) => [p.payer_id, p.pa_type]);
    expect(withRule).to.deep.equal([
      ['tx-superior', 'full'],
      ['humana-ma', 'conditional'],
    ]);
  });

  it('when a HCPCS code is only in a national range, then the range resolves it; other codes fall back to the built-in table', async () => {
    const dme = await get('/v1/compare-payers?state=TX&code=e0601');
    expect(dme.status).to.equal(200);
    expectOpenApi(t.app.routes, dme);
    expect(dme.body.code_resolution).to.include({ code: 'E0601', system: 'HCPCS', matched_by: 'national_range', mapping_id: 'us.hcpcs.e0100-e8002' });
    expect(dme.body.payers.find((p: { gap: boolean }) => !p.gap).payer_id).to.equal('tx-molina');
    const mri = await get('/v1/compare-payers?state=CA&code=72148');
    expect(mri.status).to.equal(200);
    expectOpenApi(t.app.routes, mri);
    expect(mri.body.code_resolution).to.include({ service_category: 'advanced_imaging', matched_by: 'builtin_range', mapping_id: null });
    expect(mri.body.payers).to.deep.equal([]);
    expect(mri.body.summary.divergence_summary).to.equal('The corpus knows no payer in this state for this subject.');
  });

  const bad: [string, string, RegExp][] = [
    ['no subject', '?state=TX', /Give exactly one of 'drug' .*'service' .*'code'/],
    ['drug and code', '?state=TX&drug=glp1_weight_loss&code=70553', /not drug and code/],
    ['service and drug', '?state=TX&drug=glp1_weight_loss&service=dental', /not drug and service/],
    ['a malformed code', '?state=TX&code=7055', /Invalid code '7055'/],
    ['a code in no range', '?state=TX&code=99499', /Code 99499 does not resolve/],
    ['a missing state', '?drug=glp1_weight_loss', /Missing required parameter 'state'/],
    ['an unknown state', '?state=XX&drug=glp1_weight_loss', /Invalid state 'XX'/],
    ['an unknown program', '?state=TX&drug=glp1_weight_loss&program=medigap', /Invalid program/],
    ['an unknown drug class', '?state=TX&drug=aspirin', /Invalid drug 'aspirin'/],
    ['a repeated code', '?state=TX&code=70553&code=70551', /more than once/],
  ];
  for (const [what, qs, message] of bad) {
    it(`when given ${what}, then 400 saying what is wrong`, async () => {
      const res = await get(`/v1/compare-payers${qs}`);
      expect(res.status).to.equal(400);
      expectOpenApi(t.app.routes, res);
      expect(res.body.error).to.match(message);
    });
  }

  it('when the key is missing or invalid, then 401', async () => {
    const res = await get('/v1/compare-payers?state=TX&drug=glp1_weight_loss', null);
    expect(res.status).to.equal(401);
    expectOpenApi(t.app.routes, res);
    expect((await get('/v1/compare-payers?state=TX&drug=glp1_weight_loss', 'nope')).status).to.equal(401);
  });

  it('when the state or program filter is outside the key scope, or the group is not subscribed, then 403', async () => {
    const k = await t.key({ states: ['CA'], programs: ['medicaid_mco'] });
    const state = await get('/v1/compare-payers?state=TX&drug=glp1_weight_loss', k);
    expect(state.status).to.equal(403);
    expectOpenApi(t.app.routes, state);
    expect(state.body.out_of_scope).to.deep.equal({ states: ['TX'] });
    const program = await get('/v1/compare-payers?state=CA&drug=glp1_weight_loss&program=part_d', k);
    expect(program.status).to.equal(403);
    expect(program.body.out_of_scope).to.deep.equal({ programs: ['part_d'] });
    const group = await get('/v1/compare-payers?state=TX&drug=glp1_weight_loss', await t.key({ groups: ['lookup'] }));
    expect(group.status).to.equal(403);
    expect(group.body.error).to.contain("'compare_payers'");
  });
});
