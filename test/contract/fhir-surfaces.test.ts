import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Client } from 'fhir-kit-client';
import request from 'supertest';
import { PAS_EXT, X12_306 } from '../../fhir-profiles/canonicals.js';
import { example, fhirCorpus } from '../support/fhir-corpus.js';
import { expectValidFhir } from '../support/fhir-validate.js';
import { expectGolden } from '../support/golden.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const reviewCodes = (cr: Any) =>
  cr.item.map((i: Any) => [
    i.itemSequence,
    i.adjudication[0].extension.find((e: Any) => e.url === PAS_EXT.reviewAction).extension.find((e: Any) => e.url === PAS_EXT.reviewActionCode).valueCodeableConcept.coding[0].code,
  ]);

describe('FHIR R4 surfaces (metadata, formulary, DTR, PAS)', () => {
  let t: TestApp;
  let key: string;
  let server: Server;
  let client: Client;

  before(async () => {
    t = await makeTestApp(fhirCorpus(), { env: { PUBLIC_BASE_URL: 'https://prauth.test' } });
    key = await t.key({ name: 'fhir' });
    server = createServer(t.app.handler).listen(0);
    const { port } = server.address() as AddressInfo;
    // fhir-kit-client is ESM-only (an `import`-only exports map): loaded with import() so mocha's require path is not used.
    const { Client: FhirClient } = await import('fhir-kit-client');
    client = new FhirClient({ baseUrl: `http://127.0.0.1:${port}/v1`, customHeaders: { 'x-api-key': key } });
  });
  after(() => server.close());

  const fhirPost = (path: string, body: unknown, k: string | null = key) => {
    const r = request(t.app.handler).post(path).set('content-type', 'application/fhir+json').send(JSON.stringify(body));
    return k ? r.set('x-api-key', k) : r;
  };
  const fhirGet = (path: string, k: string | null = key) => {
    const r = request(t.app.handler).get(path);
    return k ? r.set('x-api-key', k) : r;
  };

  describe('GET /v1/metadata', () => {
    it('when a FHIR client asks for the capabilities, then it gets an R4 CapabilityStatement naming exactly what is served', async () => {
      const cs = (await client.capabilityStatement()) as Any;
      expectValidFhir(cs);
      expect(cs).to.include({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1', kind: 'instance', status: 'active' });
      expect(cs.format).to.include('application/fhir+json');
      expect(cs.implementationGuide).to.include.members([
        'http://hl7.org/fhir/us/davinci-drug-formulary/ImplementationGuide/hl7.fhir.us.davinci-drug-formulary|2.0.1',
        'http://hl7.org/fhir/us/davinci-pas/ImplementationGuide/hl7.fhir.us.davinci-pas|2.2.1',
        'http://hl7.org/fhir/us/davinci-dtr/ImplementationGuide/hl7.fhir.us.davinci-dtr|2.0.1',
      ]);
      const byType = Object.fromEntries(cs.rest[0].resource.map((r: Any) => [r.type, r]));
      expect(Object.keys(byType).sort()).to.deep.equal(['Basic', 'Claim', 'ClaimResponse', 'InsurancePlan', 'Library', 'Location', 'MedicationKnowledge', 'Questionnaire', 'Subscription', 'ValueSet']);
      expect(cs.instantiates).to.include('http://hl7.org/fhir/us/davinci-drug-formulary/CapabilityStatement/usdf-server');
      expect(byType.Claim.operation).to.deep.equal([
        { name: 'submit', definition: 'http://hl7.org/fhir/us/davinci-pas/OperationDefinition/Claim-submit', documentation: 'PAS (2.2.1) Claim/$submit' },
        { name: 'inquire', definition: 'http://hl7.org/fhir/us/davinci-pas/OperationDefinition/Claim-inquiry', documentation: 'PAS (2.2.1) Claim/$inquire' },
      ]);
      expect(byType.Subscription.extension).to.deep.equal([{ url: 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/capabilitystatement-subscriptiontopic-canonical', valueCanonical: 'http://hl7.org/fhir/us/davinci-pas/SubscriptionTopic/PASSubscriptionTopic' }]);
      expect(byType.Questionnaire.operation.map((o: Any) => o.name)).to.deep.equal(['questionnaire-package', 'next-question']);
      expect(byType.Basic.supportedProfile).to.deep.equal(['http://hl7.org/fhir/us/davinci-drug-formulary/StructureDefinition/usdf-FormularyItem']);
      expect(cs.rest[0].security.description).to.contain('x-api-key');
      expect(cs.implementation.url).to.equal('https://prauth.test/v1');
    });

    it('when read without a key, then it is public, cached for an hour at the edge, and application/fhir+json', async () => {
      const res = await fhirGet('/v1/metadata', null);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.contain('application/fhir+json');
      expect(res.headers['cache-control']).to.contain('s-maxage=3600');
      expectOpenApi(t.app.routes, res);
    });
  });

  describe('GET /v1/formulary/{state}/{program}', () => {
    it('when read with fhir-kit-client, then it is a valid USDF searchset Bundle (golden)', async () => {
      const bundle = (await client.request('formulary/TX/partd')) as Any;
      expectValidFhir(bundle);
      expectGolden('formulary-tx-part-d.json', bundle);
      expect(bundle.type).to.equal('searchset');
      const types = bundle.entry.map((e: Any) => e.resource.resourceType);
      expect(types.filter((x: string) => x === 'InsurancePlan')).to.have.length(1);
      expect(bundle.total).to.equal(types.filter((x: string) => x === 'Basic').length);
    });

    it('when a class has step therapy and a quantity limit, then its FormularyItem carries those flags and no PA flag; a PA class carries PA', async () => {
      const res = await fhirGet('/v1/formulary/TX/part_d');
      expectOpenApi(t.app.routes, res);
      const items = res.body.entry.filter((e: Any) => e.resource.resourceType === 'Basic').map((e: Any) => e.resource);
      const flags = (id: string) =>
        Object.fromEntries(
          items
            .find((i: Any) => i.id.includes(id))
            .extension.filter((e: Any) => 'valueBoolean' in e)
            .map((e: Any) => [e.url.replace(/.*\/usdf-|-extension$/g, ''), e.valueBoolean]),
        );
      expect(flags('312941')).to.deep.equal({ PriorAuthorization: false, StepTherapyLimit: true, StepTherapyLimitNewStartsOnly: true, QuantityLimit: true });
      expect(flags('1484919')).to.deep.equal({ PriorAuthorization: true, StepTherapyLimit: false, QuantityLimit: false });
      const sof = res.body.entry.find((e: Any) => e.resource.id === 'formularydrug-1484919').resource;
      expect(sof.code.coding).to.deep.equal([{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1484919' }]);
      const sert = res.body.entry.find((e: Any) => e.resource.id === 'formularydrug-312941').resource;
      expect(sert.code.coding).to.deep.equal([{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '312941', display: 'sertraline 50 MG Oral Tablet' }]);
      // A class with no RxNorm-coded drug (GLP-1s, insulins here) yields no FormularyItem and no MedicationKnowledge.
      expect(items.map((i: Any) => i.subject.reference).sort()).to.deep.equal(['MedicationKnowledge/formularydrug-1484919', 'MedicationKnowledge/formularydrug-312941']);
    });

    it('when the pair has no drug rule, then 404 OperationOutcome; when outside the key scope, then 403 before any lookup', async () => {
      const gap = await fhirGet('/v1/formulary/OK/part_d');
      expect(gap.status).to.equal(404);
      expect(gap.headers['content-type']).to.contain('application/fhir+json');
      expect(gap.body.resourceType).to.equal('OperationOutcome');
      expect(gap.body.issue[0]).to.include({ severity: 'error', code: 'not-found' });
      expectValidFhir(gap.body);
      // Medicaid managed care in a state with no plans: none will exist, and where to ask.
      const never = await fhirGet('/v1/formulary/WY/medicaid_mco');
      expect(never.status).to.equal(404);
      expect(never.body.issue[0].diagnostics).to.match(/none will exist.*Ask medicaid_ffs instead/);
      const scoped = await t.key({ name: 'ca', states: ['CA'] });
      const denied = await fhirGet('/v1/formulary/OK/part_d', scoped);
      expect(denied.status).to.equal(403);
      expect(denied.body.issue[0].code).to.equal('forbidden');
      expectOpenApi(t.app.routes, denied);
    });

    it('when the state or program is invalid, then 400 OperationOutcome pointing at the path segment', async () => {
      const res = await fhirGet('/v1/formulary/XX/part_d');
      expect(res.status).to.equal(400);
      expect(res.body.issue[0].expression).to.deep.equal(['state']);
      const p = await fhirGet('/v1/formulary/TX/nope');
      expect(p.body.issue[0].expression).to.deep.equal(['program']);
      expectOpenApi(t.app.routes, p);
    });

    it('when no key is sent, then 401 OperationOutcome', async () => {
      const res = await fhirGet('/v1/formulary/TX/part_d', null);
      expect(res.status).to.equal(401);
      expect(res.body.issue[0].code).to.equal('login');
    });
  });

  describe('GET /v1/dtr/questionnaire/{state}/{program}/{drug}', () => {
    it('when the rule exists, then a DTR Questionnaire whose url is its own address and whose items follow the documentation list', async () => {
      const res = await fhirGet('/v1/dtr/questionnaire/TX/part_d/glp1_weight_loss');
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      expectValidFhir(res.body);
      expect(res.body).to.include({ url: 'https://prauth.test/v1/dtr/questionnaire/TX/part_d/glp1_weight_loss', version: '1', status: 'active' });
      expect(res.body.subjectType).to.deep.equal(['Patient']);
      const ids = (items: Any[]): string[] => items.flatMap((i) => [i.linkId, ...ids(i.item ?? [])]);
      // the drug pattern (docs/dtr.md): CQL-populated questions, the step-therapy branch, the documentation list as attachments
      expect(ids(res.body.item)).to.deep.equal([
        'criteria', 'source', 'diagnosis', 'requested-medication', 'body-weight', 'prescriber-visit-date',
        'prior-therapy', 'prior-therapy-detail', 'prior-medications', 'prior-therapy-outcome', 'prior-therapy-dates', 'prior-therapy-exception',
        'documentation', 'documentation-1', 'documentation-2', 'quantity-limit', 'new-start',
      ]);
      expect(res.body.item.find((i: Any) => i.linkId === 'documentation').item[0]).to.include({ type: 'attachment', text: 'Diagnosis' });
    });

    it('when there is no rule or the drug is unknown, then 404 and 400 OperationOutcomes', async () => {
      const gap = await fhirGet('/v1/dtr/questionnaire/TX/part_d/oncology_oral');
      expect(gap.status).to.equal(404);
      expect(gap.body.issue[0].diagnostics).to.match(/No verified rule for TX part_d drug 'oncology_oral' yet/);
      // A gap no rule will fill says so, and where to ask (as the lookup's 404 does).
      for (const [path, reason] of [['/v1/dtr/questionnaire/WY/medicaid_mco/advanced_imaging', /has no risk-based managed care plans.*Ask medicaid_ffs instead/], ['/v1/dtr/questionnaire/TX/part_d/advanced_imaging', /covers outpatient prescription drugs.*Ask medicare_traditional or medicare_advantage instead/]] as const) {
        const never = await fhirGet(path);
        expect(never.status, path).to.equal(404);
        expect(never.body.issue[0].diagnostics, path).to.match(/none will exist/).and.match(reason);
        expectValidFhir(never.body);
      }
      const bad = await fhirGet('/v1/dtr/questionnaire/TX/part_d/aspirin');
      expect(bad.status).to.equal(400);
      expect(bad.body.issue[0].expression).to.deep.equal(['drug']);
    });
  });

  describe('POST /v1/Questionnaire/$questionnaire-package', () => {
    it('when the DTR example input is sent, then one package bundle holds the Questionnaire and a draft QuestionnaireResponse for the order', async () => {
      const res = await fhirPost('/v1/Questionnaire/$questionnaire-package', example('dtr-2.x-questionnaire-package-input-parameters.json'));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectOpenApi(t.app.routes, res, 'POST');
      expectValidFhir(res.body);
      expect(res.body.parameter.map((p: Any) => p.name)).to.deep.equal(['PackageBundle']);
      const entries = res.body.parameter[0].resource.entry.map((e: Any) => e.resource);
      const [q, qr] = [entries[0], entries.at(-1)];
      expect(q.url).to.equal('https://prauth.test/v1/dtr/questionnaire/CT/medicaid_mco/laboratory');
      expect(qr).to.include({ status: 'in-progress', questionnaire: `${q.url}|${q.version}` });
      expect(qr.subject).to.deep.equal({ reference: 'Patient/examplepatient' });
      expect(qr.extension.slice(0, 2).map((e: Any) => e.valueReference)).to.deep.equal([{ reference: 'Coverage/CoverageExample' }, { reference: 'ServiceRequest/ServiceRequestExample' }]);
    });

    it('when the CRD coverage-assertion-id is given as context, then that rule is packaged', async () => {
      const input = example('dtr-2.x-questionnaire-package-input-parameters.json');
      input.parameter = [input.parameter[0], { name: 'context', valueString: 'tx.part-d.d.hepatitis-c' }];
      const res = await fhirPost('/v1/Questionnaire/$questionnaire-package', input);
      expect(res.status).to.equal(200);
      expect(res.body.parameter[0].resource.entry[0].resource.url).to.match(/\/TX\/part_d\/hepatitis_c$/);
    });

    it('when no order resolves, then 404 OperationOutcome saying why; when the input is not Parameters, then 400', async () => {
      const input = example('dtr-2.x-questionnaire-package-input-parameters.json');
      input.parameter[1].resource.code.coding[0].code = '0000-0';
      const res = await fhirPost('/v1/Questionnaire/$questionnaire-package', input);
      expect(res.status).to.equal(404);
      expect(res.body.issue[0].diagnostics).to.contain('none of its codes is in our code lists');
      const bad = await fhirPost('/v1/Questionnaire/$questionnaire-package', { resourceType: 'Patient' });
      expect(bad.status).to.equal(400);
      expect(bad.body.issue[0].expression).to.deep.equal(['Parameters']);
    });
  });

  describe('POST /v1/Claim/$submit', () => {
    it('when the PAS example request Bundle is submitted with fhir-kit-client, then a response Bundle whose ClaimResponse certifies both items (A1)', async () => {
      const bundle = (await client.operation({ name: '$submit', resourceType: 'Claim', input: example('pas-2.2.1-claim-submit-request-bundle.json') })) as Any;
      expectValidFhir(bundle);
      expect(bundle.type).to.equal('collection');
      const cr = bundle.entry[0].resource;
      expect(cr).to.include({ resourceType: 'ClaimResponse', use: 'preauthorization', status: 'active', outcome: 'complete' });
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A1'], [2, 'A1']]);
      expect(cr.preAuthRef).to.match(/^PA-[0-9A-F]{10}$/);
      expect(cr.identifier[0].value).to.equal(cr.preAuthRef);
      expect(cr.request).to.deep.equal({ reference: 'http://davinci-pas.org/fhir/Claim/ReferralAuthorizationExample' });
      expect(cr.patient).to.deep.equal({ reference: 'Patient/SubscriberExample' });
      expect(cr.processNote[0].text).to.contain('Prior authorization is not required');
      expect(bundle.entry.slice(1).map((e: Any) => `${e.resource.resourceType}/${e.resource.id}`)).to.deep.equal([
        'Patient/SubscriberExample', 'Organization/InsurerExample', 'Organization/UMOExample',
        // the careTeam's PractitionerRole and the Practitioner it names (its Organization is already there)
        'PractitionerRole/ReferralPractitionerRoleExample', 'Practitioner/ReferralPractitionerExample',
      ]);
      expect(bundle.identifier).to.deep.equal({ system: 'http://davinci-pas.org/SUBMITTER_TRANSACTION_IDENTIFIER', value: 'A12345' });
    });

    it('when an item needs PA, then it is pended (A4, outcome complete: queued is not in the PAS value set) with the documentation needed; an unmapped code is pended too, never denied (A4)', async () => {
      const req = example('pas-2.2.1-claim-submit-request-bundle.json');
      req.identifier.value = 'pended-1'; // a new request: the example's identifier was answered already
      req.entry[0].resource.item[0].productOrService.coding[0].code = '42';
      req.entry[0].resource.item[0].extension = req.entry[0].resource.item[0].extension.filter((e: Any) => e.url !== PAS_EXT.requestedService);
      req.entry[0].resource.item[1].productOrService = { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '99999' }] };
      req.entry[0].resource.item[1].extension = [];
      const res = await fhirPost('/v1/Claim/$submit', req);
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res, 'POST');
      expectValidFhir(res.body);
      const cr = res.body.entry[0].resource;
      expect(cr.outcome).to.equal('complete');
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A4'], [2, 'A4']]);
      const note = (seq: number) => cr.item.find((i: Any) => i.itemSequence === seq).noteNumber.map((n: number) => cr.processNote[n - 1].text).join(' ');
      expect(note(1)).to.contain('Documentation needed: Diagnosis; Prior therapies tried');
      expect(note(2)).to.contain('99999').and.contain('Pended for manual review');
      const code = cr.item[0].adjudication[0].extension[0].extension[0].valueCodeableConcept.coding[0];
      expect(code).to.deep.equal({ system: X12_306, code: 'A4', display: 'Pended' });
    });

    it('when a bare Claim is sent with ?state&program, then it is answered from those', async () => {
      const claim = example('pas-2.2.1-claim-submit-request-bundle.json').entry[0].resource;
      const res = await fhirPost('/v1/Claim/$submit?state=MA&program=medicaid_mco', claim);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectValidFhir(res.body);
      expect(reviewCodes(res.body.entry[0].resource)).to.deep.equal([[1, 'A1'], [2, 'A1']]);
    });

    it('when the program cannot have a rule for the items (Medicaid managed care in a state with no plans), then they are pended saying so and where to submit instead, not "for manual review"', async () => {
      const claim = example('pas-2.2.1-claim-submit-request-bundle.json').entry[0].resource;
      claim.identifier[0].value = 'wy-mco-1';
      for (const item of claim.item) item.productOrService = { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '70551' }] };
      const res = await fhirPost('/v1/Claim/$submit?state=WY&program=medicaid_mco', claim);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
      expectValidFhir(res.body);
      const cr = res.body.entry[0].resource;
      expect(reviewCodes(cr).map(([, code]: [number, string]) => code)).to.deep.equal(['A4', 'A4']);
      const notes = cr.processNote.map((n: Any) => n.text).join(' ');
      expect(notes).to.match(/Pended: no rule will exist for WY medicaid_mco .*Submit to medicaid_ffs instead\./);
      expect(notes).to.not.contain('manual review');
      // The same Claim sent for another state and program is another submission, answered under that program's rules.
      const again = await fhirPost('/v1/Claim/$submit?state=OH&program=part_d', claim);
      const cr2 = again.body.entry[0].resource;
      expect(cr2.preAuthRef).to.not.equal(cr.preAuthRef);
      // An MRI is outside Part D's benefit: not certified (A3), as CRD says not-covered, naming where to submit instead.
      expect(reviewCodes(cr2).map(([, code]: [number, string]) => code)).to.deep.equal(['A3', 'A3']);
      expect(cr2.processNote.map((n: Any) => n.text).join(' ')).to.match(/Not certified: no rule will exist for OH part_d .*covers outpatient prescription drugs.* Submit to medicare_traditional or medicare_advantage instead\./);
      // The same Claim to the same state and program again is the same submission.
      const same = await fhirPost('/v1/Claim/$submit?state=WY&program=medicaid_mco', claim);
      expect(same.body.entry[0].resource.preAuthRef).to.equal(cr.preAuthRef);
    });

    it('when the Bundle is malformed, then 400 OperationOutcome pointing at the bad element', async () => {
      const cases: [(b: Any) => void, string][] = [
        [(b) => b.entry.unshift(b.entry.splice(3, 1)[0]), 'Bundle.entry[0].resource'],
        [(b) => (b.entry[0].resource.use = 'claim'), 'Bundle.entry[0].resource.use'],
        [(b) => delete b.entry[0].resource.patient, 'Bundle.entry[0].resource.patient'],
        [(b) => (b.entry[0].resource.item[1].sequence = 1), 'Bundle.entry[0].resource.item[1].sequence'],
        // 'searchset' is structurally valid R4 (a 'transaction' without entry.request already fails bdl-3 in the
        // structural check), so this case reaches the PAS rule that the request Bundle is a collection.
        [(b) => (b.type = 'searchset'), 'Bundle.type'],
        // R4 Claim.status (1..1, required binding) and created (1..1 dateTime): stored and echoed, so checked (qa6 #5).
        [(b) => delete b.entry[0].resource.status, 'Bundle.entry[0].resource.status'],
        [(b) => (b.entry[0].resource.status = 'bogus'), 'Bundle.entry[0].resource.status'],
        [(b) => (b.entry[0].resource.created = '2026-13-45'), 'Bundle.entry[0].resource.created'],
        [(b) => (b.entry[0].resource.created = '2026-02-30'), 'Bundle.entry[0].resource.created'],
        [(b) => (b.entry[0].resource.created = 'yesterday'), 'Bundle.entry[0].resource.created'],
      ];
      for (const [mutate, expression] of cases) {
        const b = example('pas-2.2.1-claim-submit-request-bundle.json');
        mutate(b);
        const res = await fhirPost('/v1/Claim/$submit', b);
        expect(res.status, expression).to.equal(400);
        expect(res.headers['content-type']).to.contain('application/fhir+json');
        expect(res.body.issue[0].expression, JSON.stringify(res.body)).to.deep.equal([expression]);
        expectValidFhir(res.body);
        expectOpenApi(t.app.routes, res, 'POST');
      }
    });

    it('when a referenced resource is not in the Bundle, then the request is still answered, saying what it lacked (PAS asks for it; an answer does not need it)', async () => {
      const b = example('pas-2.2.1-claim-submit-request-bundle.json');
      b.identifier.value = 'insurer-left-out-1';
      b.entry.splice(b.entry.findIndex((e: Any) => e.resource.id === 'InsurerExample'), 1);
      const res = await fhirPost('/v1/Claim/$submit', b);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
      const cr = res.body.entry[0].resource;
      expect(cr.insurer).to.deep.equal({ reference: 'Organization/InsurerExample' });
      // Without the insurer Organization the payer (and so the program) is unknown: pended for review, and said.
      expect(reviewCodes(cr).map(([, code]: [number, string]) => code)).to.deep.equal(['A4', 'A4']);
      expect(cr.error[0].code.text).to.match(/program unknown/);
      expectValidFhir(res.body);
    });

    it('when state and program cannot be resolved, then a ClaimResponse error (not an HTTP 400) naming what is missing, items pended; outside the key scope, then 403', async () => {
      const claim = example('pas-2.2.1-claim-submit-request-bundle.json').entry[0].resource;
      claim.identifier[0].value = 'no-context-1'; // a new request (the same identifier would be answered from the store)
      const res = await fhirPost('/v1/Claim/$submit', claim);
      expect(res.status).to.equal(200);
      const cr = res.body.entry[0].resource;
      expect(cr.outcome).to.equal('partial');
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A4'], [2, 'A4']]);
      expect(cr.error[0].code.coding[0]).to.include({ system: 'https://codesystem.x12.org/005010/901', code: '15' });
      expect(cr.error[0].code.text).to.contain('program unknown');
      const scoped = await t.key({ name: 'tx-only', states: ['TX'] });
      const denied = await fhirPost('/v1/Claim/$submit', example('pas-2.2.1-claim-submit-request-bundle.json'), scoped);
      expect(denied.status).to.equal(403);
    });

    it('when an unknown operation or a non-JSON body is posted, then 400 / 415 OperationOutcomes', async () => {
      const op = await fhirPost('/v1/Claim/$validate', example('pas-2.2.1-claim-submit-request-bundle.json'));
      expect(op.status).to.equal(400);
      expect(op.body.issue[0].diagnostics).to.contain('supported: $submit, $inquire');
      const xml = await request(t.app.handler).post('/v1/Claim/$submit').set('x-api-key', key).set('content-type', 'application/fhir+xml').send('<Bundle/>');
      expect(xml.status).to.equal(415);
      expect(xml.body.resourceType).to.equal('OperationOutcome');
      const broken = await request(t.app.handler).post('/v1/Claim/$submit').set('x-api-key', key).set('content-type', 'application/fhir+json').send('{"resourceType":');
      expect(broken.status).to.equal(400);
      expect(broken.body.resourceType).to.equal('OperationOutcome');
    });
  });
});
