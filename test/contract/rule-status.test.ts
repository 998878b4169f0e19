// The verification status tells the truth: sample rules are served as rule_status "sample", counted per status in
// the manifest, and SERVE_VERIFIED_ONLY=true serves verified rules only (the read model filters them out).
import { expect } from 'chai';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { jurisdiction, payer, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

const corpus = [
  jurisdiction('TX'),
  payer('tx-plan', 'TX Plan', ['TX'], ['part_d']),
  rule({ state: 'TX', program: 'part_d', code: 'oncology_oral', status: 'verified', confidence: 0.85 }),
  rule({ state: 'TX', program: 'part_d', code: 'hepatitis_c', status: 'sample', confidence: 0.6 }),
  rule({ state: 'TX', program: 'medicaid_ffs', kind: 'service', code: 'dental', status: 'sample', confidence: 0.6 }),
  rule({ state: 'TX', program: 'medicaid_ffs', kind: 'service', code: 'laboratory', status: 'draft' }),
  rule({ state: 'TX', program: 'part_d', code: 'biosimilars', payer: { id: 'tx-plan', name: 'TX Plan' }, status: 'sample' }),
];

describe('rule verification status: rule_status, manifest counts, SERVE_VERIFIED_ONLY', () => {
  describe('when the server serves verified and sample rules (the default)', () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await makeTestApp(corpus);
      key = await t.key();
    });

    it('then a verified rule says rule_status verified and a sample rule says sample', async () => {
      const verified = await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=part_d&drug=oncology_oral').set('x-api-key', key);
      expect(verified.status).to.equal(200);
      expectOpenApi(t.app.routes, verified);
      expect(verified.body.result).to.include({ rule_status: 'verified', rule_id: 'tx.part-d.d.oncology-oral', confidence: 0.85 });
      const sample = await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=part_d&drug=hepatitis_c').set('x-api-key', key);
      expect(sample.status).to.equal(200);
      expectOpenApi(t.app.routes, sample);
      expect(sample.body.result).to.include({ rule_status: 'sample', rule_id: 'tx.part-d.d.hepatitis-c', confidence: 0.6 });
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
    });
  });

  describe('when the server runs with SERVE_VERIFIED_ONLY=true', () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await makeTestApp(corpus, { env: { SERVE_VERIFIED_ONLY: 'true' } });
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
    });
  });

  it('SERVE_VERIFIED_ONLY accepts true/false and refuses anything else at start', () => {
    expect(loadConfig({ SERVE_VERIFIED_ONLY: 'true' }).serveVerifiedOnly).to.equal(true);
    expect(loadConfig({}).serveVerifiedOnly).to.equal(false);
    expect(() => loadConfig({ SERVE_VERIFIED_ONLY: 'sometimes' })).to.throw(/SERVE_VERIFIED_ONLY must be true or false/);
  });
});
