// CRD 2.0.1 `covered`: "covered" (regular coverage applies) only where the source states the program's own requirement.
// A source that only lets the plan require PA (pa_mode plan_may_require) says nothing of the plan's coverage either,
// so the assertion is "conditional" ("cannot be made without more information"), with info-needed and a reason
// (second test pass, #21: an MA plan-may-require rule was asserted "covered").
import { expect } from 'chai';
import request from 'supertest';
import type { CanonicalDoc, CoverageRuleDoc } from '../../src/domain/documents.js';
import { CRD_EXT } from '../../fhir-profiles/canonicals.js';
import { coverageInformationProblems } from '../../src/fhir/crd/coverage-info.js';
import { jurisdiction, rule, sertraline, SERTRALINE_SCD } from '../support/docs.js';
import { coverage, orderSelectPartDRxNorm, patient } from '../support/crd-requests.js';
import { infoOf } from '../support/crd-response.js';
import { makeTestApp } from '../support/test-app.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SERTRALINE = SERTRALINE_SCD;
const drug = sertraline;

function planMayRequire(): CoverageRuleDoc {
  const r = rule({ state: 'IN', program: 'medicaid_mco', code: 'mental_health_antidepressants', paType: 'conditional' });
  return { ...r, requirement: { ...r.requirement, paMode: 'plan_may_require', criteria: 'The plan may require PA for this class; ask the plan.' } };
}

const order = (): Any => {
  const body = orderSelectPartDRxNorm();
  body.prefetch.patient = { ...patient('pat-in', 'IN', 'Indianapolis'), birthDate: '1980-01-01' };
  body.prefetch.coverage.entry[0].resource = coverage('cov-in', 'pat-in', '213', 'Medicaid', 'Indiana Medicaid', 'Organization/in-medicaid');
  body.context.patientId = 'pat-in';
  for (const e of body.context.draftOrders.entry) {
    e.resource.subject = { reference: 'Patient/pat-in' };
    e.resource.insurance = [{ reference: 'Coverage/cov-in' }];
  }
  body.context.draftOrders.entry[0].resource.medicationCodeableConcept = { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: SERTRALINE }] };
  return body;
};

describe('CRD covered: asserted only where the source states the program\'s own requirement', function () {
  this.timeout(60_000);
  async function verdictFor(r: CoverageRuleDoc): Promise<Any> {
    const t = await makeTestApp([jurisdiction('IN'), drug, r] as CanonicalDoc[]);
    const key = await t.key({ name: 'covered' });
    const res = await request(t.app.handler).post(`/v1/cds-services/service-coverage-requirements-select?state=IN&program=${r.program}`).set('x-api-key', key).send(order());
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    const action = res.body.systemActions.find((a: Any) => a.resource.resourceType === 'MedicationRequest');
    expect(action, JSON.stringify(res.body).slice(0, 500)).to.not.equal(undefined);
    const ext = action.resource.extension.find((e: Any) => e.url === CRD_EXT.coverageInformation);
    expect(coverageInformationProblems(ext)).to.deep.equal([]);
    return infoOf(action);
  }

  it('when the source only lets the plan require PA, then covered and pa-needed are conditional, with info-needed and the rule as the assertion', async () => {
    const i = await verdictFor(planMayRequire());
    expect(i).to.deep.include({ covered: ['conditional'], 'pa-needed': ['conditional'], 'info-needed': ['OTH'], 'coverage-assertion-id': ['in.medicaid-mco.d.mental-health-antidepressants'] });
  });

  it('when the source states the program\'s own requirement, then covered is covered and pa-needed auth-needed', async () => {
    const i = await verdictFor(rule({ state: 'IN', program: 'medicaid_ffs', code: 'mental_health_antidepressants' }));
    expect(i).to.deep.include({ covered: ['covered'], 'pa-needed': ['auth-needed'], 'coverage-assertion-id': ['in.medicaid-ffs.d.mental-health-antidepressants'] });
  });
});

describe('CRD voluntary PA (a review choice): not required, and the card and coverage information say it is optional', function () {
  this.timeout(60_000);
  it('when the rule offers voluntary PA, then pa-needed no-auth with a reason, and the card says optional, not "no PA required"', async () => {
    const r = rule({ state: 'IN', program: 'medicaid_ffs', code: 'mental_health_antidepressants', paRequired: false, paType: 'conditional' });
    const voluntary: CoverageRuleDoc = { ...r, requirement: { ...r.requirement, paMode: 'voluntary', criteria: 'The agency chooses pre-claim review or postpayment review.' } };
    const t = await makeTestApp([jurisdiction('IN'), drug, voluntary] as CanonicalDoc[]);
    const key = await t.key({ name: 'voluntary' });
    const res = await request(t.app.handler).post('/v1/cds-services/service-coverage-requirements-select?state=IN&program=medicaid_ffs').set('x-api-key', key).send(order());
    expect(res.status).to.equal(200);
    const action = res.body.systemActions.find((a: Any) => a.resource.resourceType === 'MedicationRequest');
    const i = infoOf(action);
    expect(i).to.deep.include({ covered: ['covered'], 'pa-needed': ['no-auth'] });
    expect(JSON.stringify(i.reason)).to.contain('may be requested (voluntary)');
    expect(res.body.cards.map((c: Any) => c.summary).join(' ')).to.contain('Prior authorization optional (voluntary)');
  });
});
