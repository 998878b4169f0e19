import { expect } from 'chai';
import request from 'supertest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { JURISDICTIONS } from '../../src/domain/vocabulary.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { jurisdiction, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

describe('public discovery: /v1/lookup-options, /v1/manifest, /v1/states, /openapi.json', () => {
  let t: TestApp;
  before(async () => {
    t = await makeTestApp([
      jurisdiction('TX', { flags: { medicaidExpansion: false, ffsDominant: false, wiser: true } }),
      rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', lastVerified: '2026-10-01' }),
      rule({ state: 'TX', program: 'medicaid_mco', kind: 'service', code: 'dental', paRequired: false }),
      rule({ state: 'TX', program: 'part_d', code: 'hiv_antiretrovirals', federalOverride: true, paType: 'conditional' }),
      rule({ state: 'CA', program: 'medicaid_mco', code: 'biosimilars', lastVerified: '2026-11-02' }),
      rule({ state: 'CA', program: 'medicaid_mco', code: 'oncology_oral', status: 'retired' }),
    ]);
  });

  it('when options are asked for a pair, then only classes and categories with a published rule are listed', async () => {
    const res = await request(t.app.handler).get('/v1/lookup-options?state=TX&program=medicaid_mco');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body).to.deep.equal({
      drugs: [{ val: 'hepatitis_c', label: 'Hepatitis C direct-acting antivirals' }],
      services: [{ val: 'dental', label: 'Dental' }],
    });
    expect(res.headers['cache-control']).to.contain('s-maxage=300');
    const empty = await request(t.app.handler).get('/v1/lookup-options?state=CA&program=chip');
    expect(empty.body).to.deep.equal({ drugs: [], services: [] });
  });

  it('when options are asked without a valid state or program, then 400', async () => {
    for (const qs of ['?program=medicaid_mco', '?state=TX', '?state=XX&program=medicaid_mco', '?state=TX&program=nope']) {
      const res = await request(t.app.handler).get(`/v1/lookup-options${qs}`);
      expect(res.status, qs).to.equal(400);
      expectOpenApi(t.app.routes, res);
      expect(res.body.error).to.be.a('string').and.not.equal('');
    }
  });

  it('when the manifest is asked, then it counts verified rules only and dates the mandates from the federal record', async () => {
    const res = await request(t.app.handler).get('/v1/manifest');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.dataset).to.include({ verified_rules: 4, drug_rules: 3, service_rules: 1, last_verified: '2026-11-02' });
    expect(res.body.coverage.states).to.deep.equal(['CA', 'TX']);
    expect(res.body.coverage.programs).to.have.length(7);
    expect(res.body.mandates.cms_0057_f).to.include({ effective: '2024-04-08', status: 'final' });
    expect(res.body.mandates.cms_0062_p).to.include({ status: 'proposed' });
    expect(res.body.sample).to.equal(true);
    expect(res.body.notice).to.match(/Sample rules are being served \(SERVE_SAMPLE_RULES=true\)/);
    expect(res.headers['cache-control']).to.contain('s-maxage=3600').and.contain('stale-while-revalidate=86400');
  });

  it('when the states list is asked, then all 51 jurisdictions come with counts and flags', async () => {
    const res = await request(t.app.handler).get('/v1/states');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.states.map((s: { state_abbr: string }) => s.state_abbr)).to.deep.equal([...JURISDICTIONS]);
    const tx = res.body.states.find((s: { state_abbr: string }) => s.state_abbr === 'TX');
    expect(tx).to.deep.include({ rule_count: 3, drug_rules: 2, service_rules: 1, pa_required_pct: 66.7 });
    expect(tx.flags).to.deep.equal({ medicaid_expansion: false, ffs_dominant: false, wiser: true });
    const ak = res.body.states.find((s: { state_abbr: string }) => s.state_abbr === 'AK');
    expect(ak.flags.wiser).to.equal(null); // no jurisdiction document: unknown, not false
    expect(res.headers['cache-control']).to.contain('s-maxage=3600');
  });

  it('when one state is asked, then the detail form has summary, histograms and state_meta', async () => {
    const res = await request(t.app.handler).get('/v1/states?state=TX');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.summary.total_rules).to.equal(3);
    expect(res.body.summary.programs_covered).to.deep.equal(['medicaid_mco', 'part_d']);
    expect(res.body.summary.pa_type_histogram).to.include({ full: 1, none: 1, conditional: 1 });
    expect(res.body.summary.federal_protected_drug_classes).to.deep.equal(['hiv_antiretrovirals']);
    expect(res.body.drug_classes.hepatitis_c).to.deep.equal({ rules: 1, pa_required: 1, not_covered: 0 });
    expect(res.body.service_categories.dental).to.deep.equal({ rules: 1, pa_required: 0, not_covered: 0 });
    expect(res.body.state_meta.agency).to.deep.equal({ name: 'TX Medicaid agency', url: 'https://medicaid.tx.example.gov' });
    expect(res.body.state_meta.wiser).to.include({ participating: true });
    const bad = await request(t.app.handler).get('/v1/states?state=QQ');
    expect(bad.status).to.equal(400);
    expectOpenApi(t.app.routes, bad);
  });

  it('when /openapi.json is fetched, then it is a valid OpenAPI 3.1 document that marks the alias deprecated', async () => {
    const res = await request(t.app.handler).get('/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.body.openapi).to.equal('3.1.0');
    expect(res.body.info.version).to.equal('1.0.0');
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(res.body.paths['/v1/pa-lookup'].get.deprecated).to.equal(true);
    expect(res.body.paths['/v1/pauth-lookup'].get.deprecated).to.equal(undefined);
    expect(res.body.paths['/v1/pauth-lookup'].get.security).to.deep.equal([{ ApiKey: [] }]);
    expect(res.body.paths['/v1/manifest'].get.security).to.deep.equal([]);
  });

  it('when the route table changes, then the OpenAPI document follows (it is generated, not hand-kept)', () => {
    const doc = buildOpenApi(t.app.routes) as { paths: Record<string, Record<string, { operationId: string }>> };
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId)).sort();
    expect(ops).to.deep.equal(t.app.routes.map((r) => r.id).sort());
  });
});
