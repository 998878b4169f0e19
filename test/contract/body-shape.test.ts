// Issue 13 findings: malformed resources inside CDS Hooks, Claim/$submit and $questionnaire-package bodies gave
// 500s, and the error log line echoed a body value. Every FHIR and CDS body now passes one acceptance check
// (src/fhir/shape) in the pipeline before any projection reads it: what cannot be processed (a wrong type in an
// element the operation reads) is a 400 naming it; what can is accepted (test/contract/acceptance.test.ts).
import { expect } from 'chai';
import { Writable } from 'node:stream';
import request from 'supertest';
import { bodyProblems } from '../../src/fhir/shape/check-body.js';
import { checkJsonLimits } from '../../src/fhir/shape/json-limits.js';
import { createLogger } from '../../src/logger.js';
import { example, fhirCorpus } from '../support/fhir-corpus.js';
import { expectValidFhir } from '../support/fhir-validate.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MARKER = 'zz-body-value-7f3a9c';

/** Parameters nesting `depth` parts, as JSON text (JSON.stringify itself overflows on such a value). */
function nest(depth: number): string {
  return `{"resourceType":"Parameters","parameter":[${`{"name":"${MARKER}","part":[`.repeat(depth)}${']}'.repeat(depth)}]}`;
}

describe('structural check of FHIR and CDS request bodies (one validator, before any projection)', () => {
  let t: TestApp;
  let key: string;
  const lines: string[] = [];
  const fhirPost = (path: string, body: unknown) =>
    request(t.app.handler).post(path).set('x-api-key', key).set('content-type', 'application/fhir+json').send(typeof body === 'string' ? body : JSON.stringify(body));
  const cdsPost = (body: unknown) =>
    request(t.app.handler).post('/v1/cds-services/service-coverage-requirements').set('x-api-key', key).set('content-type', 'application/json').send(JSON.stringify(body));

  before(async () => {
    t = await makeTestApp(fhirCorpus(), {
      extend: (deps) => {
        deps.log = createLogger('debug', new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }));
      },
    });
    key = await t.key({ name: 'shape' });
  });

  const claimBundle = () => example('pas-2.2.1-claim-submit-request-bundle.json');
  const packageInput = () => example('dtr-2.x-questionnaire-package-input-parameters.json');
  const coverageOf = (p: Any): Any => p.parameter.find((x: Any) => x.name === 'coverage').resource;

  // [label, path, body, expression the first issue must name]
  const fhirCases: [string, string, () => unknown, string | RegExp][] = [
    ['Claim item [null]', '/v1/Claim/$submit', () => { const b = claimBundle(); b.entry[0].resource.item = [null]; return b; }, 'Bundle.entry[0].resource.item[0]'],
    ['a coding code sent as a number', '/v1/Claim/$submit', () => { const b = claimBundle(); b.entry[0].resource.item[0].productOrService.coding[0].code = 99213; return b; }, 'Bundle.entry[0].resource.item[0].productOrService.coding[0].code'],
    ["entry: 'x'", '/v1/Claim/$submit', () => ({ ...claimBundle(), entry: MARKER }), /^Bundle\.entry/],
    ['payor: 5 in the package coverage', '/v1/Questionnaire/$questionnaire-package', () => { const p = packageInput(); coverageOf(p).payor = 5; return p; }, /^Parameters\.parameter(\[\d+\])?\.resource\.payor/],
    ['a coding code as a number in the package coverage', '/v1/Questionnaire/$questionnaire-package', () => { const p = packageInput(); coverageOf(p).class = [{ type: { coding: [{ code: 12345 }] }, value: MARKER }]; return p; }, /^Parameters\.parameter(\[\d+\])?\.resource\.class/],
    ['an unknown resourceType', '/v1/Claim/$submit', () => ({ resourceType: MARKER }), 'resourceType'],
    ['no resourceType', '/v1/Questionnaire/$questionnaire-package', () => ({ parameter: [] }), 'resourceType'],
    ['an array instead of a resource', '/v1/Claim/$submit', () => [MARKER], 'Resource'],
    ['nesting 3,000 levels deep', '/v1/Questionnaire/$questionnaire-package', () => nest(3000), /^\.parameter\[0\]\.part/],
  ];

  for (const [label, path, body, expression] of fhirCases) {
    it(`when ${path} gets ${label}, then 400 OperationOutcome naming the element, never a 500`, async () => {
      const res = await fhirPost(path, body());
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(400);
      expect(res.headers['content-type']).to.contain('application/fhir+json');
      expect(res.body.resourceType).to.equal('OperationOutcome');
      const first = res.body.issue[0];
      expect(first.severity).to.equal('error');
      if (typeof expression === 'string') expect(first.expression).to.deep.equal([expression]);
      else expect(first.expression[0]).to.match(expression);
      expect(first.details.coding[0].code).to.equal('invalid_body');
      expect(res.text).to.not.contain(MARKER.repeat(2));
      expectValidFhir(res.body);
      expectOpenApi(t.app.routes, res, 'POST');
    });
  }

  const cdsCases: [string, () => unknown, string | RegExp][] = [
    ['draftOrders.entry: "x"', () => { const r = example('crd-2.2-order-sign-hook-request.json'); r.context.draftOrders.entry = MARKER; return r; }, /^context\.draftOrders\.entry/],
    ['a draft order with item [null]', () => { const r = example('crd-2.2-order-sign-hook-request.json'); r.context.draftOrders.entry[0].resource.code = [null]; return r; }, /^context\.draftOrders\.entry\[0\]\.resource\.code/],
    ['a prefetch Coverage with payor: 5', () => { const r = example('crd-2.2-order-sign-hook-request.json'); r.prefetch.coverage = { resourceType: 'Coverage', status: 'active', beneficiary: { reference: 'Patient/1' }, payor: 5 }; return r; }, /^prefetch\.coverage\.payor/],
    ['hookInstance as a number', () => ({ ...example('crd-2.2-order-sign-hook-request.json'), hookInstance: 42 }), 'hookInstance'],
    ['context as a string', () => ({ ...example('crd-2.2-order-sign-hook-request.json'), context: MARKER }), 'context'],
    ['selections of numbers', () => { const r = example('crd-2.2-order-sign-hook-request.json'); r.context.selections = [1, 2]; return r; }, 'context.selections'],
    ['no draftOrders for order-sign (what the hook asks about)', () => { const r = example('crd-2.2-order-sign-hook-request.json'); delete r.context.draftOrders; return r; }, 'context.draftOrders'],
  ];
  for (const [label, body, expression] of cdsCases) {
    it(`when a CDS Hooks request has ${label}, then 400 naming the element, never a 500`, async () => {
      const res = await cdsPost(body());
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(400);
      expect(res.body.code).to.equal('invalid_body');
      expect(res.body.issues.length).to.be.greaterThan(0);
      const first = res.body.issues[0].expression;
      if (typeof expression === 'string') expect(first).to.equal(expression);
      else expect(first).to.match(expression);
      expect(res.text).to.not.contain(MARKER);
      expectOpenApi(t.app.routes, res, 'POST');
    });
  }

  it('when a CDS prefetch is null (the EHR could not fill it), then it passes the check', async () => {
    const r = example('crd-2.2-order-sign-hook-request.json');
    r.prefetch.coverage = null;
    const res = await cdsPost(r);
    expect(res.status).to.equal(200);
  });

  it('when the examples of the IGs are sent unchanged, then the check lets them through', () => {
    expect(bodyProblems('fhir', example('pas-2.2.1-claim-submit-request-bundle.json'))).to.deep.equal([]);
    expect(bodyProblems('fhir', example('dtr-2.x-questionnaire-package-input-parameters.json'))).to.deep.equal([]);
    expect(bodyProblems('cds', example('crd-2.2-order-sign-hook-request.json'))).to.deep.equal([]);
  });

  it('when a JSON body nests too deep or is too large, then the limit check names where, iteratively (no stack overflow)', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(checkJsonLimits(deep)?.message).to.match(/deeper than 64/);
    expect(checkJsonLimits({ a: Array.from({ length: 300_000 }, () => 1) })?.message).to.match(/more than 200000 values/);
    expect(checkJsonLimits({ a: [{ b: 1 }] })).to.equal(undefined);
  });

  it('when all these malformed bodies have been sent, then no log line carries a body value and none is a 500', () => {
    const logged = lines.join('');
    expect(logged).to.not.contain(MARKER);
    expect(logged).to.not.contain('"status":500');
    expect(logged).to.not.contain('unhandled error');
  });
});
