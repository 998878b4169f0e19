// DTR 2.0.1 payer server: $questionnaire-package, $next-question and the reads, sent the way the public DTR test
// kit sends them (POST to /Questionnaire/$questionnaire-package, a trailing slash, application/json or fhir+json),
// every emitted resource validated against the DTR 2.0.1 profiles in test/igs with @medplum/core.
import { expect } from 'chai';
import request from 'supertest';
import type { Bundle, Library, Parameters, Questionnaire, QuestionnaireItem, QuestionnaireResponse, QuestionnaireResponseItemAnswer, Resource, ValueSet } from 'fhir/r4';
import { DTR_PROFILE, SDC_EXT } from '../../fhir-profiles/canonicals.js';
import { example } from '../support/fhir-corpus.js';
import { expectOpenApi } from '../support/openapi.js';
import { validateAgainst } from '../support/ig-validate.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';
import { BIOLOGICS_RULE, DME_RULE, dtrCorpus, IMAGING_RULE } from '../support/dtr/corpus.js';
import { allItems, recordResource } from '../support/dtr/dtr-client.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const BASE = 'https://payer.test';
const HCPCS = 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets';

/**
 * Errors of a resource against the DTR profile it claims (base R4 for Library and ValueSet: DTR 2.0.1 has no profile
 * for them). One validator artefact is dropped after checking the value by hand: dtr-std-questionnaire fixes
 * `subjectType` (0..* in R4, 1..1 here) with patternCode 'Patient', and @medplum/core compares the pattern with the
 * whole array; the IG's own example Questionnaire-home-o2-std-questionnaire gets the same message.
 */
export function dtrErrors(r: Resource): string[] {
  const profile = (r as Any).meta?.profile?.[0] as string | undefined;
  const errors = validateAgainst(r, profile);
  return errors.filter((m) => !(m === 'Questionnaire.subjectType: Value did not match expected pattern' && JSON.stringify((r as Any).subjectType) === '["Patient"]'));
}

/** Every resource of an output Parameters: itself, each package Bundle, each entry. */
function expectValidPackage(p: Parameters): void {
  expect(p.meta?.profile).to.deep.equal([DTR_PROFILE.outputParameters]);
  expect(dtrErrors(p), 'Parameters').to.deep.equal([]);
  for (const param of p.parameter ?? []) {
    const b = param.resource as Bundle;
    if (b.resourceType !== 'Bundle') continue;
    expect(dtrErrors(b), `Bundle ${b.id}`).to.deep.equal([]);
    for (const e of b.entry ?? []) expect(dtrErrors(e.resource!), `${e.resource!.resourceType}/${e.resource!.id}`).to.deep.equal([]);
  }
}

/** A package without the instants that differ between two calls (Bundle.timestamp, authored, expansion.timestamp). */
const timeless = (b: unknown): unknown => JSON.parse(JSON.stringify(b), (k, v) => (k === 'timestamp' || k === 'authored' ? undefined : v));
const bundlesOf = (p: Parameters): Bundle[] => (p.parameter ?? []).filter((x) => x.name === 'PackageBundle').map((x) => x.resource as Bundle);
const byType = <T extends Resource>(b: Bundle, type: string): T[] => (b.entry ?? []).map((e) => e.resource!).filter((r) => r.resourceType === type) as T[];

const coverage = (program: string, id = 'cov-1'): Any => ({
  resourceType: 'Coverage',
  id,
  status: 'active',
  beneficiary: { reference: 'Patient/dtr-pat-1' },
  payor: [{ display: 'Payer' }],
  class: [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'plan' }] }, value: program }],
});
const packageInput = (cov: Any, ...rest: Any[]): Any => ({ resourceType: 'Parameters', parameter: [{ name: 'coverage', resource: cov }, ...rest] });
const order = (resource: Any) => ({ name: 'order', resource });
const patient = () => ({ name: 'referenced', resource: recordResource('dtr-pat-1') });
const oxygenOrder = (): Any => ({ ...recordResource('dtr-devreq-o2'), codeCodeableConcept: { coding: [{ system: HCPCS, code: 'E0424', display: 'Stationary compressed gaseous oxygen system, rental' }] } });

/** The checks the DTR test kit's payer-server tests make on a static package (cql_test.rb, validation tests). */
function expectKitChecks(p: Parameters): void {
  const libraries = bundlesOf(p).flatMap((b) => byType<Library>(b, 'Library'));
  expect(libraries.length).to.be.greaterThan(0);
  for (const lib of libraries) {
    expect(lib.content!.map((c) => c.contentType).sort()).to.deep.equal(['application/elm+json', 'text/cql']);
    for (const c of lib.content!) expect(c.data, `${lib.name} ${c.contentType}`).to.be.a('string').and.not.equal('');
  }
  const names = libraries.map((l) => l.name);
  expect(new Set(names).size, 'library names are unique across the response').to.equal(names.length);
  for (const b of bundlesOf(p)) {
    const q = b.entry![0]!.resource as Questionnaire;
    expect(q.resourceType).to.equal('Questionnaire');
    const urls = (q.extension ?? []).map((e) => e.url);
    for (const u of [SDC_EXT.launchContext, SDC_EXT.variable, SDC_EXT.itemPopulationContext, SDC_EXT.cqfLibrary]) expect(urls, u).to.include(u);
    const cqf = q.extension!.filter((e) => e.url === SDC_EXT.cqfLibrary).map((e) => e.valueCanonical);
    expect(byType<Library>(b, 'Library').map((l) => l.url)).to.include.members(cqf as string[]);
    const top = (q.item ?? []).flatMap((it) => it.extension ?? []);
    for (const u of [SDC_EXT.initialExpression, SDC_EXT.candidateExpression, SDC_EXT.contextExpression]) {
      const found = top.filter((e) => e.url === u);
      expect(found.length, `a top-level item with ${u}`).to.be.greaterThan(0);
      for (const e of found) expect(e.valueExpression!.language).to.equal('text/cql');
    }
  }
}

describe('DTR 2.0.1: questionnaire packages, adaptive forms, reads', function () {
  // The first validation loads base R4 and the IG packages (seconds on a loaded machine).
  this.timeout(120_000);
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await makeTestApp(dtrCorpus(), { env: { PUBLIC_BASE_URL: BASE } });
    key = await t.key({ name: 'dtr' });
  });
  const post = (path: string, body: unknown, type = 'application/fhir+json', k = key) =>
    request(t.app.handler).post(path).set('x-api-key', k).set('content-type', type).send(JSON.stringify(body));
  const get = (path: string, k = key) => request(t.app.handler).get(path).set('x-api-key', k);

  describe('POST /v1/Questionnaire/$questionnaire-package', () => {
    it('when a home oxygen order (HCPCS E0424) is sent, then one PackageBundle: the device Questionnaire, DTRDevice + DTRCommon + FHIRHelpers, three expanded ValueSets and a draft QuestionnaireResponse, all valid', async () => {
      const res = await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicare_traditional'), order(oxygenOrder()), patient()));
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(200);
      expectOpenApi(t.app.routes, res, 'POST');
      expect(res.headers['content-type']).to.match(/^application\/fhir\+json/);
      const p = res.body as Parameters;
      expect(p.parameter!.map((x) => x.name)).to.deep.equal(['PackageBundle']);
      expectValidPackage(p);
      expectKitChecks(p);
      const [b] = bundlesOf(p);
      expect(b!.entry!.map((e) => `${e.resource!.resourceType}/${e.resource!.id}`)).to.deep.equal([
        'Questionnaire/pa-tx-medicare-traditional-durable-medical-equipment',
        'Library/DTRDevice',
        'Library/DTRCommon',
        'Library/FHIRHelpers',
        'ValueSet/dtr-dme-category',
        'ValueSet/dtr-oxygen-diagnoses',
        'ValueSet/dtr-oxygen-test-condition',
        `QuestionnaireResponse/${b!.entry!.at(-1)!.resource!.id}`,
      ]);
      const q = b!.entry![0]!.resource as Questionnaire;
      expect(q.url).to.equal(`${BASE}/v1/dtr/questionnaire/TX/medicare_traditional/durable_medical_equipment`);
      expect(q.text?.div).to.contain('Home oxygen');
      // every answerValueSet is in the bundle, expanded
      const vsUrls = byType<ValueSet>(b!, 'ValueSet').map((v) => v.url);
      for (const it of allItems(q).filter((i) => i.answerValueSet)) expect(vsUrls).to.include(it.answerValueSet);
      for (const vs of byType<ValueSet>(b!, 'ValueSet')) expect(vs.expansion!.contains!.length).to.equal(vs.compose!.include[0]!.concept!.length);
      // Library dependencies: depends-on, version-specific
      const device = byType<Library>(b!, 'Library').find((l) => l.name === 'DTRDevice')!;
      expect(device.relatedArtifact!.map((r) => r.resource)).to.deep.equal([`${BASE}/v1/Library/FHIRHelpers|4.0.1`, `${BASE}/v1/Library/DTRCommon|1.0.0`]);
      const elm = JSON.parse(Buffer.from(device.content!.find((c) => c.contentType === 'application/elm+json')!.data!, 'base64').toString('utf8'));
      expect(elm.library.identifier).to.deep.equal({ type: 'VersionedIdentifier', id: 'DTRDevice', version: '1.0.0' });
      const qr = byType<QuestionnaireResponse>(b!, 'QuestionnaireResponse')[0]!;
      expect(qr).to.include({ status: 'in-progress', questionnaire: `${q.url}|${q.version}` });
      expect(qr.subject).to.deep.equal({ reference: 'Patient/dtr-pat-1' });
      expect(qr.extension!.filter((e) => e.url.endsWith('/qr-context')).map((e) => e.valueReference!.reference)).to.deep.equal(['Coverage/cov-1', 'DeviceRequest/dtr-devreq-o2']);
      expect(qr.extension!.find((e) => e.url.endsWith('/intendedUse'))!.valueCodeableConcept!.coding![0]!.code).to.equal('withpa');
    });

    it('when the DTR test kit sends its oxygen preset verbatim (E0424 on the Blue Button HCPCS system, Coverage "MedicarePartA", no Patient) with a key for one state, then a valid package', async () => {
      const txOnly = await t.key({ name: 'kit', states: ['TX'] });
      const res = await post('/v1/Questionnaire/$questionnaire-package/', example('dtr-kit-payer-server-e0424-questionnaire-package-request.json'), 'application/json', txOnly);
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(200);
      expectValidPackage(res.body);
      expectKitChecks(res.body);
      const [b] = bundlesOf(res.body);
      expect(b!.entry![0]!.resource!.id).to.equal('pa-tx-medicare-traditional-durable-medical-equipment');
      const qr = byType<QuestionnaireResponse>(b!, 'QuestionnaireResponse')[0]!;
      expect(qr.extension!.filter((e) => e.url.endsWith('/qr-context')).map((e) => e.valueReference!.reference)).to.deep.equal(['Coverage/cov015', 'DeviceRequest/devreq015']);
      expect(qr.subject).to.deep.equal({ reference: 'Patient/pat015' });
      // a key for every state cannot tell the member's state from this request: 404 saying so
      const any = await post('/v1/Questionnaire/$questionnaire-package/', example('dtr-kit-payer-server-e0424-questionnaire-package-request.json'), 'application/json');
      expect(any.status).to.equal(404);
      expect(any.body.issue[0].diagnostics).to.contain('DeviceRequest/devreq015');
    });

    it('when a procedure (CPT 70553) is sent, then the service Questionnaire with DTRService and its conservative-treatment branch', async () => {
      const res = await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicaid_mco'), order(recordResource('dtr-sr-mri')), patient()));
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(200);
      expectValidPackage(res.body);
      expectKitChecks(res.body);
      const [b] = bundlesOf(res.body);
      const q = b!.entry![0]!.resource as Questionnaire;
      expect(q.id).to.equal('pa-tx-medicaid-mco-advanced-imaging');
      expect(byType<Library>(b!, 'Library').map((l) => l.name)).to.deep.equal(['DTRService', 'DTRCommon', 'FHIRHelpers']);
      const branch = allItems(q).find((i) => i.linkId === 'conservative-treatment-detail')!;
      expect(branch.enableWhen).to.deep.equal([{ question: 'conservative-treatment', operator: '=', answerBoolean: true }]);
      expect(allItems(q).filter((i) => i.type === 'attachment').map((i) => i.text)).to.deep.equal(IMAGING_RULE.requirement.documentation);
    });

    it('when a drug order (RxNorm 327361, adalimumab) is sent, then the drug Questionnaire with its step-therapy branch and the prior-therapy ValueSet', async () => {
      const res = await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicaid_mco'), order(recordResource('dtr-med-ada')), patient()), 'application/json');
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(200);
      expectValidPackage(res.body);
      expectKitChecks(res.body);
      const [b] = bundlesOf(res.body);
      const q = b!.entry![0]!.resource as Questionnaire;
      expect(q.id).to.equal('pa-tx-medicaid-mco-specialty-biologics');
      expect(allItems(q).find((i) => i.linkId === 'prior-therapy')!.text).to.contain(BIOLOGICS_RULE.requirement.stepTherapy);
      expect(byType<ValueSet>(b!, 'ValueSet').map((v) => v.id)).to.deep.equal(['dtr-prior-therapy-outcome']);
    });

    it('when the canonical a CRD card carries is sent (with its version), then the same package as from the order', async () => {
      const fromOrder = await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicare_traditional'), order(oxygenOrder()), patient()));
      const q = bundlesOf(fromOrder.body)[0]!.entry![0]!.resource as Questionnaire;
      const fromCard = await post('/v1/Questionnaire/$questionnaire-package/', packageInput(coverage('medicare_traditional'), order(oxygenOrder()), { name: 'questionnaire', valueCanonical: `${q.url}|${q.version}` }));
      expect(fromCard.status).to.equal(200);
      expect(timeless(bundlesOf(fromCard.body)[0])).to.deep.equal(timeless(bundlesOf(fromOrder.body)[0]));
      const fromContext = await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicare_traditional'), order(oxygenOrder()), { name: 'context', valueString: DME_RULE.id }));
      expect(timeless(bundlesOf(fromContext.body)[0])).to.deep.equal(timeless(bundlesOf(fromOrder.body)[0]));
    });

    it('when only a context names the rule (no order), then a valid package without a draft response (the response profile needs the order as context)', async () => {
      const res = await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicare_traditional'), { name: 'context', valueString: DME_RULE.id }));
      expect(res.status).to.equal(200);
      expectValidPackage(res.body);
      expect(bundlesOf(res.body)[0]!.entry!.map((e) => e.resource!.resourceType)).to.not.include('QuestionnaireResponse');
    });

    it('when the CRD order-sign answer for the same order is followed (its questionnaire canonical, or its coverage-assertion-id as context), then it opens that same package', async () => {
      const cov = coverage('medicare_traditional');
      const hook = {
        hook: 'order-sign',
        hookInstance: 'd1577c69-dfbe-44ad-ba6d-3e05e953b2ea',
        context: { userId: 'Practitioner/dtr-prac-1', patientId: 'dtr-pat-1', draftOrders: { resourceType: 'Bundle', type: 'collection', entry: [{ resource: oxygenOrder() }] } },
        prefetch: { patient: recordResource('dtr-pat-1'), coverage: { resourceType: 'Bundle', type: 'searchset', entry: [{ resource: cov }] } },
      };
      const crd = await request(t.app.handler).post('/v1/cds-services/service-coverage-requirements').set('x-api-key', key).send(hook);
      expect(crd.status, JSON.stringify(crd.body).slice(0, 300)).to.equal(200);
      const info = (crd.body.systemActions as Any[]).flatMap((a) => a.resource.extension ?? []).find((e: Any) => e.url.endsWith('/ext-coverage-information'));
      const sub = (name: string) => info.extension.find((e: Any) => e.url === name);
      const canonical = sub('questionnaire').valueCanonical as string;
      const assertion = sub('coverage-assertion-id').valueString as string;
      const fromOrder = await post('/v1/Questionnaire/$questionnaire-package', packageInput(cov, order(oxygenOrder()), patient()));
      expect(fromOrder.status, JSON.stringify(fromOrder.body).slice(0, 300)).to.equal(200);
      const fromCanonical = await post('/v1/Questionnaire/$questionnaire-package', packageInput(cov, order(oxygenOrder()), { name: 'questionnaire', valueCanonical: canonical }));
      const fromContext = await post('/v1/Questionnaire/$questionnaire-package', packageInput(cov, order(oxygenOrder()), { name: 'context', valueString: assertion }));
      const q = bundlesOf(fromOrder.body)[0]!.entry![0]!.resource as Questionnaire;
      expect(canonical).to.equal(`${q.url}|${q.version}`);
      expect(timeless(bundlesOf(fromCanonical.body)[0])).to.deep.equal(timeless(bundlesOf(fromOrder.body)[0]));
      expect(timeless(bundlesOf(fromContext.body)[0])).to.deep.equal(timeless(bundlesOf(fromOrder.body)[0]));
    });

    it('when a questionnaire canonical is unknown next to one that resolves, then the package plus an operationOutcome warning', async () => {
      const res = await post(
        '/v1/Questionnaire/$questionnaire-package',
        packageInput(
          coverage('medicaid_mco'),
          order(recordResource('dtr-sr-mri')),
          { name: 'questionnaire', valueCanonical: `${BASE}/v1/Questionnaire/pa-tx-medicaid-mco-advanced-imaging` },
          { name: 'questionnaire', valueCanonical: 'https://elsewhere.example/Questionnaire/x' },
        ),
      );
      expect(res.status).to.equal(200);
      expectValidPackage(res.body);
      expect(res.body.parameter.map((x: Any) => x.name)).to.deep.equal(['PackageBundle', 'operationOutcome']);
      expect(bundlesOf(res.body)[0]!.entry![0]!.resource!.id).to.equal('pa-tx-medicaid-mco-advanced-imaging');
      expect(res.body.parameter[1].resource.issue[0]).to.include({ severity: 'warning', diagnostics: "questionnaire 'https://elsewhere.example/Questionnaire/x' is not one we publish" });
    });

    it('when changedsince is after the rule last changed, then no bundle and an outcome saying nothing changed; before it, the package', async () => {
      const since = (v: string) => post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicaid_mco'), order(recordResource('dtr-sr-mri')), patient(), { name: 'changedsince', valueInstant: v }));
      const later = await since('2030-01-01T00:00:00Z');
      expect(later.status).to.equal(200);
      expect(later.body.parameter.map((x: Any) => x.name)).to.deep.equal(['operationOutcome']);
      expect(later.body.parameter[0].resource.issue[0].diagnostics).to.equal('nothing changed since 2030-01-01T00:00:00Z');
      const earlier = await since('2020-01-01T00:00:00Z');
      expect(bundlesOf(earlier.body)).to.have.length(1);
    });

    it('when the order resolves to no verified rule or no code, then 404 OperationOutcome with the reason', async () => {
      const unknown = { ...oxygenOrder(), codeCodeableConcept: { coding: [{ system: 'http://example.org/local', code: 'X1' }] } };
      const res = await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicare_traditional'), order(unknown), patient()));
      expect(res.status).to.equal(404);
      expect(res.body.issue[0].diagnostics).to.contain('DeviceRequest/dtr-devreq-o2: none of its codes is in our code lists');
    });

    const malformed: [string, unknown, string, string][] = [
      ['not Parameters', { resourceType: 'Patient' }, 'Parameters', 'Send a Parameters resource'],
      ['no coverage', { resourceType: 'Parameters', parameter: [{ name: 'context', valueString: 'x' }] }, 'Parameters.parameter', "'coverage' parameter"],
      ['coverage holds a Patient', packageInput({ resourceType: 'Patient' }, { name: 'context', valueString: 'x' }), 'Parameters.parameter[0].resource', 'Coverage resource'],
      ['nothing to resolve', packageInput(coverage('medicaid_mco')), 'Parameters.parameter', "at least one of 'order', 'questionnaire' or 'context'"],
      ['order holds a Patient', packageInput(coverage('medicaid_mco'), { name: 'order', resource: { resourceType: 'Patient' } }), 'Parameters.parameter[1].resource', "'order' parameter must hold"],
      ['questionnaire without a canonical', packageInput(coverage('medicaid_mco'), { name: 'questionnaire', valueString: 'x' }), 'Parameters.parameter[1].valueCanonical', 'valueCanonical'],
      ['context as a number', packageInput(coverage('medicaid_mco'), { name: 'context', valueInteger: 3 }), 'Parameters.parameter[1].valueString', 'valueString'],
      ['two contexts', packageInput(coverage('medicaid_mco'), { name: 'context', valueString: 'a' }, { name: 'context', valueString: 'b' }), 'Parameters.parameter[2]', 'At most one'],
      ['changedsince not an instant', packageInput(coverage('medicaid_mco'), { name: 'context', valueString: 'a' }, { name: 'changedsince', valueDateTime: '2026-01' }), 'Parameters.parameter[2].valueInstant', 'valueInstant'],
      ['unknown parameter', packageInput(coverage('medicaid_mco'), { name: 'patient', valueString: 'a' }), 'Parameters.parameter[1].name', "Unknown parameter 'patient'"],
    ];
    for (const [what, body, expression, message] of malformed) {
      it(`when the input is structurally FHIR but not a package request (${what}), then 400 OperationOutcome at ${expression}`, async () => {
        const res = await post('/v1/Questionnaire/$questionnaire-package', body);
        expect(res.status).to.equal(400);
        expect(res.body.resourceType).to.equal('OperationOutcome');
        expect(res.body.issue[0].expression).to.deep.equal([expression]);
        expect(res.body.issue[0].diagnostics ?? res.body.issue[0].details.text).to.contain(message);
      });
    }

    it('when the key does not cover the rule state, then 403 before anything about the rule is said', async () => {
      const okOnly = await t.key({ name: 'ok', states: ['OK'] });
      const res = await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicaid_mco'), order(recordResource('dtr-sr-mri')), patient()), 'application/fhir+json', okOnly);
      expect(res.status).to.equal(403);
    });
  });

  describe('adaptive form: $questionnaire-package with the adaptive canonical, then $next-question to completed', () => {
    /** Answers a question the way a clinician would, for the oxygen case. */
    const answerFor = (it: QuestionnaireItem): QuestionnaireResponseItemAnswer[] => {
      const auto = { url: 'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/information-origin', extension: [{ url: 'source', valueCode: 'auto' }] };
      const v: Record<string, QuestionnaireResponseItemAnswer> = {
        diagnosis: { valueCoding: { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'J44.9' } },
        'order-date': { valueDate: '2026-10-03' },
        'face-to-face-date': { valueDate: '2026-10-02' },
        'equipment-category': { valueCoding: { system: 'urn:prauth:dtr:dme-category', code: 'oxygen' } },
        'oxygen-diagnosis': { valueCoding: { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'J96.11' } },
        'oxygen-saturation': { valueDecimal: 86 },
        'arterial-po2': { valueDecimal: 54 },
        'oxygen-test-date': { valueDate: '2026-10-02' },
        'oxygen-test-condition': { valueCoding: { system: 'urn:prauth:dtr:oxygen-test-condition', code: 'rest' } },
        'oxygen-threshold': { valueBoolean: true },
        'oxygen-alternatives': { valueBoolean: true },
      };
      const a = v[it.linkId] ?? (it.type === 'attachment' ? { valueAttachment: { contentType: 'application/pdf', title: it.text } } : undefined);
      return a ? [{ ...a, extension: [auto] }] : [];
    };

    it('when the session answers each question it is given, then the oxygen branch is asked, the mobility branch is not, and the last response is completed; every step valid', async () => {
      const pkg = await post(
        '/v1/Questionnaire/$questionnaire-package',
        packageInput(coverage('medicare_traditional'), order(oxygenOrder()), { name: 'questionnaire', valueCanonical: `${BASE}/v1/Questionnaire/adaptive-tx-medicare-traditional-durable-medical-equipment` }),
      );
      expect(pkg.status, JSON.stringify(pkg.body).slice(0, 300)).to.equal(200);
      expectValidPackage(pkg.body);
      const [b] = bundlesOf(pkg.body);
      const q = b!.entry![0]!.resource as Questionnaire;
      // The package's form is dtr-questionnaire-adapt-search (validated above): a url, and the first question(s) with
      // what pre-populates them (the DTR kit looks for CQL item expressions in it).
      expect(q.meta!.profile).to.deep.equal([DTR_PROFILE.adaptQuestionnaireSearch]);
      expect(q.url).to.equal(`${BASE}/v1/Questionnaire/adaptive-tx-medicare-traditional-durable-medical-equipment`);
      expect(b!.entry![0]!.fullUrl).to.equal(q.url);
      expect(q.item!.map((i) => i.linkId)).to.deep.equal(['criteria', 'source', 'diagnosis']);
      const urls = (q.extension ?? []).map((e) => e.url);
      for (const u of [SDC_EXT.questionnaireAdaptive, SDC_EXT.launchContext, SDC_EXT.variable, SDC_EXT.itemPopulationContext, SDC_EXT.cqfLibrary]) expect(urls, u).to.include(u);
      const expressions = q.item!.flatMap((i) => (i.extension ?? []).filter((e) => e.valueExpression));
      expect(expressions.length, 'item expressions').to.be.greaterThan(0);
      for (const e of expressions) expect(e.valueExpression!.language).to.equal('text/cql');
      const read = await get('/v1/Questionnaire/adaptive-tx-medicare-traditional-durable-medical-equipment');
      expect(read.body).to.deep.equal(q);
      let qr = byType<QuestionnaireResponse>(b!, 'QuestionnaireResponse')[0]!;
      expect((qr.contained![0] as Questionnaire).item!.map((i) => i.linkId)).to.deep.equal(['criteria', 'source', 'diagnosis']);
      const asked: string[] = [];
      for (let step = 0; step < 40 && qr.status !== 'completed'; step++) {
        const contained = qr.contained![0] as Questionnaire;
        const next = contained.item!.at(-1)!;
        asked.push(next.linkId);
        const answered: QuestionnaireResponse = { ...qr, item: qr.item!.map((i) => (i.linkId === next.linkId ? { ...i, answer: answerFor(next) } : i)).map((i) => (i.answer?.length ? i : { linkId: i.linkId, text: i.text })) };
        const res = await post('/v1/Questionnaire/$next-question', step % 2 ? { resourceType: 'Parameters', parameter: [{ name: 'questionnaire-response', resource: answered }] } : answered);
        expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(200);
        expectOpenApi(t.app.routes, res, 'POST');
        qr = res.body;
        expect(dtrErrors(qr), `step ${step}`).to.deep.equal([]);
        expect(dtrErrors(qr.contained![0]!), `step ${step} contained`).to.deep.equal([]);
      }
      expect(qr.status).to.equal('completed');
      expect(asked).to.include.members(['equipment-category', 'oxygen-saturation', 'oxygen-test-condition']);
      expect(asked.some((l) => l.startsWith('mobility'))).to.equal(false);
      expect(asked.filter((l) => l.startsWith('documentation-'))).to.have.length(DME_RULE.requirement.documentation.length);
      expect(qr.item!.find((i) => i.linkId === 'oxygen-saturation')!.answer![0]!.valueDecimal).to.equal(86);
    });

    it('when the adaptive form is asked for at the instance level (POST /Questionnaire/{id}/$questionnaire-package, the kit\'s adaptive endpoint), then its adaptive package', async () => {
      const res = await post('/v1/Questionnaire/adaptive-tx-medicare-traditional-durable-medical-equipment/$questionnaire-package', packageInput(coverage('medicare_traditional'), order(oxygenOrder())));
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
      expectOpenApi(t.app.routes, res, 'POST');
      expectValidPackage(res.body);
      const q = bundlesOf(res.body)[0]!.entry![0]!.resource as Questionnaire;
      expect(q.meta!.profile).to.deep.equal([DTR_PROFILE.adaptQuestionnaireSearch]);
      expect(q.url).to.equal(`${BASE}/v1/Questionnaire/adaptive-tx-medicare-traditional-durable-medical-equipment`);
      expect(q.derivedFrom).to.deep.equal([`${BASE}/v1/dtr/questionnaire/TX/medicare_traditional/durable_medical_equipment|${q.version}`]);
      const unknown = await post('/v1/Questionnaire/nope/$questionnaire-package', packageInput(coverage('medicare_traditional'), order(oxygenOrder())));
      expect(unknown.status).to.equal(404);
      // an id naming a state outside the key: 403 whether or not there is such a rule
      const okOnly = await t.key({ name: 'ok3', states: ['OK'] });
      for (const id of ['adaptive-tx-medicare-traditional-durable-medical-equipment', 'adaptive-tx-medicare-traditional-hospice']) {
        const r = await post(`/v1/Questionnaire/${id}/$questionnaire-package`, packageInput(coverage('medicare_traditional'), order(oxygenOrder())), 'application/fhir+json', okOnly);
        expect(r.status, id).to.equal(403);
        expect((await get(`/v1/Questionnaire/${id}`, okOnly)).status, id).to.equal(403);
      }
    });

    it('when the mobility category is answered, then the mobility questions follow instead of the oxygen ones', async () => {
      const first = bundlesOf(
        (await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicare_traditional'), order(oxygenOrder()), { name: 'questionnaire', valueCanonical: `${BASE}/v1/Questionnaire/adaptive-tx-medicare-traditional-durable-medical-equipment` }))).body,
      )[0]!;
      const qr = byType<QuestionnaireResponse>(first, 'QuestionnaireResponse')[0]!;
      const contained = qr.contained![0] as Questionnaire;
      contained.item = allItems(toStatic(await get('/v1/Questionnaire/pa-tx-medicare-traditional-durable-medical-equipment'))).filter((i) => ['criteria', 'source', 'diagnosis', 'order-date', 'face-to-face-date', 'equipment-category'].includes(i.linkId)).map(({ enableWhen: _e, item: _i, ...rest }) => rest);
      qr.item = [
        { linkId: 'diagnosis', answer: [{ valueString: 'Osteoarthritis of both knees' }] },
        { linkId: 'order-date', answer: [{ valueDate: '2026-10-03' }] },
        { linkId: 'face-to-face-date', answer: [{ valueDate: '2026-10-02' }] },
        { linkId: 'equipment-category', answer: [{ valueCoding: { system: 'urn:prauth:dtr:dme-category', code: 'mobility' } }] },
      ];
      const res = await post('/v1/Questionnaire/$next-question', qr);
      expect(res.status).to.equal(200);
      expect((res.body.contained[0] as Questionnaire).item!.at(-1)!.linkId).to.equal('mobility-limitation');
    });

    const toStatic = (res: { body: Any }): Questionnaire => res.body as Questionnaire;

    it('when an answer does not fit its question or a required one is missing, then 400 naming the item; an unknown questionnaire is a 400 too', async () => {
      const first = bundlesOf(
        (await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicare_traditional'), order(oxygenOrder()), { name: 'questionnaire', valueCanonical: `${BASE}/v1/Questionnaire/adaptive-tx-medicare-traditional-durable-medical-equipment` }))).body,
      )[0]!;
      const qr = byType<QuestionnaireResponse>(first, 'QuestionnaireResponse')[0]!;
      const wrongType = await post('/v1/Questionnaire/$next-question', { ...qr, item: [{ linkId: 'diagnosis', answer: [{ valueBoolean: true }] }] });
      expect(wrongType.status).to.equal(400);
      expect(wrongType.body.issue[0].expression).to.deep.equal(['QuestionnaireResponse.item[0].answer[0]']);
      const missing = await post('/v1/Questionnaire/$next-question', { ...qr, item: [{ linkId: 'diagnosis' }] });
      expect(missing.status).to.equal(400);
      expect(missing.body.issue[0].diagnostics ?? missing.body.issue[0].details.text).to.contain("required item 'diagnosis'");
      const outside = await post('/v1/Questionnaire/$next-question', { ...qr, item: [{ linkId: 'equipment-category', answer: [{ valueCoding: { system: 'urn:prauth:dtr:dme-category', code: 'bed' } }] }] });
      expect(outside.status).to.equal(400);
      const foreign = await post('/v1/Questionnaire/$next-question', { resourceType: 'QuestionnaireResponse', status: 'in-progress', contained: [{ resourceType: 'Questionnaire', id: 'HomeOxygenTherapyAdditional', status: 'draft' }], questionnaire: '#HomeOxygenTherapyAdditional' });
      expect(foreign.status).to.equal(400);
      expect(foreign.body.issue[0].expression).to.deep.equal(['QuestionnaireResponse.contained']);
    });
  });

  describe('reads and the CapabilityStatement', () => {
    it('when a package resource is read by id, then the same resource; unknown ids are 404 OperationOutcomes', async () => {
      const pkg = await post('/v1/Questionnaire/$questionnaire-package', packageInput(coverage('medicaid_mco'), order(recordResource('dtr-sr-mri')), patient()));
      const [b] = bundlesOf(pkg.body);
      for (const e of b!.entry!.filter((x) => x.resource!.resourceType !== 'QuestionnaireResponse')) {
        const r = e.resource!;
        const res = await get(`/v1/${r.resourceType}/${r.id}`);
        expect(res.status, `${r.resourceType}/${r.id}`).to.equal(200);
        expectOpenApi(t.app.routes, res, 'GET');
        if (r.resourceType === 'ValueSet') expect({ ...res.body, expansion: undefined }).to.deep.equal({ ...r, expansion: undefined });
        else if (r.resourceType === 'Library') expect(res.body.content).to.deep.equal((r as Library).content);
        else expect(res.body).to.deep.equal(r);
      }
      const adaptive = await get('/v1/Questionnaire/adaptive-tx-medicare-traditional-durable-medical-equipment');
      expect(adaptive.status).to.equal(200);
      expect(dtrErrors(adaptive.body)).to.deep.equal([]);
      // no adaptive form where the documentation does not branch (the no-PA diagnostic imaging rule)
      for (const p of ['/v1/Questionnaire/pa-zz', '/v1/Questionnaire/adaptive-tx-medicaid-mco-diagnostic-imaging', '/v1/Library/Nope', '/v1/ValueSet/nope']) {
        const res = await get(p);
        expect(res.status, p).to.equal(404);
        expect(res.body.resourceType).to.equal('OperationOutcome');
      }
      const okOnly = await t.key({ name: 'ok2', states: ['OK'] });
      expect((await get('/v1/Questionnaire/pa-tx-medicaid-mco-advanced-imaging', okOnly)).status).to.equal(403);
    });

    it('when the CapabilityStatement is read, then Questionnaire lists read, both DTR profiles, $questionnaire-package and $next-question; Library and ValueSet list read', async () => {
      const cs = (await request(t.app.handler).get('/v1/metadata')).body as Any;
      const res = Object.fromEntries(cs.rest[0].resource.map((r: Any) => [r.type, r]));
      expect(res.Questionnaire.interaction).to.deep.equal([{ code: 'read' }]);
      expect(res.Questionnaire.supportedProfile).to.include.members([DTR_PROFILE.stdQuestionnaire, DTR_PROFILE.adaptQuestionnaire]);
      expect(res.Questionnaire.operation.map((o: Any) => [o.name, o.definition])).to.deep.equal([
        ['questionnaire-package', 'http://hl7.org/fhir/us/davinci-dtr/OperationDefinition/questionnaire-package'],
        ['next-question', 'http://hl7.org/fhir/uv/sdc/OperationDefinition/Questionnaire-next-question'],
      ]);
      expect(res.Library.interaction).to.deep.equal([{ code: 'read' }]);
      expect(res.ValueSet.interaction).to.deep.equal([{ code: 'read' }]);
      expect(cs.implementationGuide).to.include('http://hl7.org/fhir/us/davinci-dtr/ImplementationGuide/hl7.fhir.us.davinci-dtr|2.0.1');
    });
  });
});
