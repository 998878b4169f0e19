import { expect } from 'chai';
import request from 'supertest';
import { CRD_EXT, CRD_PROFILE, CRD_TEMP_CS } from '../../fhir-profiles/canonicals.js';
import { expectValid } from '../support/ig-validate.js';
import { coverageInformationProblems } from '../../src/fhir/crd/coverage-info.js';
import { buildCapabilityStatement, buildCdsDiscovery, FHIR_DECLS } from '../../src/api/registry.js';
import { CDS_SERVICES } from '../../src/api/cds-services.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { example, fhirCorpus } from '../support/fhir-corpus.js';
import { expectValidFhir } from '../support/fhir-validate.js';
import { expectGolden } from '../support/golden.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';
import { infoOf } from '../support/crd-response.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The coverage-information sub-extensions of a system action as {url: values}. */
const info = infoOf;

describe('CDS Hooks CRD: /v1/cds-services', function () {
  this.timeout(60_000); // the first validation loads the IG packages
  let t: TestApp;
  let key: string;
  const post = (id: string, body: unknown, k: string | null = key) => {
    const r = request(t.app.handler).post(`/v1/cds-services/${id}`).send(body as object);
    return k ? r.set('x-api-key', k) : r;
  };
  const orderSign = () => example('crd-2.2-order-sign-hook-request.json');

  before(async () => {
    t = await makeTestApp(fhirCorpus(), { env: { PUBLIC_BASE_URL: 'https://prauth.test' } });
    key = await t.key({ name: 'cds' });
  });

  function expectValidResponse(body: Any): void {
    for (const a of body.systemActions ?? []) {
      expect(a.type).to.equal('update');
      expectValidFhir(a.resource);
      expectValid(a.resource, CRD_PROFILE[a.resource.resourceType as keyof typeof CRD_PROFILE]);
      const ext = a.resource.extension.filter((e: Any) => e.url === CRD_EXT.coverageInformation);
      expect(ext).to.have.length(1);
      expect(coverageInformationProblems(ext[0])).to.deep.equal([]);
    }
    for (const c of body.cards) {
      expect(c.summary.length).to.be.lessThan(140);
      expect(c.source.topic.system).to.equal(CRD_TEMP_CS);
    }
  }
  const why = (body: Any): string[] => body.cards.filter((c: Any) => c.summary.startsWith('Coverage requirements not determined')).map((c: Any) => c.detail);

  it('when discovery is fetched, then the six CRD services with root-level prefetch tokens only', async () => {
    const res = await request(t.app.handler).get('/v1/cds-services');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.headers['cache-control']).to.contain('s-maxage=3600');
    expect(res.body.services.map((s: Any) => [s.id, s.hook])).to.deep.equal([
      ['service-coverage-requirements', 'order-sign'],
      ['service-coverage-requirements-select', 'order-select'],
      ['service-coverage-requirements-dispatch', 'order-dispatch'],
      ['service-coverage-requirements-appointment', 'appointment-book'],
      ['service-coverage-requirements-encounter-start', 'encounter-start'],
      ['service-coverage-requirements-encounter-discharge', 'encounter-discharge'],
    ]);
    for (const s of res.body.services) {
      for (const tpl of Object.values(s.prefetch) as string[]) {
        for (const [, token] of tpl.matchAll(/\{\{([^}]*)\}\}/g)) expect(token).to.match(/^context\.[A-Za-z]+$/);
      }
      expect(s.extension['davinci-crd.version']).to.deep.equal(['2.0.1']);
      expect(s.extension['davinci-crd.configuration-options'].map((o: Any) => o.code)).to.deep.equal(['coverage-info', 'limits', 'max-cards']);
    }
  });

  it('when the CRD order-sign example is sent, then one update system action per order with coverage information from the rules, and verdict cards (golden)', async () => {
    const res = await post('service-coverage-requirements', orderSign());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectOpenApi(t.app.routes, res, 'POST');
    expectValidResponse(res.body);
    expectGolden('crd-order-sign-example.json', res.body);
    const [mammo, oxygen] = res.body.systemActions;
    expect(mammo.resource.id).to.equal('1357');
    expect(info(mammo)).to.deep.include({ covered: ['covered'], 'pa-needed': ['no-auth'], 'coverage-assertion-id': ['ok.medicare-advantage.s.diagnostic-imaging'] });
    expect(info(mammo).coverage).to.deep.equal([{ reference: 'http://example.org/someEHR/fhir/Coverage/COV1' }]);
    expect(info(oxygen)).to.deep.include({
      covered: ['covered'],
      'pa-needed': ['auth-needed'],
      'doc-needed': ['clinical'],
      questionnaire: ['https://prauth.test/v1/dtr/questionnaire/OK/medicare_advantage/durable_medical_equipment|1'],
      'coverage-assertion-id': ['ok.medicare-advantage.s.durable-medical-equipment'],
    });
    // CRD 2.0.1 detail values are strings (no valueUrl, no category).
    const source = (info(oxygen).detail as Any[][]).find((d) => d.some((p) => p.valueCodeableConcept?.coding?.[0]?.code === 'policy-source'))!;
    expect(source.find((p) => p.url === 'value')!.valueString).to.equal('https://medicaid.ok.example.gov/pa/durable_medical_equipment');
    // resp-37: nothing but the extension changes
    const original = orderSign().context.draftOrders.entry[1].resource;
    expect({ ...oxygen.resource, extension: undefined }).to.deep.equal({ ...original, extension: undefined });
    expect(res.body.cards.map((c: Any) => c.summary)).to.deep.equal([
      'No prior authorization required: Diagnostic imaging (Medicare Advantage (Part C), OK)',
      'Prior authorization required: Durable medical equipment (DMEPOS) (Medicare Advantage (Part C), OK)',
    ]);
    expect(res.body.cards[1].source).to.deep.include({ label: 'Acme Health Plan', url: 'https://medicaid.ok.example.gov/pa/durable_medical_equipment' });
    // No DTR app configured here: each verdict card is an External Reference card linking its rule's source.
    expect(res.body.cards[1].links).to.deep.equal([{ label: 'durable_medical_equipment policy', url: 'https://medicaid.ok.example.gov/pa/durable_medical_equipment', type: 'absolute' }]);
  });

  it('when the order is a MedicationRequest with step therapy, then an informational card adds the limits the extension cannot carry', async () => {
    const body = orderSign();
    body.context.draftOrders.entry = [
      { resource: { resourceType: 'MedicationRequest', id: 'mr1', status: 'draft', intent: 'order', subject: { reference: 'Patient/123' }, authoredOn: '2026-11-20', requester: { reference: 'Practitioner/ABC' }, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1484911' }] } } },
      { resource: { resourceType: 'NutritionOrder', id: 'n1', status: 'draft', intent: 'order', patient: { reference: 'Patient/123' }, dateTime: '2024-01-01' } },
    ];
    const res = await post('service-coverage-requirements?state=TX&program=part_d', body);
    expect(res.status).to.equal(200);
    expectValidResponse(res.body);
    expect(res.body.systemActions).to.have.length(1);
    expect(info(res.body.systemActions[0])['coverage-assertion-id']).to.deep.equal(['tx.part-d.d.hepatitis-c']);
    expect(res.body.cards.filter((c: Any) => c.source.topic.code === 'limits')).to.deep.equal([]);
    expect(why(res.body)[0]).to.contain('a NutritionOrder is not evaluated');
    const glp = orderSign();
    glp.context.draftOrders.entry = [{ resource: { ...body.context.draftOrders.entry[0].resource, id: 'mr2', medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1991302' }] } } }];
    const withCard = await post('service-coverage-requirements?state=TX&program=part_d', glp);
    expectValidResponse(withCard.body);
    const limits = withCard.body.cards.filter((c: Any) => c.source.topic.code === 'limits');
    expect(limits).to.have.length(1);
    expect(limits[0]).to.deep.include({ summary: 'Coverage limits apply: step therapy, quantity limit, new starts only', indicator: 'info' });
    expect(limits[0].detail).to.contain('Metformin for 90 days first').and.contain('4 pens per 28 days');
    expect(limits[0].source.label).to.equal('TX Medicare Part D');
    expect(limits[0].extension['davinci-crd.associated-resource']).to.deep.equal([{ reference: 'MedicationRequest/mr2' }]);
    const capped = await post('service-coverage-requirements?state=TX&program=part_d', { ...glp, extension: { 'davinci-crd.configuration': { 'max-cards': 0 } } });
    expect(capped.body.cards).to.deep.equal([]);
    expect(capped.body.systemActions).to.have.length(1);
  });

  /** The coverage-information codes of each system action: [id, covered, pa-needed]. */
  const verdicts = (body: Any): string[][] =>
    body.systemActions.map((a: Any) => {
      const subs = a.resource.extension.find((e: Any) => e.url === CRD_EXT.coverageInformation).extension;
      const code = (url: string) => subs.find((x: Any) => x.url === url)?.valueCode;
      return [a.resource.id, code('covered'), code('pa-needed')];
    });

  it('when the payer is unknown, then coverage information saying conditional (CRD 2.0.1 has no indeterminate) and a card saying why, not an error', async () => {
    const body = orderSign();
    body.prefetch.coverage.entry[0].resource.payor = [{ reference: 'Organization/other', display: 'Other Plan' }];
    const res = await post('service-coverage-requirements', body);
    expect(res.status).to.equal(200);
    expectValidResponse(res.body);
    expect(verdicts(res.body)).to.deep.equal([['1357', 'conditional', 'conditional'], ['2468', 'conditional', 'conditional']]);
    expect(why(res.body)).to.have.length(2);
    expect(why(res.body)[0]).to.contain('program unknown');
    expect(res.body.cards[0].source.label).to.equal('Other Plan');
  });

  for (const [label, coverage] of [['missing', undefined], ['null', null], ['an OperationOutcome', { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'forbidden' }] }]] as const) {
    it(`when the coverage prefetch is ${label} (and no FHIR server is given), then no coverage information and a card saying the Coverage is missing`, async () => {
      const body = orderSign();
      delete body.fhirServer;
      if (coverage === undefined) delete body.prefetch.coverage;
      else body.prefetch.coverage = coverage;
      const res = await post('service-coverage-requirements', body);
      expect(res.status).to.equal(200);
      expectValidResponse(res.body);
      expect(res.body.systemActions).to.deep.equal([]);
      expect(why(res.body)[0]).to.contain(coverage === null ? 'the EHR reported no Coverage for the patient (prefetch null)' : 'no Coverage was supplied');
    });
  }

  it('when a code has no mapping or the subject has no rule, then conditional coverage information for those orders and cards saying which', async () => {
    const body = orderSign();
    body.context.draftOrders.entry[0].resource.code = { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '70551' }] };
    body.context.draftOrders.entry[1].resource.code = { coding: [{ system: 'http://loinc.org', code: '0000-0' }] };
    const res = await post('service-coverage-requirements', body);
    expectValidResponse(res.body);
    expect(verdicts(res.body)).to.deep.equal([['1357', 'conditional', 'conditional'], ['2468', 'conditional', 'conditional']]);
    expect(why(res.body)[0]).to.contain("No verified rule yet for OK Medicare Advantage (Part C) service 'advanced_imaging'");
    expect(why(res.body)[1]).to.contain('http://loinc.org|0000-0');
  });

  /** One MRI order-sign under the given state and program, answered and checked against the IG. */
  async function mriUnder(query: string): Promise<Any> {
    const body = orderSign();
    body.context.draftOrders.entry = [body.context.draftOrders.entry[0]];
    body.context.draftOrders.entry[0].resource.code = { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '70551' }] };
    const res = await post(`service-coverage-requirements?${query}`, body);
    expect(res.status).to.equal(200);
    expectValidResponse(res.body);
    return res;
  }

  it('when the member\'s program cannot cover the ordered service (an MRI under Part D), then the card says so and where to ask instead of "no verified rule yet"', async () => {
    const res = await mriUnder('state=TX&program=part_d');
    // Not "not determined": not covered under this Coverage (CRD 2.0.1 not-covered, no pa-needed), with the reason.
    expect(verdicts(res.body)).to.deep.equal([['1357', 'not-covered', undefined]]);
    const i = info(res.body.systemActions[0]);
    expect(i['coverage-assertion-id']![0]).to.match(/^outside-[0-9a-f]{16}$/);
    expect((i.reason![0] as Any).text).to.contain("No rule for TX Medicare Part D service 'advanced_imaging'").and.contain('Original Medicare (Parts A and B) or a Medicare Advantage plan');
    expect(why(res.body)).to.deep.equal([]);
    const card = res.body.cards.find((c: Any) => c.summary.startsWith('Not covered by this coverage'));
    expect(card.summary).to.equal('Not covered by this coverage: ServiceRequest/1357');
    expect(card.detail).to.contain('Original Medicare (Parts A and B) or a Medicare Advantage plan').and.contain('not-covered').and.not.contain('yet');
  });

  it('when the member is in Medicaid managed care in a state that has no plans (WY), then the card says its rules are fee-for-service, not "no verified rule yet"', async () => {
    const res = await mriUnder('state=WY&program=medicaid_mco');
    expect(why(res.body)[0]).to.contain("No rule for WY Medicaid managed care service 'advanced_imaging'");
    expect(why(res.body)[0]).to.match(/State WY Medicaid has no risk-based managed care plans \(No risk-based MCOs; Wyoming Medicaid pays fee-for-service\): its Medicaid rules are fee-for-service\./);
    expect(why(res.body)[0]).to.not.contain('yet');
  });

  it('when context carries unknown fields, then they are ignored; when order-select names one selection, then only it is answered', async () => {
    const body = { ...orderSign(), hook: 'order-select' };
    body.context = { ...body.context, selections: ['ServiceRequest/2468'], somethingNew: { x: 1 } };
    const res = await post('service-coverage-requirements-select', body);
    expect(res.status).to.equal(200);
    expectValidResponse(res.body);
    expect(res.body.systemActions.map((a: Any) => a.resource.id)).to.deep.equal(['2468']);
  });

  it('when the request is for another hook, unkeyed or out of scope, then 400 / 401 / 403', async () => {
    expect((await post('service-coverage-requirements', { ...orderSign(), hook: 'order-select' })).status).to.equal(400);
    expect((await post('service-coverage-requirements', orderSign(), null)).status).to.equal(401);
    const scoped = await t.key({ name: 'tx', states: ['TX'] });
    const denied = await post('service-coverage-requirements', orderSign(), scoped);
    expect(denied.status).to.equal(403);
    expect(denied.body.error).to.contain('OK');
    const bad = await post('service-coverage-requirements?program=bogus', orderSign());
    expect(bad.status).to.equal(400);
    expectOpenApi(t.app.routes, bad, 'POST');
  });
});

describe('one registry: routes, CapabilityStatement, CDS discovery and OpenAPI agree', () => {
  it('when the documents are generated, then each declaration appears in every one of them, and nothing else does', async () => {
    const t = await makeTestApp([]);
    const routes = t.app.routes;
    const openapi = buildOpenApi(routes) as { paths: Record<string, Record<string, Any>> };
    const served = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const cs = buildCapabilityStatement({ model: t.deps.corpus.current, base: 'https://x', now: new Date(), softwareVersion: '1' });
    const csOps = cs.rest![0]!.resource!.flatMap((r) => (r.operation ?? []).map((o) => `${r.type}/$${o.name}|${o.definition}`)).sort();
    // Type-level operations are operation declarations; an instance-level one (Subscription/{id}/$status) is a path
    // declaration naming its operation in its capability.
    const declOps = FHIR_DECLS.flatMap((d) =>
      d.kind === 'operation' ? [`${d.resourceType}/$${d.name}|${d.definition}`] : d.kind === 'path' ? (d.capability ?? []).flatMap((c) => (c.operation ?? []).map((o) => `${c.type}/$${o.name}|${o.definition}`)) : [],
    ).sort();
    expect(csOps).to.deep.equal(declOps);
    for (const d of FHIR_DECLS) {
      if (d.kind === 'path') {
        const method = d.method ?? 'GET';
        expect(served.has(`${method} ${d.path}`), d.path).to.equal(true);
        expect(openapi.paths[d.path.replace(/:([a-z]+)/g, '{$1}')]?.[method.toLowerCase()]?.operationId).to.equal(d.id);
      } else if (d.kind === 'resource') {
        // Exactly the interactions and search parameters served, in routes, CapabilityStatement and OpenAPI.
        const entry = cs.rest![0]!.resource!.find((r) => r.type === d.resourceType)!;
        const codes = (entry.interaction ?? []).map((i) => i.code);
        expect(served.has(`GET /v1/${d.resourceType}/:id`), `${d.resourceType} read`).to.equal(codes.includes('read'));
        expect(served.has(`GET /v1/${d.resourceType}`), `${d.resourceType} search`).to.equal(codes.includes('search-type'));
        expect(served.has(`POST /v1/${d.resourceType}/_search`), `${d.resourceType} POST search`).to.equal(codes.includes('search-type'));
        expect((entry.searchParam ?? []).map((p) => p.name)).to.deep.equal(d.search ? d.searchParams.map((p) => p.name) : []);
        if (d.search) {
          const query = (openapi.paths[`/v1/${d.resourceType}`]!.get!.parameters as Any[]).filter((p) => p.in === 'query' && !['_count', '_offset', '_include'].includes(p.name));
          expect(query.map((p) => p.name)).to.deep.equal(d.searchParams.map((p) => p.name));
        }
      } else {
        expect(served.has(`POST /v1/${d.resourceType}/:op`)).to.equal(true);
        const op = openapi.paths[`/v1/${d.resourceType}/{op}`]!.post!;
        expect(op.parameters.find((p: Any) => p.name === 'op').schema.enum).to.include(`$${d.name}`);
      }
    }
    const discovery = buildCdsDiscovery().services;
    expect(discovery.map((s) => s.id)).to.deep.equal(CDS_SERVICES.map((s) => s.id));
    for (const s of discovery) {
      expect(served.has(`POST /v1/cds-services/${s.id}`), s.id).to.equal(true);
      expect(openapi.paths[`/v1/cds-services/${s.id}`]?.post).to.not.equal(undefined);
    }
    const resourceTypes = FHIR_DECLS.flatMap((d) => (d.kind === 'path' ? [] : [d.resourceType]));
    const fhirPaths = Object.keys(openapi.paths).filter((p) => new RegExp(`^/v1/(metadata|formulary|dtr|cds-services|Subscription|${resourceTypes.join('|')})`).test(p)).sort();
    const declared = [
      ...new Set(
        FHIR_DECLS.flatMap((d) =>
          d.kind === 'path'
            ? [d.path.replace(/:([a-z]+)/g, '{$1}')]
            : d.kind === 'operation'
              ? [`/v1/${d.resourceType}/{op}`, ...(d.instance ? [`/v1/${d.resourceType}/{id}/{op}`] : [])]
              : [...(d.search ? [`/v1/${d.resourceType}`, `/v1/${d.resourceType}/_search`] : []), ...(d.read ? [`/v1/${d.resourceType}/{id}`] : [])],
        ),
      ),
      '/v1/cds-services',
      ...CDS_SERVICES.map((s) => `/v1/cds-services/${s.id}`),
    ].sort();
    expect(fhirPaths).to.deep.equal(declared);
  });
});
