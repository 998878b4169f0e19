// The verification status tells the truth: by default only verified rules are served (the spec's scope_gap 404
// elsewhere), each with the evidence it rests on; SERVE_SAMPLE_RULES=true opts in to sample rules, served as
// rule_status "sample"; the manifest counts rules per status and reports verified coverage.
import { expect } from 'chai';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { jurisdiction, payer, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

const corpus = [
  jurisdiction('TX'),
  payer('tx-plan', 'TX Plan', ['TX'], ['part_d']),
  {
    ...rule({ state: 'TX', program: 'part_d', code: 'oncology_oral', status: 'verified', confidence: 0.85, lastVerified: '2026-11-20' }),
    evidence: [
      { url: 'https://medicaid.tx.example.gov/pa/oncology_oral', title: 'oncology_oral policy', publisher: 'TX agency', effective: '2026-07-01', locator: 'Oral oncology, p. 12', checked: '2026-11-20' },
      { url: 'https://www.ecfr.gov/current/title-42/section-423.568', title: '42 CFR 423.568', publisher: 'eCFR', locator: '(b)', checked: '2026-11-22' },
    ],
  },
  rule({ state: 'TX', program: 'part_d', code: 'hepatitis_c', status: 'sample', confidence: 0.6 }),
  rule({ state: 'TX', program: 'medicaid_ffs', kind: 'service', code: 'dental', status: 'sample', confidence: 0.6 }),
  rule({ state: 'TX', program: 'medicaid_ffs', kind: 'service', code: 'laboratory', status: 'draft' }),
  rule({ state: 'TX', program: 'part_d', code: 'biosimilars', payer: { id: 'tx-plan', name: 'TX Plan' }, status: 'sample' }),
];

describe('rule verification status: rule_status, evidence, manifest counts, the verified-only default', () => {
  describe('when the server opts in to sample rules (SERVE_SAMPLE_RULES=true)', () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await makeTestApp(corpus, { env: { SERVE_SAMPLE_RULES: 'true' } });
      key = await t.key();
    });

    it('then a verified rule says rule_status verified and a sample rule says sample', async () => {
      const verified = await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=part_d&drug=oncology_oral').set('x-api-key', key);
      expect(verified.status).to.equal(200);
      expectOpenApi(t.app.routes, verified);
      expect(verified.body.result).to.include({ rule_status: 'verified', rule_id: 'tx.part-d.d.oncology-oral', confidence: 0.85, last_verified: '2026-11-20' });
      expect(verified.body.result.evidence).to.deep.equal([
        { source_url: 'https://medicaid.tx.example.gov/pa/oncology_oral', title: 'oncology_oral policy', publisher: 'TX agency', effective: '2026-07-01', locator: 'Oral oncology, p. 12', checked: '2026-11-20' },
        { source_url: 'https://www.ecfr.gov/current/title-42/section-423.568', title: '42 CFR 423.568', publisher: 'eCFR', locator: '(b)', checked: '2026-11-22' },
      ]);
      const sample = await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=part_d&drug=hepatitis_c').set('x-api-key', key);
      expect(sample.status).to.equal(200);
      expectOpenApi(t.app.routes, sample);
      expect(sample.body.result).to.include({ rule_status: 'sample', rule_id: 'tx.part-d.d.hepatitis-c', confidence: 0.6 });
      expect(sample.body.result.evidence).to.deep.equal([]);
    });

    it('then compare rows, ask citations and action-plan citations carry the same evidence as the lookup', async () => {
      const k = await t.key({ compare: true });
      const cmp = await request(t.app.handler).get('/v1/compare?states=TX,CA&program=part_d&drug=oncology_oral').set('x-api-key', k);
      expect(cmp.status).to.equal(200);
      expect(cmp.body.results[0].evidence.map((e: { locator: string }) => e.locator)).to.deep.equal(['Oral oncology, p. 12', '(b)']);
      const ask = await request(t.app.handler).post('/v1/ask').set('x-api-key', key).send({ question: 'Does oral oncology need prior authorization in Part D?', state: 'TX' });
      expect(ask.status).to.equal(200);
      expect(ask.body.answers[0].citations[0].evidence[0]).to.include({ locator: 'Oral oncology, p. 12', checked: '2026-11-20' });
      const plan = await request(t.app.handler).get('/v1/action-plan?state=TX&program=part_d&drug=oncology_oral').set('x-api-key', key);
      const cited = plan.body.action_plan.ranked_actions.flatMap((a: { citations: { evidence?: { locator: string }[] }[] }) => a.citations).find((c: { evidence?: unknown }) => c.evidence);
      expect(cited.evidence[0].locator).to.equal('Oral oncology, p. 12');
    });

    it('then an action plan on a sample rule does not call it verified', async () => {
      const res = await request(t.app.handler).get('/v1/action-plan?state=TX&program=part_d&drug=hepatitis_c').set('x-api-key', key);
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      expect(res.body.rule.rule_status).to.equal('sample');
      expect(res.body.provenance).to.deep.include({ verified: false, basis: 'verified_rule', confidence: 0.6 });
      expect(res.body.provenance.label).to.match(/^Sample: the TX Medicare Part D rule for .* is a sample rule/);
      const verified = await request(t.app.handler).get('/v1/action-plan?state=TX&program=part_d&drug=oncology_oral').set('x-api-key', key);
      expect(verified.body.provenance).to.deep.include({ verified: true });
      expect(verified.body.provenance.label).to.match(/^Verified: /);
    });

    it('then similar rules say the status of each rule they list', async () => {
      const res = await request(t.app.handler).get('/v1/rules/similar?rule_id=tx.part-d.d.oncology-oral&scope=same_state').set('x-api-key', key);
      expect(res.status).to.equal(200);
      const byId = Object.fromEntries(res.body.results.map((r: { rule_id: string; rule_status: string }) => [r.rule_id, r.rule_status]));
      expect(byId).to.include({ 'tx.part-d.d.hepatitis-c': 'sample' });
      expect(Object.keys(byId)).not.to.include('tx.medicaid-ffs.s.laboratory'); // the draft is not served
    });

    it('then a draft rule is never served (scope gap)', async () => {
      const res = await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=medicaid_ffs&service=laboratory').set('x-api-key', key);
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('scope_gap');
    });

    it('then the manifest counts every rule by status and names the served statuses', async () => {
      const res = await request(t.app.handler).get('/v1/manifest');
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      expect(res.body.dataset).to.include({ verified_rules: 1, served_rules: 3, drug_rules: 2, service_rules: 1, payer_rules: 1 });
      expect(res.body.dataset.rules_by_status).to.deep.equal({ verified: 1, sample: 3, draft: 1, retired: 0 });
      expect(res.body.dataset.served_statuses).to.deep.equal(['verified', 'sample']);
      expect(res.body.sample).to.equal(true);
      expect(res.body.notice).to.match(/SERVE_SAMPLE_RULES=true/);
    });
  });

  describe('when the server runs with the defaults (no serving setting)', () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await makeTestApp(corpus, { env: { SERVE_SAMPLE_RULES: '' } });
      key = await t.key();
    });

    it('then verified rules are served and sample rules are a scope gap', async () => {
      const verified = await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=part_d&drug=oncology_oral').set('x-api-key', key);
      expect(verified.status).to.equal(200);
      expect(verified.body.result.rule_status).to.equal('verified');
      const sample = await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=part_d&drug=hepatitis_c').set('x-api-key', key);
      expect(sample.status).to.equal(404);
      expectOpenApi(t.app.routes, sample);
      expect(sample.body).to.include({ code: 'scope_gap', scope_gap: true });
    });

    it('then lookup options and the manifest list only what is served', async () => {
      const options = await request(t.app.handler).get('/v1/lookup-options?state=TX&program=part_d');
      expect(options.body.drugs.map((d: { val: string }) => d.val)).to.deep.equal(['oncology_oral']);
      const res = await request(t.app.handler).get('/v1/manifest');
      expectOpenApi(t.app.routes, res);
      expect(res.body.dataset).to.include({ verified_rules: 1, served_rules: 1, payer_rules: 0 });
      expect(res.body.dataset.rules_by_status).to.deep.equal({ verified: 1, sample: 3, draft: 1, retired: 0 });
      expect(res.body.dataset.served_statuses).to.deep.equal(['verified']);
      expect(res.body.sample).to.equal(false);
      expect(res.body.notice).to.match(/Only verified rules are served/);
      expect(res.body.coverage.verified).to.include({ rules: 1, of_combinations: 14280, outside_program_combinations: 918, percent: 0 });
      expect(res.body.coverage.verified.by_state.TX).to.include({ part_d: 1, medicaid_ffs: 0 });
      expect(res.body.coverage.verified.by_program).to.include({ part_d: 1 });
    });

    it('then a compare row for a state with only a sample rule is a gap', async () => {
      const k = await t.key({ compare: true });
      const cmp = await request(t.app.handler).get('/v1/compare?states=TX,CA&program=part_d&drug=hepatitis_c').set('x-api-key', k);
      expect(cmp.status).to.equal(200);
      expect(cmp.body.results.map((r: { gap: boolean }) => r.gap)).to.deep.equal([true, true]);
    });
  });

  it('the serving setting: verified only by default; SERVE_SAMPLE_RULES=true opts in; the older SERVE_VERIFIED_ONLY still read', () => {
    expect(loadConfig({}).serveVerifiedOnly).to.equal(true);
    expect(loadConfig({ SERVE_SAMPLE_RULES: 'true' }).serveVerifiedOnly).to.equal(false);
    expect(loadConfig({ SERVE_SAMPLE_RULES: 'false' }).serveVerifiedOnly).to.equal(true);
    expect(loadConfig({ SERVE_VERIFIED_ONLY: 'false' }).serveVerifiedOnly).to.equal(false);
    expect(loadConfig({ SERVE_VERIFIED_ONLY: 'true', SERVE_SAMPLE_RULES: 'false' }).serveVerifiedOnly).to.equal(true);
    expect(() => loadConfig({ SERVE_SAMPLE_RULES: 'true', SERVE_VERIFIED_ONLY: 'true' })).to.throw(/disagree/);
    expect(() => loadConfig({ SERVE_SAMPLE_RULES: 'sometimes' })).to.throw(/SERVE_SAMPLE_RULES must be true or false/);
  });
});
