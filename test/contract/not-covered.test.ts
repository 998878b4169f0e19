// A subject the program does not cover (a rule's requirement.exclusion, served from a curated fact's
// `not_covered: true`): every surface that reads the rule says "not covered", never "no PA needed / bill as usual".
// The corpus is small and explicit: IN Medicaid FFS excludes weight-loss drugs (shaped as the facts build it:
// pa_required false, pa_type none, channel none, with the exclusion), TX requires PA, CA needs none.
import { expect } from 'chai';
import request from 'supertest';
import type { Questionnaire, QuestionnaireItem } from 'fhir/r4';
import { CRD_EXT, CRD_PROFILE, DTR_PROFILE, USDF_PROFILE } from '../../fhir-profiles/canonicals.js';
import type { CanonicalDoc, CoverageRuleDoc, DrugCrosswalkDoc } from '../../src/domain/documents.js';
import { coverageInformationProblems } from '../../src/fhir/crd/coverage-info.js';
import { jurisdiction, rule } from '../support/docs.js';
import { X12_1365 } from '../support/fhir-corpus.js';
import { coverage, orderSelectPartDRxNorm, patient } from '../support/crd-requests.js';
import { infoOf } from '../support/crd-response.js';
import { expectValidFhir } from '../support/fhir-validate.js';
import { expectValid, validateAgainst } from '../support/ig-validate.js';
import { expectOpenApi } from '../support/openapi.js';
import { pasCorpus, pasRequest, reviewCodes } from '../support/pas-requests.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const REASON = 'Not a PA requirement but a coverage exclusion: Indiana Medicaid lists medications used for weight loss among the drugs it does not cover.';
const CITATION = 'Pharmacy Benefits (Indiana Medicaid member page), list of medications not covered';
const SEMAGLUTIDE_SCD = '2200750';

/** A rule as the curated facts build an exclusion (scripts/corpus/facts/apply.ts): no PA, no route, no clock, and the exclusion. */
function excluded(spec: Parameters<typeof rule>[0], reason = REASON, citation = CITATION): CoverageRuleDoc {
  const r = rule({ ...spec, paRequired: false });
  return {
    ...r,
    requirement: { ...r.requirement, criteria: reason, exclusion: { reason, citation } },
    submission: { channel: 'none', target: 'Not covered: no prior authorization request leads to coverage' },
    turnaround: { standardHours: 0, expeditedHours: 0, basis: 'Not covered: no prior authorization decision applies' },
  };
}

const drug = (id: string, drugClass: string, generic: string, brands: string[], ingredient: string, products: { code: string; name: string }[]): DrugCrosswalkDoc => ({
  resourceType: 'DrugCrosswalkEntry', id, drugClass, generic, brands, notes: 'test data',
  rxnorm: { ingredient, scd: products.map((p) => p.code), products: products.map((p) => ({ ...p, tty: 'SCD' })) },
});

function corpus(): CanonicalDoc[] {
  return [
    jurisdiction('IN'), jurisdiction('TX'), jurisdiction('CA'), jurisdiction('OH'),
    drug('semaglutide', 'glp1_weight_loss', 'semaglutide', ['Wegovy'], '1991302', [{ code: SEMAGLUTIDE_SCD, name: 'semaglutide 2.4 MG/0.75ML Auto-Injector' }]),
    drug('sertraline', 'mental_health_antidepressants', 'sertraline', ['Zoloft'], '36437', [{ code: '312941', name: 'sertraline 50 MG Oral Tablet' }]),
    excluded({ state: 'IN', program: 'medicaid_ffs', code: 'glp1_weight_loss' }),
    rule({ state: 'IN', program: 'medicaid_ffs', code: 'mental_health_antidepressants', paRequired: false }),
    rule({ state: 'TX', program: 'medicaid_ffs', code: 'glp1_weight_loss', paType: 'full' }),
    rule({ state: 'CA', program: 'medicaid_ffs', code: 'glp1_weight_loss', paRequired: false }),
    rule({ state: 'OH', program: 'medicaid_ffs', code: 'glp1_weight_loss', paType: 'full' }),
  ];
}

describe('a subject the program does not cover (exclusion): every surface says "not covered"', function () {
  this.timeout(60_000); // the first FHIR validation loads the IG packages
  let t: TestApp;
  let key: string;
  const get = (path: string) => request(t.app.handler).get(path).set('x-api-key', key);

  before(async () => {
    t = await makeTestApp(corpus(), { env: { PUBLIC_BASE_URL: 'https://prauth.test' } });
    key = await t.key({ name: 'not-covered', compare: true });
  });

  describe('GET /v1/states?state=', () => {
    it('when a state excludes a class, then its detail counts the exclusion apart (not_covered), not as a PA-free rule only', async () => {
      const res = await request(t.app.handler).get('/v1/states?state=IN');
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      expect(res.body.drug_classes.glp1_weight_loss).to.deep.equal({ rules: 1, pa_required: 0, not_covered: 1 });
      expect(res.body.drug_classes.mental_health_antidepressants).to.deep.equal({ rules: 1, pa_required: 0, not_covered: 0 });
      expect(res.body.summary.not_covered).to.equal(1);
    });
  });

  describe('GET /v1/pauth-lookup', () => {
    it('when the subject is excluded, then the rule says not_covered with the exclusion, and the next steps say a claim will be denied (never "bill as usual")', async () => {
      const res = await get('/v1/pauth-lookup?state=IN&program=medicaid_ffs&drug=glp1_weight_loss');
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      expect(res.body.result).to.include({ pa_required: false, pa_type: 'none', not_covered: true, notes: REASON });
      expect(res.body.result.exclusion).to.deep.equal({ reason: REASON, citation: CITATION });
      expect(res.body.result.submission).to.deep.equal({ channel: 'none', target: 'Not covered: no prior authorization request leads to coverage' });
      expect(res.body.next_steps).to.deep.equal([
        { step: 1, title: 'Not covered', items: [`Not covered; a claim will be denied. ${REASON}`, `Where the exclusion is stated: ${CITATION}`] },
        { step: 2, title: 'Submission', items: ['No prior authorization request leads to coverage. Options: a covered alternative, or ask the program about an exception or a fair hearing after a denial'] },
        { step: 3, title: 'Expected turnaround', items: ['No prior authorization decision applies: the program does not cover this'] },
      ]);
      expect(JSON.stringify(res.body)).to.not.match(/bill as usual|No decision to wait for|not required|No PA request needed/i);
    });

    it('when no PA applies to a covered subject, then nothing changes: no not_covered, and "bill as usual"', async () => {
      const res = await get('/v1/pauth-lookup?state=CA&program=medicaid_ffs&drug=glp1_weight_loss');
      expect(res.status).to.equal(200);
      expect(res.body.result).to.not.have.any.keys('not_covered', 'exclusion');
      expect(res.body.next_steps[1].items[0]).to.match(/^No prior authorization request is needed; bill as usual/);
    });
  });

  describe('GET /v1/compare', () => {
    it('when an excluded state is compared with covering ones, then it is counted in not_covered (not no_pa), named, and covering states are not "outliers requiring PA"', async () => {
      const res = await get('/v1/compare?states=IN,TX,CA,OH&program=medicaid_ffs&drug=glp1_weight_loss');
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      expect(res.body.results[0]).to.include({ state_abbr: 'IN', gap: false, pa_required: false, not_covered: true });
      expect(res.body.summary).to.deep.equal({
        total: 4,
        require_pa: 2,
        no_pa: 1,
        not_covered: 1,
        gaps: 0,
        divergence: true,
        divergence_summary: 'Not covered (no PA route; a claim will be denied) in IN. PA required in 2 of 3 states covering it; outlier without PA: CA. PA type is full in every state that requires PA.',
        outliers: { pa_required: ['CA'], pa_type: [] },
        gap_states: [],
        not_covered_states: ['IN'],
      });
    });

    it('when the excluded state sits beside one that needs no PA and a gap, then the sentence says the only covering state needs no PA (not that the excluded one does not either)', async () => {
      const res = await get('/v1/compare?states=IN,CA,NV&program=medicaid_ffs&drug=glp1_weight_loss');
      expect(res.status).to.equal(200);
      expect(res.body.summary).to.deep.include({ total: 3, require_pa: 0, no_pa: 1, not_covered: 1, gaps: 1, divergence: true, not_covered_states: ['IN'], gap_states: ['NV'] });
      expect(res.body.summary.divergence_summary).to.equal(
        'Not covered (no PA route; a claim will be denied) in IN. The only state covering it, CA, does not require PA. No verified rule for NV (gap).',
      );
    });
  });

  describe('GET /v1/compare-payers', () => {
    it('when no payer of the state has a rule but the program rule excludes the subject, then the summary names the program as not covering it', async () => {
      const res = await get('/v1/compare-payers?state=IN&drug=glp1_weight_loss');
      expect(res.status).to.equal(200);
      expect(res.body.program_rules.map((r: Any) => [r.program, r.not_covered])).to.deep.equal([['medicaid_ffs', true]]);
      expect(res.body.summary).to.include({ total: 0, not_covered: 0 });
      expect(res.body.summary.programs_not_covered).to.deep.equal(['medicaid_ffs']);
      expect(res.body.summary.divergence_summary).to.equal(
        'The corpus knows no payer in this state for this subject. Program rules (what a payer without its own rule follows): Medicaid fee-for-service does not cover it.',
      );
    });
  });

  describe('GET /v1/action-plan', () => {
    const plan = (qs: string) => get(`/v1/action-plan?state=IN&program=medicaid_ffs&drug=glp1_weight_loss${qs}`);
    const kinds = (b: Any) => b.action_plan.ranked_actions.map((a: Any) => [a.kind, a.score]);

    it('when nothing is denied yet, then no "proceed" and no "submit"; a covered alternative ranks first, then paying out of pocket', async () => {
      const res = await plan('');
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      const b = res.body;
      expect(b.rule).to.include({ not_covered: true });
      expect(kinds(b)).to.deep.equal([['switch_alternative', 50], ['pay_out_of_pocket', 25], ['wait', 5]]);
      expect(b.action_plan.primary.title).to.equal('Ask the prescriber about a covered alternative');
      expect(b.action_plan.primary.rationale).to.contain('Medicaid fee-for-service in IN does not cover');
      expect(b.action_plan.basis.summary).to.match(/^Ask the prescriber about a covered alternative\. /);
      const na = Object.fromEntries(b.action_plan.not_applicable.map((x: Any) => [x.kind, x.reason]));
      expect(na.proceed).to.equal('The program does not cover this subject (an exclusion): a claim will be denied.');
      expect(na.submit).to.match(/^The program does not cover this subject .* does not lead to coverage\.$/);
      expect(JSON.stringify(b.action_plan.ranked_actions)).to.not.match(/no prior authorization needed|Proceed/i);
      expect(b.supporting_criteria).to.deep.include({ kind: 'exclusion', text: `Not covered: ${REASON} (${CITATION})`, source_url: 'https://medicaid.in.example.gov/pa/glp1_weight_loss' });
    });

    it('when an alternative and a cost are given, then the covered alternative scores above paying (80 vs 25 + cost signals)', async () => {
      const res = await plan('&has_alternative=true&drug_cost_usd=1200');
      const b = res.body;
      expect(kinds(b)).to.deep.equal([['switch_alternative', 80], ['pay_out_of_pocket', 35], ['wait', 5]]);
      expect(b.action_plan.primary.title).to.equal('Switch to a covered alternative');
      expect(b.action_plan.ranked_actions[1].title).to.equal('Pay out of pocket (about $1,200)');
    });

    it('when it was denied, then the appeal (or fair hearing) carries the not_covered weight and ranks below a covered alternative', async () => {
      const res = await plan('&denied=true&denial_basis=other&denial_days_ago=3&has_alternative=true');
      expect(res.status).to.equal(200);
      const b = res.body;
      const appeal = b.action_plan.ranked_actions.find((a: Any) => a.kind === 'appeal');
      expect(appeal.signals).to.deep.include({ name: 'not_covered', value: true, weight: -20 });
      expect(appeal.rationale).to.contain('can argue that the exclusion does not apply to this use');
      expect(b.action_plan.primary.kind).to.equal('switch_alternative');
      expect(b.action_plan.not_applicable.map((x: Any) => x.kind)).to.include.members(['proceed', 'submit']);
    });

    it('when it was denied (even within the 10-day window, as not on formulary), then no continued benefits (nothing was authorized), no formulary exception, and no "plan" in fee-for-service', async () => {
      const res = await plan('&denied=true&denial_basis=not_on_formulary&denial_days_ago=3&drug_cost_usd=900');
      expect(res.status).to.equal(200);
      const b = res.body;
      const kinds = b.action_plan.ranked_actions.map((a: Any) => a.kind);
      expect(kinds).to.not.include('request_continued_benefits');
      const cb = b.action_plan.not_applicable.find((x: Any) => x.kind === 'request_continued_benefits');
      expect(cb.reason).to.contain('nothing was');
      const text = JSON.stringify(b.action_plan.ranked_actions.map((a: Any) => a.rationale));
      expect(text).to.not.contain('formulary exception');
      expect(text).to.not.contain("the plan's medical director");
      expect(text).to.not.contain('ask the plan whether it reimburses');
    });
  });

  describe('DTR: GET /v1/dtr/questionnaire/{state}/{program}/{drug}', () => {
    it('when the subject is excluded, then the form says not covered (not "PA is not required; keep this documentation") and is a valid dtr-std-questionnaire', async () => {
      const res = await get('/v1/dtr/questionnaire/IN/medicaid_ffs/glp1_weight_loss');
      expect(res.status).to.equal(200);
      const q = res.body as Questionnaire;
      expect(q.meta?.profile).to.deep.equal([DTR_PROFILE.stdQuestionnaire]);
      const errors = validateAgainst(q as never, DTR_PROFILE.stdQuestionnaire)
        .filter((m) => !(m === 'Questionnaire.subjectType: Value did not match expected pattern' && JSON.stringify(q.subjectType) === '["Patient"]'));
      expect(errors).to.deep.equal([]);
      const items = q.item as QuestionnaireItem[];
      expect(items.map((i) => i.linkId)).to.not.include('no-pa');
      expect(items.find((i) => i.linkId === 'not-covered')).to.deep.equal({
        linkId: 'not-covered',
        type: 'display',
        text: `Not covered: the program does not cover this (${CITATION}); a claim will be denied and prior authorization does not lead to coverage. Options: a covered alternative, or ask the program about an exception or a fair hearing after a denial.`,
      });
      expect(q.description).to.equal('Documentation requirements of rule in.medicaid-ffs.d.glp1-weight-loss (not covered: no PA route, type none).');
      expect(q.title).to.equal('Not covered (documentation for an exception or hearing request): GLP-1 agonists for weight loss, IN Medicaid fee-for-service');
    });
  });

  describe('CRD: order-select for the excluded drug', () => {
    it('when the order is for an excluded drug, then coverage information is covered=not-covered with the exclusion as the reason (no pa-needed), valid under CRD 2.0.1, and the card says "Not covered"', async () => {
      const body = orderSelectPartDRxNorm();
      body.prefetch.patient = patient('pat-in', 'IN', 'Indianapolis');
      body.prefetch.coverage.entry[0].resource = coverage('cov-in', 'pat-in', '213', 'Medicaid FFS', 'Indiana Medicaid', 'Organization/in-medicaid');
      body.context.patientId = 'pat-in';
      for (const e of body.context.draftOrders.entry) {
        e.resource.subject = { reference: 'Patient/pat-in' };
        e.resource.insurance = [{ reference: 'Coverage/cov-in' }];
      }
      const selected = body.context.draftOrders.entry[0].resource;
      selected.medicationCodeableConcept = { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: SEMAGLUTIDE_SCD, display: 'semaglutide 2.4 MG/0.75ML Auto-Injector' }] };
      const res = await request(t.app.handler).post('/v1/cds-services/service-coverage-requirements-select').set('x-api-key', key).send(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const actions = res.body.systemActions as Any[];
      expect(actions).to.have.length(1);
      const a = actions[0];
      expectValidFhir(a.resource);
      expectValid(a.resource, CRD_PROFILE.MedicationRequest);
      const ext = a.resource.extension.find((e: Any) => e.url === CRD_EXT.coverageInformation);
      expect(coverageInformationProblems(ext)).to.deep.equal([]);
      const info = infoOf(a);
      expect(info.covered).to.deep.equal(['not-covered']);
      expect(info).to.not.have.property('pa-needed');
      expect(info).to.not.have.property('questionnaire');
      expect(info['coverage-assertion-id']).to.deep.equal(['in.medicaid-ffs.d.glp1-weight-loss']);
      expect(JSON.stringify(info.reason)).to.contain(`Not covered: ${REASON} (${CITATION}). A claim will be denied`);
      const card = (res.body.cards as Any[]).find((c) => c.summary.startsWith('Not covered')) as Any;
      expect(card, JSON.stringify(res.body.cards.map((c: Any) => c.summary))).to.exist;
      expect(card.indicator).to.equal('warning');
      expect(card.detail).to.contain('**Not covered:** a claim will be denied');
      expect(JSON.stringify(res.body.cards)).to.not.contain('No prior authorization required');
    });
  });

  describe('US Drug Formulary: GET /v1/formulary/{state}/{program}', () => {
    it('when a class is excluded, then the formulary holds no FormularyItem for its drugs (a covered class keeps its items)', async () => {
      const res = await get('/v1/formulary/IN/medicaid_ffs');
      expect(res.status).to.equal(200);
      const resources = (res.body.entry as Any[]).map((e) => e.resource);
      const items = resources.filter((r) => r.resourceType === 'Basic');
      expect(items.map((i) => i.id)).to.deep.equal(['formularyitem-in-medicaid-ffs-312941']);
      for (const i of items) expectValid(i, USDF_PROFILE.formularyItem);
      expect(JSON.stringify(resources)).to.not.contain(SEMAGLUTIDE_SCD);
    });
  });
});

describe('PAS: an exclusion built from facts (pa_required false) is A3, never "not required" A1', function () {
  this.timeout(60_000);
  it('when the rule says no PA but excludes the service, then the item is not certified with the exclusion and its citation', async () => {
    const docs = pasCorpus().map((d) =>
      d.resourceType === 'CoverageRule' && d.requirement.exclusion
        ? excluded({ state: 'MA', program: 'medicaid_mco', kind: 'service', code: 'skilled_nursing_facility', codes: [{ system: X12_1365, code: '45', display: 'Skilled nursing facility' }] }, 'Skilled nursing is not a benefit of this program.', 'Test manual, section 4')
        : d,
    );
    const t = await makeTestApp(docs, { env: { PUBLIC_BASE_URL: 'https://prauth.test' } });
    const key = await t.key({ name: 'pas' });
    const res = await request(t.app.handler).post('/v1/Claim/$submit').set('x-api-key', key).set('content-type', 'application/fhir+json')
      .send(JSON.stringify(pasRequest('excluded-no-pa', [{ code: '45' }])));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const cr = res.body.entry[0].resource;
    expect(reviewCodes(cr)).to.deep.equal([[1, 'A3']]);
    const notes = cr.processNote.map((n: Any) => n.text).join(' ');
    expect(notes).to.contain('Not certified: Skilled nursing is not a benefit of this program. (Test manual, section 4; rule ma.medicaid-mco.s.skilled-nursing-facility).');
    expect(notes).to.not.contain('Prior authorization is not required');
  });
});
