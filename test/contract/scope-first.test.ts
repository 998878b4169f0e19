// Issue 13 findings: a key scoped to some programs read every program through /v1/compare-payers without `program`;
// $questionnaire-package with an out-of-scope canonical, a CDS call with ?state=CA, and compare-payers / action-plan
// with an unknown code answered 200/400/404 before the 403 (an existence oracle). The rule now: every keyed route
// declares the scope its parameters name (RouteDef.scope) and the pipeline authorizes it before the handler runs.
import { expect } from 'chai';
import request from 'supertest';
import type { RouteDef } from '../../src/api/route.js';
import { example, fhirCorpus } from '../support/fhir-corpus.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Probe {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  compare?: boolean;
}

/** Instance-level $questionnaire-package: the questionnaire is named by the path. */
const instance = () => ({
  resourceType: 'Parameters',
  parameter: [{ name: 'coverage', resource: { resourceType: 'Coverage', id: 'c1', status: 'active', beneficiary: { reference: 'Patient/p1' }, payor: [{ display: 'Payer' }] } }],
});
const canonical = (state: string, program: string, code: string) => ({
  resourceType: 'Parameters',
  parameter: [
    { name: 'coverage', resource: { resourceType: 'Coverage', status: 'active', beneficiary: { reference: 'Patient/p1' }, payor: [{ reference: 'Organization/o1' }] } },
    { name: 'questionnaire', valueCanonical: `https://prauth.test/v1/dtr/questionnaire/${state}/${program}/${code}` },
  ],
});

/**
 * Per route: a request outside the key's subscription where data exists, the same where nothing exists, and an
 * in-scope control (so the test can fail). The key covers TX and part_d only.
 */
const PROBES: Record<string, { existing: Probe; missing: Probe; inScope?: Probe }> = {
  'pauth-lookup': {
    existing: { method: 'GET', path: '/v1/pauth-lookup?state=OK&program=medicare_advantage&service=diagnostic_imaging' },
    missing: { method: 'GET', path: '/v1/pauth-lookup?state=OK&program=medicare_advantage&service=home_health' },
    inScope: { method: 'GET', path: '/v1/pauth-lookup?state=TX&program=part_d&drug=hepatitis_c' },
  },
  'pa-lookup': {
    existing: { method: 'GET', path: '/v1/pa-lookup?state=OK&program=medicare_advantage&service=diagnostic_imaging' },
    missing: { method: 'GET', path: '/v1/pa-lookup?state=WY&program=medicare_advantage&service=diagnostic_imaging' },
    inScope: { method: 'GET', path: '/v1/pa-lookup?state=TX&program=part_d&drug=hepatitis_c' },
  },
  compare: {
    existing: { method: 'GET', path: '/v1/compare?states=TX,OK&program=medicare_advantage&service=diagnostic_imaging', compare: true },
    missing: { method: 'GET', path: '/v1/compare?states=TX,OK&program=medicare_advantage&service=home_health', compare: true },
  },
  // The finding: without `program` the answer spans every program, so a key limited to some programs gets 403.
  'compare-payers': {
    existing: { method: 'GET', path: '/v1/compare-payers?state=TX&drug=hepatitis_c' },
    missing: { method: 'GET', path: '/v1/compare-payers?state=TX&drug=anticoagulants' },
    inScope: { method: 'GET', path: '/v1/compare-payers?state=TX&program=part_d&drug=hepatitis_c' },
  },
  'action-plan': {
    // E0431 is on OK's PA code list; A9999 resolves nowhere (it used to be a 400 before the 403).
    existing: { method: 'GET', path: '/v1/action-plan?state=OK&program=medicare_advantage&code=E0431' },
    missing: { method: 'GET', path: '/v1/action-plan?state=OK&program=medicare_advantage&code=A9999' },
    inScope: { method: 'GET', path: '/v1/action-plan?state=TX&program=part_d&drug=hepatitis_c' },
  },
  'fhir-formulary': {
    existing: { method: 'GET', path: '/v1/formulary/OK/medicare_advantage' },
    missing: { method: 'GET', path: '/v1/formulary/WY/part_d' },
    inScope: { method: 'GET', path: '/v1/formulary/TX/part_d' },
  },
  'fhir-dtr-questionnaire': {
    existing: { method: 'GET', path: '/v1/dtr/questionnaire/OK/medicare_advantage/diagnostic_imaging' },
    missing: { method: 'GET', path: '/v1/dtr/questionnaire/OK/medicare_advantage/home_health' },
    inScope: { method: 'GET', path: '/v1/dtr/questionnaire/TX/part_d/hepatitis_c' },
  },
  'fhir-questionnaire-operation': {
    existing: { method: 'POST', path: '/v1/Questionnaire/$questionnaire-package', body: canonical('OK', 'medicare_advantage', 'diagnostic_imaging') },
    missing: { method: 'POST', path: '/v1/Questionnaire/$questionnaire-package', body: canonical('OK', 'medicare_advantage', 'home_health') },
    inScope: { method: 'POST', path: '/v1/Questionnaire/$questionnaire-package', body: canonical('TX', 'part_d', 'hepatitis_c') },
  },
  'fhir-questionnaire-instance-operation': {
    existing: { method: 'POST', path: '/v1/Questionnaire/pa-ok-medicare-advantage-diagnostic-imaging/$questionnaire-package', body: instance() },
    missing: { method: 'POST', path: '/v1/Questionnaire/pa-ok-medicare-advantage-home-health/$questionnaire-package', body: instance() },
    inScope: { method: 'POST', path: '/v1/Questionnaire/pa-tx-part-d-hepatitis-c/$questionnaire-package', body: instance() },
  },
  // Issue 28: a rule id names its state and program by its own text; the same 403 whether or not the rule exists.
  'rules-similar': {
    existing: { method: 'GET', path: '/v1/rules/similar?rule_id=ok.medicare-advantage.s.diagnostic-imaging' },
    missing: { method: 'GET', path: '/v1/rules/similar?rule_id=ok.medicare-advantage.s.home-health' },
    inScope: { method: 'GET', path: '/v1/rules/similar?rule_id=tx.part-d.d.hepatitis-c' },
  },
  'fhir-claim-operation': {
    existing: { method: 'POST', path: '/v1/Claim/$submit?state=MA&program=medicaid_mco', body: example('pas-2.2.1-claim-submit-request-bundle.json') },
    missing: { method: 'POST', path: '/v1/Claim/$submit?state=WY&program=medicaid_mco', body: example('pas-2.2.1-claim-submit-request-bundle.json') },
  },
  'cds-service-coverage-requirements': {
    existing: { method: 'POST', path: '/v1/cds-services/service-coverage-requirements?state=OK', body: example('crd-2.2-order-sign-hook-request.json') },
    missing: { method: 'POST', path: '/v1/cds-services/service-coverage-requirements?state=CA', body: example('crd-2.2-order-sign-hook-request.json') },
  },
  'cds-service-coverage-requirements-select': {
    existing: { method: 'POST', path: '/v1/cds-services/service-coverage-requirements-select?state=OK', body: { ...example('crd-2.2-order-sign-hook-request.json'), hook: 'order-select' } },
    missing: { method: 'POST', path: '/v1/cds-services/service-coverage-requirements-select?state=CA', body: { ...example('crd-2.2-order-sign-hook-request.json'), hook: 'order-select' } },
  },
  // The other four CRD hooks (issue 9): the same example body under each hook.
  ...Object.fromEntries(
    (
      [
        ['dispatch', 'order-dispatch'],
        ['appointment', 'appointment-book'],
        ['encounter-start', 'encounter-start'],
        ['encounter-discharge', 'encounter-discharge'],
      ] as const
    ).map(([suffix, hook]) => [
      `cds-service-coverage-requirements-${suffix}`,
      {
        existing: { method: 'POST', path: `/v1/cds-services/service-coverage-requirements-${suffix}?state=OK`, body: { ...example('crd-2.2-order-sign-hook-request.json'), hook } },
        missing: { method: 'POST', path: `/v1/cds-services/service-coverage-requirements-${suffix}?state=CA`, body: { ...example('crd-2.2-order-sign-hook-request.json'), hook } },
      },
    ]),
  ),
};

/**
 * Keyed routes that name no state or program in their parameters, and why they need no declared scope. A new keyed
 * route must either declare `scope` (see src/api/route.ts) or be listed here with its reason.
 */
const NO_JURISDICTIONAL_SCOPE: Record<string, string> = {
  ask: 'state and program come from the question text (read with the vocabulary, not the rules); the handler authorizes them before any rule is read; choices and passages are filtered to the key (test/contract/explore.test.ts)',
  topics: 'no state parameter: counts, jurisdictions and events are filtered to the key',
  'topic-detail': 'no state parameter: by_jurisdiction and sample events are filtered to the key',
  'fhir-claimresponse-vread': "owner-scoped: only the caller's own PAS responses; another caller's preAuthRef answers like an unknown one (test/contract/pas-workflow.test.ts)",
  'fhir-subscription-create': 'a Subscription names no state or program; its notifications carry only the caller\'s own requests (test/contract/pas-workflow.test.ts)',
  'fhir-subscription-status': "owner-scoped: another caller's Subscription id answers like an unknown one (test/contract/pas-workflow.test.ts)",
};
const exempt = (r: RouteDef): string | undefined =>
  NO_JURISDICTIONAL_SCOPE[r.id] ??
  (r.group === 'admin' || r.auth === 'admin' ? 'operator endpoints (admin keys only)' : undefined) ??
  (/-(search|search-post|read)$/.test(r.id) ? 'FHIR read/search: results are filtered with env.inScope, a read authorizes the resource it finds' : undefined);

const without = (body: Any): Any => {
  const { request_id: _r, ...rest } = body;
  return rest;
};

describe('scope is checked before anything reveals data, on every keyed route', () => {
  let t: TestApp;
  let key: string;
  let compareKey: string;

  const send = (p: Probe) => {
    const k = p.compare ? compareKey : key;
    if (p.method === 'GET') return request(t.app.handler).get(p.path).set('x-api-key', k);
    return request(t.app.handler).post(p.path).set('x-api-key', k).set('content-type', p.path.startsWith('/v1/cds') ? 'application/json' : 'application/fhir+json').send(JSON.stringify(p.body));
  };

  before(async () => {
    t = await makeTestApp(fhirCorpus(), { env: { PUBLIC_BASE_URL: 'https://prauth.test' } });
    key = await t.key({ name: 'scoped', states: ['TX'], programs: ['part_d'] });
    compareKey = await t.key({ name: 'scoped-compare', states: ['TX'], programs: ['part_d'], compare: true });
  });

  it('when the route table is read, then every keyed route declares its scope or is listed with a reason', () => {
    const undeclared = t.app.routes.filter((r) => r.auth !== 'none' && !r.scope && !exempt(r)).map((r) => r.id);
    expect(undeclared, 'keyed routes without a declared scope (add RouteDef.scope, or list them in NO_JURISDICTIONAL_SCOPE with a reason)').to.deep.equal([]);
    for (const r of t.app.routes.filter((x) => x.scope && x.auth !== 'none')) expect(PROBES, `no out-of-scope probe for ${r.id}`).to.have.property(r.id);
  });

  for (const [id, probe] of Object.entries(PROBES)) {
    it(`when ${id} is asked outside the subscription, then the same 403 whether or not data exists there`, async function () {
      const route = t.app.routes.find((r) => r.id === id);
      if (!route || route.auth === 'none') this.skip(); // public by configuration (e.g. FORMULARY_PUBLIC): nothing to scope
      const a = await send(probe.existing);
      const b = await send(probe.missing);
      expect(a.status, `${probe.existing.path}: ${a.text.slice(0, 300)}`).to.equal(403);
      expect(b.status, `${probe.missing.path}: ${b.text.slice(0, 300)}`).to.equal(403);
      if (a.body.resourceType === 'OperationOutcome') {
        expect(a.body.issue[0].code).to.equal('forbidden');
        expect(b.body.issue[0].code).to.equal('forbidden');
      } else {
        expect(a.body.code).to.equal('forbidden');
        expect(b.body.code).to.equal('forbidden');
        expect(Object.keys(a.body.out_of_scope)).to.deep.equal(Object.keys(b.body.out_of_scope));
      }
      if (probe.inScope) {
        const c = await send(probe.inScope);
        expect(c.status, `${probe.inScope.path}: ${c.text.slice(0, 300)}`).to.not.equal(403);
        expect(c.status).to.be.lessThan(500);
      }
    });
  }

  it('when compare-payers omits program, then a key limited to some programs gets 403 naming the others and how to narrow', async () => {
    const res = await send(PROBES['compare-payers']!.existing);
    expect(res.status).to.equal(403);
    expect(res.body.out_of_scope.programs).to.include.members(['medicaid_mco', 'medicare_advantage', 'chip']);
    expect(res.body.out_of_scope.programs).to.not.include('part_d');
    expect(res.body.error).to.contain('program=');
    const all = await t.key({ name: 'all programs', states: ['TX'] });
    const ok = await request(t.app.handler).get('/v1/compare-payers?state=TX&drug=hepatitis_c').set('x-api-key', all);
    expect(ok.status).to.equal(200);
    expect(ok.body.program_rules.map((r: Any) => r.program)).to.include('part_d');
  });

  it('when a $questionnaire-package context names a rule outside the subscription, then 403 whether or not the rule exists', async () => {
    const body = (context: string) => ({
      resourceType: 'Parameters',
      parameter: [
        { name: 'coverage', resource: { resourceType: 'Coverage', status: 'active', beneficiary: { reference: 'Patient/p1' }, payor: [{ reference: 'Organization/o1' }] } },
        { name: 'context', valueString: context },
      ],
    });
    for (const context of ['ok.medicare-advantage.s.diagnostic-imaging', 'ok.medicare-advantage.s.nothing-here']) {
      const res = await send({ method: 'POST', path: '/v1/Questionnaire/$questionnaire-package', body: body(context) });
      expect(res.status, context).to.equal(403);
      expect(res.body.issue[0].code).to.equal('forbidden');
      expect(res.body.issue[0].diagnostics).to.equal("State OK not in this key's subscription");
    }
    const unknown = await send({ method: 'POST', path: '/v1/Questionnaire/$questionnaire-package', body: body('no-such-rule') });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.issue[0].diagnostics).to.contain("context 'no-such-rule' is not a coverage-assertion-id we issued");
    const inScope = await send({ method: 'POST', path: '/v1/Questionnaire/$questionnaire-package', body: body('tx.part-d.d.hepatitis-c') });
    expect(inScope.status).to.equal(200);
    expect(inScope.body.parameter[0].resource.resourceType).to.equal('Bundle');
  });

  // Issue 28: a valid state outside the subscription was a 400 when another value beside it was invalid (an unknown
  // program, a canonical without its Coverage, a malformed hook body). Each named value is authorized on its own.
  const canonicalOnly = (url: string) => ({ resourceType: 'Parameters', parameter: [{ name: 'questionnaire', valueCanonical: url }] });
  const OUTSIDE_BESIDE_INVALID: { name: string; probe: Probe; state: string }[] = [
    { name: 'lookup with an invalid program', probe: { method: 'GET', path: '/v1/pauth-lookup?state=OK&program=bogus&drug=hepatitis_c' }, state: 'OK' },
    { name: 'compare-payers with an invalid program', probe: { method: 'GET', path: '/v1/compare-payers?state=OK&program=bogus&drug=hepatitis_c' }, state: 'OK' },
    { name: 'action-plan with an invalid program', probe: { method: 'GET', path: '/v1/action-plan?state=OK&program=medicaid&drug=hepatitis_c' }, state: 'OK' },
    { name: 'CDS hook with ?state=CA and an ambiguous program', probe: { method: 'POST', path: '/v1/cds-services/service-coverage-requirements?state=CA&program=medicaid', body: example('crd-2.2-order-sign-hook-request.json') }, state: 'CA' },
    { name: 'CDS hook with ?state=CA and a malformed body', probe: { method: 'POST', path: '/v1/cds-services/service-coverage-requirements?state=CA', body: { hook: 'order-sign' } }, state: 'CA' },
    { name: 'CDS hook naming CA in its prauth extension, with an invalid program', probe: { method: 'POST', path: '/v1/cds-services/service-coverage-requirements', body: { ...example('crd-2.2-order-sign-hook-request.json'), extension: { 'prauth.state': 'CA', 'prauth.program': 'gold' } } }, state: 'CA' },
    { name: 'DTR package with ?state=CA and an ambiguous program', probe: { method: 'POST', path: '/v1/Questionnaire/$questionnaire-package?state=CA&program=medicaid', body: canonical('TX', 'part_d', 'hepatitis_c') }, state: 'CA' },
    { name: 'DTR package: a CA canonical without the Coverage', probe: { method: 'POST', path: '/v1/Questionnaire/$questionnaire-package', body: canonicalOnly('https://prauth.test/v1/dtr/questionnaire/CA/medicaid_mco/hepatitis_c') }, state: 'CA' },
    { name: 'DTR package: a CA canonical with a program alias, on another host', probe: { method: 'POST', path: '/v1/Questionnaire/$questionnaire-package', body: canonical('CA', 'mco', 'hepatitis_c') }, state: 'CA' },
    { name: 'DTR $next-question for a CA form we do not publish', probe: { method: 'POST', path: '/v1/Questionnaire/$next-question', body: { resourceType: 'QuestionnaireResponse', status: 'in-progress', questionnaire: 'https://prauth.test/v1/dtr/questionnaire/CA/medicaid_mco/dental' } }, state: 'CA' },
    { name: 'DTR questionnaire path with an invalid program', probe: { method: 'GET', path: '/v1/dtr/questionnaire/CA/medicaid/hepatitis_c' }, state: 'CA' },
    { name: 'formulary path with an invalid program', probe: { method: 'GET', path: '/v1/formulary/CA/medicaid' }, state: 'CA' },
    { name: 'ask with a CA hint and an invalid program hint', probe: { method: 'POST', path: '/v1/ask', body: { question: 'Humira', state: 'CA', program: 'gold' } }, state: 'CA' },
  ];
  for (const c of OUTSIDE_BESIDE_INVALID) {
    it(`when a ${c.name} comes from a TX key, then 403 naming ${c.state}, not 400`, async () => {
      const res = await (c.probe.path === '/v1/ask' ? request(t.app.handler).post('/v1/ask').set('x-api-key', key).send(c.probe.body as object) : send(c.probe));
      expect(res.status, res.text.slice(0, 300)).to.equal(403);
      if (res.body.resourceType === 'OperationOutcome') {
        expect(res.body.issue[0].code).to.equal('forbidden');
        expect(res.body.issue[0].diagnostics).to.equal(`State ${c.state} not in this key's subscription`);
      } else {
        expect(res.body).to.include({ code: 'forbidden', error: `State ${c.state} not in this key's subscription` });
        expect(res.body.out_of_scope).to.deep.equal({ states: [c.state] });
      }
    });
  }

  it('when the invalid value comes with a state the key covers, then it is still the 400 naming it', async () => {
    const lookup = await send({ method: 'GET', path: '/v1/pauth-lookup?state=TX&program=bogus&drug=hepatitis_c' });
    expect(lookup.status).to.equal(400);
    expect(lookup.body.error).to.match(/^Invalid program 'bogus'/);
    const cds = await send({ method: 'POST', path: '/v1/cds-services/service-coverage-requirements?state=TX&program=medicaid', body: example('crd-2.2-order-sign-hook-request.json') });
    expect(cds.status).to.equal(400);
    // One wording for every surface since 4a21046 (domain/named-scope): the value, then what is accepted.
    expect(cds.body.error).to.match(/^Invalid program 'medicaid': expected medicaid_mco, /);
    const pkg = await send({ method: 'POST', path: '/v1/Questionnaire/$questionnaire-package', body: canonicalOnly('https://prauth.test/v1/dtr/questionnaire/TX/part_d/hepatitis_c') });
    expect(pkg.status).to.equal(400);
    expect(pkg.body.issue[0].diagnostics).to.equal("A 'coverage' parameter (the member's Coverage) is required");
    const next = await send({ method: 'POST', path: '/v1/Questionnaire/$next-question', body: { resourceType: 'QuestionnaireResponse', status: 'in-progress', questionnaire: 'https://prauth.test/v1/dtr/questionnaire/TX/part_d/dental' } });
    expect(next.status).to.equal(400);
    expect(next.body.issue[0].diagnostics).to.match(/^The adaptive Questionnaire is not one we publish/);
    const lower = await send({ method: 'GET', path: '/v1/pauth-lookup?state=ca&program=part_d&drug=hepatitis_c' });
    expect(lower.status).to.equal(400); // not a state as the interface spells it (^[A-Z]{2}$): names nothing
  });

  it('when the key covers the request, then the answers are unchanged (no false 403)', async () => {
    const wide = await t.key({ name: 'wide' });
    const r = await request(t.app.handler).get('/v1/action-plan?state=OK&program=medicare_advantage&code=A9999').set('x-api-key', wide);
    expect(r.status).to.equal(400);
    expect(r.body.error).to.contain('does not resolve');
    const cds = await request(t.app.handler).post('/v1/cds-services/service-coverage-requirements?state=OK').set('x-api-key', wide).send(example('crd-2.2-order-sign-hook-request.json'));
    expect(cds.status).to.equal(200);
    expect(without(cds.body).systemActions.length).to.be.greaterThan(0);
  });
});
