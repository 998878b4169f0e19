// A requirement limited to a population (corpus/facts FORMAT.md, "population"): the rule speaks for them only. Every
// surface that answers "PA required" says whom it applies to and that nothing is claimed for anyone else, so an adult
// asking about a children-only review is not told "PA required" without the condition (fourth test pass, #3).
import { expect } from 'chai';
import request from 'supertest';
import { verdictCard } from '../../src/fhir/crd/cards.js';
import { DTR_PROFILE } from '../../fhir-profiles/canonicals.js';
import { validateAgainst } from '../support/ig-validate.js';
import { applyFacts } from '../../scripts/corpus/facts/apply.js';
import type { Fact } from '../../scripts/corpus/facts/load.js';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import { jurisdiction, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const POPULATION = 'members under 18';

function childrenOnly(): CoverageRuleDoc {
  const r = rule({ state: 'WA', program: 'medicaid_ffs', code: 'adhd_stimulants', paType: 'conditional' });
  return { ...r, requirement: { ...r.requirement, population: POPULATION }, turnaround: { standardHours: 0, expeditedHours: 0, basis: 'No decision timeframe traced' } };
}

describe("a requirement limited to a population (applies_to)", function () {
  this.timeout(60_000); // the first IG validation loads the packages
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await makeTestApp([jurisdiction('WA'), childrenOnly(), rule({ state: 'WA', program: 'medicaid_ffs', code: 'hepatitis_c' })]);
    key = await t.key({ name: 'pop' });
  });
  const get = (path: string) => request(t.app.handler).get(path).set('x-api-key', key);

  it('when the lookup answers, then applies_to names the population and the first next step says the rule claims nothing for others', async () => {
    const res = await get('/v1/pauth-lookup?state=WA&program=medicaid_ffs&drug=adhd_stimulants');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.result).to.include({ pa_required: true, applies_to: POPULATION });
    expect(res.body.next_steps[0].items[0]).to.equal(`Applies to ${POPULATION} only: the source claims nothing for other members`);
    const other = await get('/v1/pauth-lookup?state=WA&program=medicaid_ffs&drug=hepatitis_c');
    expect(other.body.result).to.not.have.property('applies_to');
  });

  it('when the DTR form is fetched, then its first item says whom the requirement applies to, and it stays a valid dtr-std-questionnaire', async () => {
    const res = await get('/v1/dtr/questionnaire/WA/medicaid_ffs/adhd_stimulants');
    expect(res.status).to.equal(200);
    expect(res.body.item[0]).to.deep.equal({ linkId: 'applies-to', type: 'display', text: `Applies to ${POPULATION} only: the rule claims nothing for other patients.` });
    const errors = validateAgainst(res.body as never, DTR_PROFILE.stdQuestionnaire)
      .filter((m) => !(m === 'Questionnaire.subjectType: Value did not match expected pattern' && JSON.stringify(res.body.subjectType) === '["Patient"]'));
    expect(errors).to.deep.equal([]);
  });

  it('when compared across states or payers, then the summary says the rule is limited to its population', async () => {
    const compareKey = await t.key({ name: 'pop-compare', compare: true });
    const cmp = await request(t.app.handler).get('/v1/compare?states=WA,TX&program=medicaid_ffs&drug=adhd_stimulants').set('x-api-key', compareKey);
    expect(cmp.status).to.equal(200);
    expect(cmp.body.summary.divergence_summary).to.contain(`Limited to a population: WA (${POPULATION}).`);
    const payers = await get('/v1/compare-payers?state=WA&drug=adhd_stimulants');
    expect(payers.body.summary.divergence_summary).to.contain(`Medicaid fee-for-service requires PA (for ${POPULATION} only)`);
  });

  it('when the action plan ranks submitting, then its rationale says whom the requirement applies to', async () => {
    const res = await get('/v1/action-plan?state=WA&program=medicaid_ffs&drug=adhd_stimulants');
    expect(res.status).to.equal(200);
    const submit = (res.body.action_plan.ranked_actions as Any[]).find((a) => a.kind === 'submit');
    expect(submit!.rationale).to.contain(`It applies to ${POPULATION} only; the source claims nothing for other members.`);
  });

  it('when a CRD card is made, then its summary and detail name the population, and no "0 h" clock is shown', () => {
    const card = verdictCard({
      rule: childrenOnly(), target: { resourceType: 'MedicationRequest', id: 'm1' } as never, coding: undefined, label: 'WA Apple Health', basis: ['test'], coverageRef: 'Coverage/1',
    } as never);
    expect(card.summary).to.contain(`; ${POPULATION} only)`);
    expect(card.detail).to.contain(`**Applies to:** ${POPULATION} only; the rule claims nothing for other members.`);
    expect(card.detail).to.contain("**Decision timeframe:** none is traced to this rule's sources");
    expect(card.detail).to.not.contain('0 h');
  });

  it('when a twice-read fact states a population, then the built rule carries it', () => {
    const SOURCE = { id: 's', url: 'https://www.hca.wa.gov/x', title: 'Second opinion', publisher: 'HCA' };
    const fact: Fact = {
      ref: 'WA.yaml#kids', id: 'kids', file: 'WA', jurisdictions: ['WA'], programs: ['medicaid_ffs'], subjects: ['adhd_stimulants'],
      requirement: { pa_required: true, pa_type: 'conditional', criteria: 'Children only.', population: POPULATION },
      submission: { channel: 'payer_process', target: 'The Second Opinion Network' },
      evidence: [{ source: SOURCE, locator: 'Opening paragraph' }], checked: '2026-11-26', review: { first_read: 'a', second_read: 'b' },
    };
    const { rules, report } = applyFacts([rule({ state: 'WA', program: 'medicaid_ffs', code: 'adhd_stimulants', status: 'sample' })], [fact]);
    expect(report.errors).to.deep.equal([]);
    expect(rules[0]!.verification.status).to.equal('verified');
    expect(rules[0]!.requirement.population).to.equal(POPULATION);
  });

  it('when an exclusion is limited to a population (adults), then the not-covered steps and the action plan say whom it applies to', async () => {
    const base = rule({ state: 'TX', program: 'medicaid_ffs', code: 'glp1_weight_loss', paRequired: false });
    const excl: CoverageRuleDoc = {
      ...base,
      requirement: { ...base.requirement, population: 'clients 21 years and over', criteria: 'Not covered for adults.', exclusion: { reason: 'Not covered for adults.', citation: 'Manual, section' } },
      submission: { channel: 'none', target: 'Not covered' },
      turnaround: { standardHours: 0, expeditedHours: 0, basis: 'Not covered' },
    };
    const t2 = await makeTestApp([jurisdiction('TX'), excl]);
    const k = await t2.key({ name: 'excl' });
    const res = await request(t2.app.handler).get('/v1/pauth-lookup?state=TX&program=medicaid_ffs&drug=glp1_weight_loss').set('x-api-key', k);
    expect(res.body.result).to.include({ not_covered: true, applies_to: 'clients 21 years and over' });
    expect(res.body.next_steps[0].items[0]).to.equal('Applies to clients 21 years and over only: the source claims nothing for other members');
    const plan = await request(t2.app.handler).get('/v1/action-plan?state=TX&program=medicaid_ffs&drug=glp1_weight_loss&has_alternative=true').set('x-api-key', k);
    expect(JSON.stringify(plan.body.action_plan.ranked_actions)).to.contain('does not cover GLP-1 agonists for weight loss for clients 21 years and over');
  });
});
