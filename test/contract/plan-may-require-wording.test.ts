// A rule whose source only lets the plan require PA (pa_mode plan_may_require) is not "PA required" on any summary:
// compare, compare-payers and the change feed say it is the plan's choice (seventh test pass, #7).
import { expect } from 'chai';
import request from 'supertest';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import { describeFacts } from '../../src/services/change-feed.js';
import { ruleFacts } from '../../src/ingest/change-facts.js';
import { jurisdiction, rule } from '../support/docs.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

function planMay(state: string): CoverageRuleDoc {
  const r = rule({ state, program: 'medicare_advantage', kind: 'service', code: 'advanced_imaging', paType: 'conditional' });
  return { ...r, requirement: { ...r.requirement, paMode: 'plan_may_require' } };
}

describe('plan_may_require in summaries: the plan\'s choice, not "PA required"', function () {
  this.timeout(30_000);
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await makeTestApp([jurisdiction('TX'), jurisdiction('OK'), planMay('TX'), planMay('OK'), rule({ state: 'TX', program: 'medicaid_mco', kind: 'service', code: 'advanced_imaging' })]);
    key = await t.key({ name: 'wording', compare: true });
  });
  const get = (path: string) => request(t.app.handler).get(path).set('x-api-key', key);

  it('when states are compared, then the summary says the source only lets the plan require PA', async () => {
    const res = await get('/v1/compare?states=TX,OK&program=medicare_advantage&service=advanced_imaging');
    expect(res.status).to.equal(200);
    expect(res.body.summary.divergence_summary).to.contain("In all 2 states with a verified rule the source only lets the plan require PA: which requests need it is the plan's choice.");
    expect(res.body.summary.divergence_summary).to.not.contain('require PA.');
  });

  it('when payers are compared, then the program rules sentence says the plan may require PA, and a program that requires it says so', async () => {
    const res = await get('/v1/compare-payers?state=TX&service=advanced_imaging');
    expect(res.status).to.equal(200);
    expect(res.body.summary.divergence_summary).to.contain('Medicare Advantage (Part C) lets the plan require PA').and.contain('Medicaid managed care requires PA');
  });

  it('when the change feed describes such a rule, then "PA required" reads "at the plan\'s choice"', () => {
    expect(describeFacts(undefined, ruleFacts(planMay('TX')))).to.include("PA required: at the plan's choice");
    expect(describeFacts(undefined, ruleFacts(rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' })))).to.include('PA required: yes');
  });
});
