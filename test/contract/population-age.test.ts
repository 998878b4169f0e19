// A requirement limited to an age group (facts: requirement.ages beside population): CRD and PAS read the patient's
// birthDate against it, so a rule for members younger than 18 does not answer a 75-year-old's order (fifth test pass, #1).
import { expect } from 'chai';
import request from 'supertest';
import type { CanonicalDoc, CoverageRuleDoc } from '../../src/domain/documents.js';
import { ageOn, outsideAges } from '../../src/domain/population.js';
import { jurisdiction, rule, sertraline, SERTRALINE_SCD } from '../support/docs.js';
import { coverage, orderSelectPartDRxNorm, patient } from '../support/crd-requests.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';
import { example } from '../support/fhir-corpus.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SERTRALINE = SERTRALINE_SCD;
const drug = sertraline;

function childrenOnly(): CoverageRuleDoc {
  const r = rule({ state: 'IN', program: 'medicaid_ffs', code: 'mental_health_antidepressants', paType: 'conditional' });
  return { ...r, requirement: { ...r.requirement, population: 'members younger than 18', ages: { max: 17 } } };
}

describe('a requirement limited to an age group: CRD and PAS read the patient\'s age', function () {
  this.timeout(60_000);
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await makeTestApp([jurisdiction('IN'), drug, childrenOnly()] as CanonicalDoc[]);
    key = await t.key({ name: 'ages' });
  });

  it('ageOn counts whole years and leaves partial dates unread; outsideAges is inclusive', () => {
    expect(ageOn('1951-03-14', '2026-11-26')).to.equal(75);
    expect(ageOn('2008-11-27', '2026-11-26')).to.equal(17);
    expect(ageOn('2008-11-26', '2026-11-26')).to.equal(18);
    expect(ageOn('1951', '2026-11-26')).to.equal(undefined);
    expect(ageOn(42, '2026-11-26')).to.equal(undefined);
    expect(outsideAges({ max: 17 }, 17)).to.equal(false);
    expect(outsideAges({ max: 17 }, 18)).to.equal(true);
    expect(outsideAges({ min: 21 }, 20)).to.equal(true);
    expect(outsideAges({ max: 17 }, undefined)).to.equal(false);
    expect(outsideAges(undefined, 75)).to.equal(false);
  });

  const order = (birthDate: string): Any => {
    const body = orderSelectPartDRxNorm();
    body.prefetch.patient = { ...patient('pat-in', 'IN', 'Indianapolis'), birthDate };
    body.prefetch.coverage.entry[0].resource = coverage('cov-in', 'pat-in', '213', 'Medicaid FFS', 'Indiana Medicaid', 'Organization/in-medicaid');
    body.context.patientId = 'pat-in';
    for (const e of body.context.draftOrders.entry) {
      e.resource.subject = { reference: 'Patient/pat-in' };
      e.resource.insurance = [{ reference: 'Coverage/cov-in' }];
    }
    body.context.draftOrders.entry[0].resource.medicationCodeableConcept = { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: SERTRALINE, display: 'sertraline 50 MG Oral Tablet' }] };
    return body;
  };

  it('when an adult\'s order meets a children-only rule, then CRD says no verified rule speaks for this patient; a child\'s order gets the rule', async () => {
    const adult = await request(t.app.handler).post('/v1/cds-services/service-coverage-requirements-select').set('x-api-key', key).send(order('1951-03-14'));
    expect(adult.status).to.equal(200);
    const text = JSON.stringify(adult.body.cards);
    expect(text).to.contain("applies to members younger than 18 only; this patient (age 75) is outside it, so no verified rule speaks for this order");
    expect(text).to.not.contain('Prior authorization may be required');
    const child = await request(t.app.handler).post('/v1/cds-services/service-coverage-requirements-select').set('x-api-key', key).send(order('2015-05-01'));
    expect(JSON.stringify(child.body.cards)).to.contain('members younger than 18 only');
    expect(JSON.stringify(child.body.cards)).to.not.contain('is outside it');
  });

  it('when a PAS request for an adult meets a children-only rule, then the item is pended saying no verified rule decides it', async () => {
    const b = example('pas-2.2.1-claim-submit-request-bundle.json');
    b.identifier.value = 'ages-1';
    const claim = b.entry[0].resource;
    for (const item of claim.item) item.productOrService = { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: SERTRALINE }] };
    const pat = b.entry.find((e: Any) => e.resource.resourceType === 'Patient').resource;
    expect(pat.birthDate).to.match(/^19/);
    const res = await request(t.app.handler).post('/v1/Claim/$submit?state=IN&program=medicaid_ffs').set('x-api-key', key).set('content-type', 'application/fhir+json').send(b);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    const notes = res.body.entry[0].resource.processNote.map((n: Any) => n.text).join(' ');
    expect(notes).to.match(/the verified rule in\.medicaid-ffs\.d\.mental-health-antidepressants applies to members younger than 18 only; this patient \(age \d+\) is outside it/);
    // A child is decided under the rule, and the item says whom the rule speaks for (seventh test pass, #5).
    const child = example('pas-2.2.1-claim-submit-request-bundle.json');
    child.identifier.value = 'ages-2';
    for (const item of child.entry[0].resource.item) item.productOrService = { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: SERTRALINE }] };
    child.entry.find((e: Any) => e.resource.resourceType === 'Patient').resource.birthDate = '2015-05-01';
    const kid = await request(t.app.handler).post('/v1/Claim/$submit?state=IN&program=medicaid_ffs').set('x-api-key', key).set('content-type', 'application/fhir+json').send(child);
    expect(kid.status).to.equal(200);
    const kidNotes = kid.body.entry[0].resource.processNote.map((n: Any) => n.text).join(' ');
    expect(kidNotes).to.contain('Rule in.medicaid-ffs.d.mental-health-antidepressants applies to members younger than 18 only; the source claims nothing for other members.');
    expect(kidNotes).to.not.contain('is outside it');
  });
});
