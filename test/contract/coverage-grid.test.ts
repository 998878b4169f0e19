import { expect } from 'chai';
import request from 'supertest';
import { jurisdiction, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

const docs = [
  jurisdiction('TX'),
  jurisdiction('CA'),
  rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' }),
  rule({ state: 'TX', program: 'medicaid_mco', kind: 'service', code: 'dental', status: 'sample' }),
  rule({ state: 'CA', program: 'medicaid_mco', code: 'biosimilars', status: 'sample' }),
  rule({ state: 'CA', program: 'medicaid_mco', code: 'oncology_oral', status: 'retired' }),
  rule({ state: 'CA', program: 'part_d', code: 'hiv_antiretrovirals' }),
  // A verified rule saying the program does not cover the class (as the curated facts build an exclusion).
  (() => {
    const r = rule({ state: 'TX', program: 'medicaid_mco', code: 'glp1_weight_loss', paRequired: false });
    return { ...r, requirement: { ...r.requirement, population: 'adults 21 and over', exclusion: { reason: 'Weight-loss drugs are not covered.', citation: 'TX list' } } };
  })(),
];

function cell(body: { subjects: { code: string }[]; states: { state: string; cells: string[] }[] }, state: string, code: string): string {
  const i = body.subjects.findIndex((s) => s.code === code);
  return body.states.find((s) => s.state === state)!.cells[i]!;
}

describe('coverage grid: GET /v1/coverage (what the explorer draws)', () => {
  let samples: TestApp;
  let verifiedOnly: TestApp;
  before(async () => {
    samples = await makeTestApp(docs);
    verifiedOnly = await makeTestApp(docs, { env: { SERVE_SAMPLE_RULES: 'false' } });
  });

  it('when sample rules are served, then each cell is verified, sample or gap and retired rules are gaps', async () => {
    const res = await request(samples.app.handler).get('/v1/coverage?program=mco');
    expect(res.status).to.equal(200);
    expectOpenApi(samples.app.routes, res);
    expect(res.body.program).to.equal('medicaid_mco');
    expect(res.body.served_statuses).to.deep.equal(['verified', 'sample']);
    expect(res.body.subjects).to.have.length(40);
    expect(res.body.states).to.have.length(51);
    expect(cell(res.body, 'TX', 'hepatitis_c')).to.equal('verified');
    expect(cell(res.body, 'TX', 'dental')).to.equal('sample');
    expect(cell(res.body, 'CA', 'biosimilars')).to.equal('sample');
    expect(cell(res.body, 'CA', 'oncology_oral')).to.equal('gap');
    expect(res.body.states.find((s: { state: string }) => s.state === 'TX')).to.include({ name: 'State TX', verified: 2, sample: 1 });
    // The excluded class counts as verified and is named apart, so the explorer never shows it as a plain tick.
    expect(res.body.states.find((s: { state: string }) => s.state === 'TX').not_covered).to.deep.equal(['glp1_weight_loss']);
    expect(res.body.states.find((s: { state: string }) => s.state === 'CA').not_covered).to.deep.equal([]);
    // A rule limited to a population says whom, per subject.
    expect(res.body.states.find((s: { state: string }) => s.state === 'TX').applies_to).to.deep.equal({ glp1_weight_loss: 'adults 21 and over' });
    expect(res.body.states.find((s: { state: string }) => s.state === 'CA').applies_to).to.deep.equal({});
    expect(res.body.totals).to.deep.equal({ verified: 2, sample: 2, gap: 51 * 40 - 4 });
    expect(res.headers['cache-control']).to.contain('s-maxage=300');
  });

  it('when only verified rules are served, then no cell is sample and the counts equal the manifest', async () => {
    const manifest = (await request(verifiedOnly.app.handler).get('/v1/manifest')).body;
    for (const program of ['medicaid_mco', 'part_d']) {
      const res = await request(verifiedOnly.app.handler).get(`/v1/coverage?program=${program}`);
      expect(res.status).to.equal(200);
      expect(res.body.served_statuses).to.deep.equal(['verified']);
      expect(res.body.totals.sample).to.equal(0);
      expect(res.body.totals.verified).to.equal(manifest.coverage.verified.by_program[program]);
      for (const row of res.body.states) expect(row.verified, `${program} ${row.state}`).to.equal(manifest.coverage.verified.by_state[row.state][program]);
    }
    expect(cell((await request(verifiedOnly.app.handler).get('/v1/coverage?program=medicaid_mco')).body, 'TX', 'dental')).to.equal('gap');
  });

  it('when the program is Part D, then its columns are the 20 drug classes and its two service categories: services outside its benefit are not gaps', async () => {
    const res = await request(samples.app.handler).get('/v1/coverage?program=part_d');
    expect(res.status).to.equal(200);
    expectOpenApi(samples.app.routes, res);
    const codes = res.body.subjects.map((s: { code: string }) => s.code);
    expect(codes).to.have.length(22);
    expect(codes).to.include.members(['hiv_antiretrovirals', 'pharmacy_standard', 'specialty_drugs']);
    expect(codes).to.not.include('advanced_imaging');
    expect(res.body.totals).to.deep.equal({ verified: 1, sample: 0, gap: 51 * 22 - 1 });
  });

  it('when the program is missing or unknown, then 400 naming it', async () => {
    for (const qs of ['', '?program=nope']) {
      const res = await request(samples.app.handler).get(`/v1/coverage${qs}`);
      expect(res.status, qs).to.equal(400);
      expectOpenApi(samples.app.routes, res);
      expect(res.body.error).to.match(/program/i);
    }
  });
});
