// CRD 2.0.1 over real HTTP, on the bundled sample corpus: the six hooks with realistic requests, the cards that
// carry the verdict, coverage information valid under CRD 2.0.1, hook configuration, the subscription default,
// and missing prefetch read from a real EHR FHIR server on loopback with the request's bearer token.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { CRD_EXT, CRD_PROFILE, CRD_TEMP_CS } from '../../fhir-profiles/canonicals.js';
import { coverageInformationProblems } from '../../src/fhir/crd/coverage-info.js';
import { loadConfig } from '../../src/config.js';
import { startService, type RunningService } from '../../src/service.js';
import {
  EHR,
  HOOK_FIXTURES,
  appointmentBookFloridaPt,
  coverage,
  encounterDischargeNyHomeHealth,
  encounterStartAlaskaInpatient,
  orderDispatchTexasMri,
  orderSelectPartDRxNorm,
  orderSignMedicareE0250,
  orderSignThreeOrders,
  patient,
} from '../support/crd-requests.js';
import { BINDINGS, expectValidCrdResponse, infoOf } from '../support/crd-response.js';
import { startEhrServer, type EhrServer } from '../support/ehr-fhir-server.js';
import { registerCdsEhr, serveJwks } from '../support/smart.js';
import { expectValidFhir } from '../support/fhir-validate.js';
import { expectValid, igContent, validateAgainst, valueSetCodes } from '../support/ig-validate.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DTR_LAUNCH = 'https://dtr.example.org/launch';

describe('CRD 2.0.1 validation: calibrated on the IG, able to fail', () => {
  it("when the CRD 2.0.1 package's own example orders are validated against their profiles, then no error (calibration)", () => {
    const examples = igContent().examples.filter((e) => e.pkg.includes('crd') && e.resource.resourceType in CRD_PROFILE);
    expect(examples.length).to.be.greaterThan(5);
    for (const e of examples) expectValid(e.resource, CRD_PROFILE[e.resource.resourceType as keyof typeof CRD_PROFILE], e.path);
  });

  it('when coverage information breaks CRD 2.0.1 (no pa-needed, doc-needed twice, info-needed without conditional), then the validator says so', () => {
    const order = orderSignMedicareE0250().context.draftOrders.entry[0].resource;
    const base = [{ url: 'coverage', valueReference: { reference: 'Coverage/1' } }, { url: 'date', valueDate: '2026-11-25' }, { url: 'coverage-assertion-id', valueString: 'x' }, { url: 'covered', valueCode: 'covered' }];
    const withInfo = (subs: Any[]) => ({ ...order, extension: [{ url: CRD_EXT.coverageInformation, extension: [...base, ...subs] }] });
    const errors = (subs: Any[]) => validateAgainst(withInfo(subs), CRD_PROFILE.DeviceRequest).join(' ');
    expect(errors([])).to.contain('crd-ci-q2');
    expect(errors([{ url: 'pa-needed', valueCode: 'no-auth' }, { url: 'doc-needed', valueCode: 'clinical' }, { url: 'doc-needed', valueCode: 'admin' }])).to.contain("slice 'doc-needed': expected 0..1");
    expect(errors([{ url: 'pa-needed', valueCode: 'no-auth' }, { url: 'info-needed', valueCode: 'OTH' }])).to.contain('crd-ci-q3');
    // Validator gaps (not artefacts): @medplum/core does not expand value sets and does not type-check a nested
    // slice's value[x], so `covered=indeterminate` and a detail `valueUrl` pass it; the binding check above
    // (valueSetCodes) and coverageInformationProblems catch both.
    const gaps = withInfo([{ url: 'pa-needed', valueCode: 'no-auth' }, { url: 'detail', extension: [{ url: 'code', valueCodeableConcept: { text: 'c' } }, { url: 'value', valueUrl: 'https://x' }] }]);
    expect(validateAgainst(gaps, CRD_PROFILE.DeviceRequest)).to.deep.equal([]);
    expect(coverageInformationProblems(gaps.extension[0] as never).join(' ')).to.contain('got valueUrl');
    expect(valueSetCodes(BINDINGS.covered!)).to.not.include('indeterminate');
  });
});

describe('CRD 2.0.1: six hooks on the sample corpus, over HTTP', function () {
  this.timeout(60_000);
  let svc: RunningService;
  let dir: string;
  let key: string;
  let ehr: EhrServer;
  const post = async (id: string, body: unknown, k: string = key): Promise<{ status: number; body: Any; ms: number }> => {
    const t0 = performance.now();
    const res = await fetch(`${svc.url}/v1/cds-services/${id}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': k }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Any, ms: performance.now() - t0 };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prauth-crd-'));
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', PRAUTH_DATA_DIR: dir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'https://prauth.test', DTR_LAUNCH_URL: DTR_LAUNCH, CRD_EHR_TIMEOUT_MS: '400', SERVE_SAMPLE_RULES: 'true' });
    svc = await startService(config, pino({ level: 'silent' }));
    key = (await svc.deps.keys.create({ name: 'crd' })).key;
    const pat = patient('pat-ehr', 'NY', 'Buffalo');
    delete pat.address[0].city;
    ehr = await startEhrServer(
      [
        pat,
        coverage('cov-ehr', 'pat-ehr', '121', 'Medicare FFS', 'Medicare Part B', 'Organization/org-ehr'),
        { resourceType: 'Organization', id: 'org-ehr', active: true, name: 'Example Medicare Administrative Contractor', address: [{ state: 'NY' }] },
        orderDispatchTexasMri().prefetch.order,
        encounterStartAlaskaInpatient().prefetch.encounter,
        {
          resourceType: 'ServiceRequest',
          id: 'servreq-g0180-1',
          status: 'draft',
          intent: 'order',
          code: { coding: [{ system: 'https://bluebutton.cms.gov/resources/codesystem/hcpcs', code: 'G0180', display: 'Medicare-covered home health services under a home health plan of care' }] },
          subject: { reference: 'Patient/pat-ehr' },
          authoredOn: '2026-11-20',
          requester: { reference: 'Practitioner/pra-1' },
        },
        { resourceType: 'Medication', id: 'med-tacrolimus', code: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '42316', display: 'tacrolimus' }] } },
      ],
      'ehr-token-for-tests',
    );
  });
  after(async () => {
    await ehr?.close();
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    ehr.requests.length = 0;
    ehr.delayMs = 0;
  });

  it('when discovery is fetched, then six CRD services, one per hook, with root-level prefetch tokens and the configuration options', async () => {
    const res = await fetch(`${svc.url}/v1/cds-services`);
    const body = (await res.json()) as Any;
    expect(body.services.map((s: Any) => s.hook).sort()).to.deep.equal(['appointment-book', 'encounter-discharge', 'encounter-start', 'order-dispatch', 'order-select', 'order-sign']);
    for (const s of body.services) {
      expect(s.prefetch.patient).to.equal('Patient/{{context.patientId}}');
      expect(s.prefetch.coverage).to.equal('Coverage?patient={{context.patientId}}&status=active');
      for (const tpl of Object.values(s.prefetch) as string[]) for (const [, token] of tpl.matchAll(/\{\{([^}]*)\}\}/g)) expect(token).to.match(/^context\.[A-Za-z]+$/);
      expect(s.extension['davinci-crd.configuration-options'].map((o: Any) => o.code)).to.deep.equal(['coverage-info', 'limits', 'max-cards']);
    }
    expect(body.services.find((s: Any) => s.hook === 'order-dispatch').prefetch.order).to.equal('{{context.order}}');
    expect(body.services.find((s: Any) => s.hook === 'encounter-start').prefetch.encounter).to.equal('Encounter/{{context.encounterId}}');
  });

  for (const [id, build] of HOOK_FIXTURES) {
    it(`when ${build.name} is posted to ${id}, then a verdict card, the policy sources and valid CRD 2.0.1 coverage information`, async () => {
      const req = build();
      const res = await post(id, req);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectValidCrdResponse(res.body, req);
      expect(res.body.systemActions, JSON.stringify(res.body.cards)).to.have.length(1);
      const verdict = res.body.cards.find((c: Any) => c.extension?.['davinci-crd.associated-resource']?.[0]?.reference === `${res.body.systemActions[0].resource.resourceType}/${res.body.systemActions[0].resource.id}` && c.source.topic.code === 'coverage-info');
      expect(verdict, JSON.stringify(res.body.cards)).to.not.equal(undefined);
      expect(verdict.summary).to.match(/^(No prior authorization required|Prior authorization (may be )?required|Notification required): /);
      expect(verdict.source.url).to.match(/^https:\/\//);
      const info = infoOf(res.body.systemActions[0]);
      expect(info['coverage-assertion-id']![0]).to.be.a('string');
      expect(verdict.detail).to.contain(`**Source:** [`);
      // The source is one click away: on the verdict card (External Reference) or, when that card launches DTR,
      // on the policy-sources External Reference card.
      const external = res.body.cards.filter((c: Any) => c.links?.length && c.links.every((l: Any) => l.type === 'absolute'));
      expect(external.flatMap((c: Any) => c.links.map((l: Any) => l.url)), 'an External Reference card links the source').to.include(verdict.source.url);
      for (const c of res.body.cards) expect(new Set((c.links ?? []).map((l: Any) => l.type)).size, 'one link type per card').to.be.at.most(1);
    });
  }

  it('when a Medicare DeviceRequest for E0250 is signed in New York, then PA may be required (conditional), documentation with the DTR questionnaire, and a SMART link naming the order and the questionnaire', async () => {
    const res = await post('service-coverage-requirements', orderSignMedicareE0250());
    const info = infoOf(res.body.systemActions[0]);
    expect(info).to.deep.include({ covered: ['covered'], 'pa-needed': ['conditional'], 'info-needed': ['OTH'], 'doc-needed': ['clinical'], 'doc-purpose': ['withpa'] });
    expect(info['coverage-assertion-id']).to.deep.equal(['ny.medicare-traditional.s.durable-medical-equipment']);
    expect(info.coverage).to.deep.equal([{ reference: `${EHR}/Coverage/cov-ny-medicare` }]);
    expect(info.billingCode).to.deep.equal([{ system: 'https://bluebutton.cms.gov/resources/codesystem/hcpcs', code: 'E0250' }]);
    const q = info.questionnaire![0] as string;
    expect(q).to.match(/^https:\/\/prauth\.test\/v1\/dtr\/questionnaire\/NY\/medicare_traditional\/durable_medical_equipment\|/);
    const verdict = res.body.cards.find((c: Any) => c.links?.some((l: Any) => l.type === 'smart'));
    expect(verdict.summary).to.equal('Prior authorization may be required: Durable medical equipment (DMEPOS) (Traditional Medicare (Parts A/B), NY)');
    expect(verdict.indicator).to.equal('warning');
    expect(verdict.links).to.have.length(1);
    const link = verdict.links[0];
    expect(link).to.deep.include({ type: 'smart', url: DTR_LAUNCH });
    expect(JSON.parse(link.appContext)).to.deep.equal({ order: 'DeviceRequest/devreq-e0250', coverage: `${EHR}/Coverage/cov-ny-medicare`, questionnaire: [q], coverageAssertionId: 'ny.medicare-traditional.s.durable-medical-equipment' });
    expect(verdict.detail).to.contain("program from Coverage.class 'Medicare Part B'").and.contain("state from the patient's current address");
    const sources = res.body.cards.find((c: Any) => c.summary.startsWith('Policy source'));
    expect(sources.links.map((l: Any) => [l.url, l.type])).to.deep.equal([[verdict.source.url, 'absolute']]);
  });

  it('when order-sign carries three draft orders, then three system actions, each with its own verdict', async () => {
    const res = await post('service-coverage-requirements', orderSignThreeOrders());
    expectValidCrdResponse(res.body, orderSignThreeOrders());
    expect(res.body.systemActions.map((a: Any) => a.resource.id)).to.deep.equal(['devreq-e0250', 'sr-mri', 'sr-pt']);
    expect(res.body.systemActions.map((a: Any) => infoOf(a)['pa-needed']![0])).to.deep.equal(['conditional', 'no-auth', 'no-auth']);
    expect(res.body.systemActions.map((a: Any) => infoOf(a)['coverage-assertion-id']![0])).to.deep.equal([
      'ny.medicare-traditional.s.durable-medical-equipment',
      'ny.medicare-traditional.s.advanced-imaging',
      'ny.medicare-traditional.s.physical-therapy',
    ]);
  });

  it('when the patient has two Coverages and each order names its own in insurance, then each order is answered under its Coverage', async () => {
    const req = orderSignMedicareE0250();
    const partD = coverage('cov-ny-partd', 'pat-ny', '122', 'Medicare Drug Benefit', 'Medicare Part D', 'Organization/partd-sponsor');
    req.prefetch = { patient: req.prefetch.patient, coverages: { ...req.prefetch.coverage, entry: [...req.prefetch.coverage.entry, { fullUrl: `${EHR}/Coverage/cov-ny-partd`, resource: partD }] } };
    const mr = orderSelectPartDRxNorm().context.draftOrders.entry[0].resource;
    req.context.draftOrders.entry.push({ resource: { ...mr, subject: { reference: 'Patient/pat-ny' }, insurance: [{ reference: 'Coverage/cov-ny-partd' }] } });
    const res = await post('service-coverage-requirements', req);
    expectValidCrdResponse(res.body, req);
    expect(res.body.systemActions.map((a: Any) => [infoOf(a)['coverage-assertion-id']![0], (infoOf(a).coverage![0] as Any).reference])).to.deep.equal([
      ['ny.medicare-traditional.s.durable-medical-equipment', `${EHR}/Coverage/cov-ny-medicare`],
      ['ny.part-d.d.immunosuppressants', `${EHR}/Coverage/cov-ny-partd`],
    ]);
  });

  it('when the hook configuration turns coverage information or limits off, or caps the cards, then the response follows it', async () => {
    const withCfg = (cfg: Any) => ({ ...orderSignThreeOrders(), extension: { 'davinci-crd.configuration': cfg } });
    const off = await post('service-coverage-requirements', withCfg({ 'coverage-info': false }));
    expect(off.body.systemActions).to.deep.equal([]);
    expect(off.body.cards.filter((c: Any) => c.source.topic.code === 'coverage-info')).to.deep.equal([]);
    const offKit = await post('service-coverage-requirements', withCfg({ coverage: false }));
    expect(offKit.body.systemActions, 'the kit spells it "coverage"').to.deep.equal([]);
    const capped = await post('service-coverage-requirements', withCfg({ 'max-cards': 1 }));
    expect(capped.body.cards).to.have.length(1);
    expect(capped.body.systemActions).to.have.length(3);
    const odd = await post('service-coverage-requirements', withCfg({ 'max-cards': 'many', 'coverage-info': 'no' }));
    expect(odd.status).to.equal(200);
    expect(odd.body.systemActions, 'values of the wrong type leave the defaults').to.have.length(3);
  });

  it('when a Part D drug is one of two draft orders and only it is selected, then only it is answered; tacrolimus new starts get a limits card', async () => {
    const req = orderSelectPartDRxNorm();
    const res = await post('service-coverage-requirements-select', req);
    expect(res.body.systemActions.map((a: Any) => a.resource.id)).to.deep.equal(['mr-tacrolimus']);
    expect(infoOf(res.body.systemActions[0])['coverage-assertion-id']).to.deep.equal(['ny.part-d.d.immunosuppressants']);
    for (const c of res.body.cards) expect(JSON.stringify(c)).to.not.contain('mr-lisinopril');
    const limits = res.body.cards.find((c: Any) => c.source.topic.code === 'limits');
    expect(limits.indicator).to.equal('info');
    expect(limits.summary).to.match(/^Coverage limits apply: .*new starts only$/);
    expect(limits.links, 'an Instructions card has no links').to.equal(undefined);
    const off = await post('service-coverage-requirements-select', { ...req, extension: { 'davinci-crd.configuration': { limits: false } } });
    expect(off.body.cards.filter((c: Any) => c.source.topic.code === 'limits')).to.deep.equal([]);
    expect(off.body.systemActions).to.have.length(1);
  });

  it('when the order, the coverage and the patient are not prefetched, then they are read from the EHR with the bearer token and the answer is the same', async () => {
    const req = orderDispatchTexasMri();
    const full = await post('service-coverage-requirements-dispatch', req);
    const bare: Any = { ...req, fhirServer: ehr.url, prefetch: {} };
    bare.context = { ...req.context, patientId: 'pat-ehr' };
    const res = await post('service-coverage-requirements-dispatch', bare);
    expect(res.status).to.equal(200);
    expectValidCrdResponse(res.body, bare);
    expect(ehr.requests.map((r) => r.path).sort()).to.deep.equal(['/fhir/Coverage?patient=pat-ehr&status=active', '/fhir/Patient/pat-ehr', '/fhir/ServiceRequest/sr-tx-mri']);
    expect(ehr.requests.every((r) => r.authorized)).to.equal(true);
    // The EHR's coverage is traditional Medicare in New York: the MRI is answered for NY, with the EHR's Coverage.
    expect(infoOf(res.body.systemActions[0])['coverage-assertion-id']).to.deep.equal(['ny.medicare-traditional.s.advanced-imaging']);
    expect(infoOf(res.body.systemActions[0]).coverage).to.deep.equal([{ reference: `${ehr.url}/Coverage/cov-ehr` }]);
    expect(full.body.systemActions[0].resource.id).to.equal(res.body.systemActions[0].resource.id);
  });

  it('when the encounter is not prefetched, then it is read from the EHR; a MedicationRequest by reference reads its Medication', async () => {
    const enc = encounterStartAlaskaInpatient();
    delete enc.prefetch.encounter;
    enc.fhirServer = ehr.url;
    const res = await post('service-coverage-requirements-encounter-start', enc);
    expect(res.body.systemActions.map((a: Any) => a.resource.id)).to.deep.equal(['enc-ak-1']);
    expect(ehr.requests.map((r) => r.path)).to.deep.equal(['/fhir/Encounter/enc-ak-1']);
    ehr.requests.length = 0;
    const sel = orderSelectPartDRxNorm();
    sel.fhirServer = ehr.url;
    const mr = sel.context.draftOrders.entry[0].resource;
    delete mr.medicationCodeableConcept;
    mr.medicationReference = { reference: 'Medication/med-tacrolimus' };
    const med = await post('service-coverage-requirements-select', sel);
    expect(ehr.requests.map((r) => r.path)).to.deep.equal(['/fhir/Medication/med-tacrolimus']);
    expect(infoOf(med.body.systemActions[0])['coverage-assertion-id']).to.deep.equal(['ny.part-d.d.immunosuppressants']);
  });

  it("when an Appointment is booked for a service type we cannot code (as the CRD kit sends) but based on an order, then the order is read from the EHR and answers it", async () => {
    const req = appointmentBookFloridaPt();
    req.fhirServer = ehr.url;
    const appt = req.context.appointments.entry[0].resource;
    appt.serviceType = [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/service-type', code: '183', display: 'Sleep Medicine' }] }];
    appt.basedOn = [{ reference: 'ServiceRequest/servreq-g0180-1' }];
    req.prefetch = { patient: patient('pat-ny-appt', 'NY', 'Buffalo'), coverage: orderSignMedicareE0250().prefetch.coverage };
    const res = await post('service-coverage-requirements-appointment', req);
    expectValidCrdResponse(res.body, req);
    expect(ehr.requests.map((r) => r.path)).to.deep.equal(['/fhir/ServiceRequest/servreq-g0180-1']);
    expect(res.body.systemActions.map((a: Any) => [a.resource.resourceType, infoOf(a)['coverage-assertion-id']![0]])).to.deep.equal([['Appointment', 'ny.medicare-traditional.s.home-health']]);
  });

  it('when only the encounter is prefetched (as the CRD kit sends encounter hooks), then the Coverage and Patient are read from the EHR', async () => {
    const req = encounterDischargeNyHomeHealth();
    req.fhirServer = ehr.url;
    req.context.patientId = 'pat-ehr';
    req.prefetch = { encounter: { ...req.prefetch.encounter, subject: { reference: 'Patient/pat-ehr' } } };
    const res = await post('service-coverage-requirements-encounter-discharge', req);
    expectValidCrdResponse(res.body, req);
    expect(ehr.requests.map((r) => r.path).sort()).to.deep.equal(['/fhir/Coverage?patient=pat-ehr&status=active', '/fhir/Patient/pat-ehr']);
    expect(res.body.systemActions.map((a: Any) => infoOf(a)['coverage-assertion-id']![0])).to.deep.equal(['ny.medicare-traditional.s.home-health']);
  });

  it('when the Patient gives no state, then the payer Organization is read and its address names the state', async () => {
    const req = orderSignMedicareE0250();
    req.fhirServer = ehr.url;
    req.prefetch.patient = { ...req.prefetch.patient, address: [] };
    req.prefetch.coverage.entry[0].resource.payor = [{ reference: 'Organization/org-ehr' }];
    const res = await post('service-coverage-requirements', req);
    expect(ehr.requests.map((r) => r.path)).to.deep.equal(['/fhir/Organization/org-ehr']);
    expect(infoOf(res.body.systemActions[0])['coverage-assertion-id']).to.deep.equal(['ny.medicare-traditional.s.durable-medical-equipment']);
    expect(res.body.cards[0].detail).to.contain("state from the payer Organization's address");
  });

  it('when the EHR is slower than the deadline, then the hook still answers in time, with a card saying what could not be read', async () => {
    ehr.delayMs = 3000;
    const req: Any = { ...orderSignMedicareE0250(), fhirServer: ehr.url, prefetch: {} };
    req.context = { ...req.context, patientId: 'pat-ehr' };
    const res = await post('service-coverage-requirements', req);
    expect(res.status).to.equal(200);
    expect(res.ms).to.be.lessThan(2000);
    expect(res.body.systemActions).to.deep.equal([]);
    expect(res.body.cards).to.have.length(1);
    expect(res.body.cards[0].detail).to.contain('Could not search Coverage in the EHR (timed out)');
  });

  it('when the EHR refuses the token, then no coverage information and a card naming the HTTP status (never the token)', async () => {
    const req: Any = { ...orderSignMedicareE0250(), fhirServer: ehr.url, fhirAuthorization: { ...orderSignMedicareE0250().fhirAuthorization, access_token: 'wrong' }, prefetch: {} };
    req.context = { ...req.context, patientId: 'pat-ehr' };
    const res = await post('service-coverage-requirements', req);
    expect(res.body.systemActions).to.deep.equal([]);
    expect(res.body.cards[0].detail).to.contain('HTTP 401');
    expect(JSON.stringify(res.body)).to.not.contain('wrong');
    expect(ehr.requests.every((r) => !r.authorized)).to.equal(true);
  });

  it("when nothing in the request names the state or program and the subscription names exactly one of each, then it is used and the card says so", async () => {
    const one = (await svc.deps.keys.create({ name: 'ny-medicare', states: ['NY'], programs: ['medicare_traditional'] })).key;
    const req = orderSignMedicareE0250();
    delete req.fhirServer;
    req.prefetch.patient.address = [];
    req.prefetch.coverage.entry[0].resource.class = [];
    delete req.prefetch.coverage.entry[0].resource.type;
    const res = await post('service-coverage-requirements', req, one);
    expect(res.status).to.equal(200);
    expect(infoOf(res.body.systemActions[0])['coverage-assertion-id']).to.deep.equal(['ny.medicare-traditional.s.durable-medical-equipment']);
    expect(res.body.cards[0].detail).to.contain("state from the caller's subscription (its only state)").and.contain("program from the caller's subscription (its only program)");
    // A key with every state names none: the same request gets coverage information saying conditional (order-sign
    // is a primary hook: CRD 2.0.1 wants it on every call) and a card saying why.
    const open = await post('service-coverage-requirements', req);
    expectValidCrdResponse(open.body, req);
    expect(infoOf(open.body.systemActions[0])).to.deep.include({ covered: ['conditional'], 'pa-needed': ['conditional'], 'info-needed': ['OTH'] });
    expect(open.body.cards[0].detail).to.contain('state unknown');
  });

  it('when an EHR calls as the CRD kit does (a signed ES384 JWT with jku, no API key) with a client subscribed to one state and program, then it is answered and the subscription default applies', async () => {
    const jwks = await serveJwks();
    try {
      const ehrClient = await registerCdsEhr({ deps: svc.deps } as never, jwks, { states: ['NY'], programs: ['medicare_traditional'] });
      const req = orderSignMedicareE0250();
      delete req.fhirServer;
      req.prefetch.patient.address = [];
      const jwt = await ehrClient.sign('https://prauth.test/v1/cds-services/service-coverage-requirements');
      const res = await fetch(`${svc.url}/v1/cds-services/service-coverage-requirements`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` }, body: JSON.stringify(req) });
      const body = (await res.json()) as Any;
      expect(res.status, JSON.stringify(body)).to.equal(200);
      expectValidCrdResponse(body, req);
      expect(infoOf(body.systemActions[0])['coverage-assertion-id']).to.deep.equal(['ny.medicare-traditional.s.durable-medical-equipment']);
      expect(body.cards[0].detail).to.contain("state from the caller's subscription (its only state)");
    } finally {
      await jwks.close();
    }
  });

  it('when an order cannot be answered (a code in no list, a type we do not evaluate), then a card saying why, and on order-sign coverage information saying conditional with that reason (none for a type we do not evaluate)', async () => {
    const req = orderSignThreeOrders();
    req.context.draftOrders.entry[1].resource.code = { coding: [{ system: 'http://loinc.org', code: '24338-6' }] };
    req.context.draftOrders.entry.push({ resource: { resourceType: 'NutritionOrder', id: 'no-1', status: 'draft', intent: 'order', patient: { reference: 'Patient/pat-ny' }, dateTime: '2026-11-20' } });
    const res = await post('service-coverage-requirements', req);
    expectValidCrdResponse(res.body, req);
    expect(res.body.systemActions.map((a: Any) => a.resource.id)).to.deep.equal(['devreq-e0250', 'sr-mri', 'sr-pt']);
    const mri = infoOf(res.body.systemActions[1]);
    expect(mri).to.deep.include({ covered: ['conditional'], 'pa-needed': ['conditional'], 'info-needed': ['OTH'] });
    expect((mri.reason![0] as Any).text).to.contain('http://loinc.org|24338-6');
    expect(mri['coverage-assertion-id']![0]).to.match(/^undetermined-[0-9a-f]{16}$/);
    // The id names this answer: the same order with another code (another reason) in the same hook call gets another id;
    // sent again, the same answer keeps its id.
    const other = orderSignThreeOrders();
    other.context.draftOrders.entry[1].resource.code = { coding: [{ system: 'http://loinc.org', code: '2345-7' }] };
    const again = await post('service-coverage-requirements', other);
    expect(infoOf(again.body.systemActions[1])['coverage-assertion-id']![0]).to.match(/^undetermined-/).and.not.equal(mri['coverage-assertion-id']![0]);
    const same = await post('service-coverage-requirements', req);
    expect(infoOf(same.body.systemActions[1])['coverage-assertion-id']).to.deep.equal(mri['coverage-assertion-id']);
    const why = res.body.cards.filter((c: Any) => c.summary.startsWith('Coverage requirements not determined'));
    expect(why.map((c: Any) => c.extension['davinci-crd.associated-resource'][0].reference)).to.deep.equal(['ServiceRequest/sr-mri', 'NutritionOrder/no-1']);
    expect(why[0].detail).to.contain('http://loinc.org|24338-6').and.contain('conditional (not determined)');
    expect(why[1].detail).to.contain('No coverage information was added');
    // order-select is a secondary hook: an order it cannot answer gets the card only.
    const select = orderSelectPartDRxNorm();
    select.context.draftOrders.entry[0].resource.medicationCodeableConcept = { coding: [{ system: 'http://loinc.org', code: '24338-6' }] };
    const sel = await post('service-coverage-requirements-select', select);
    expectValidCrdResponse(sel.body, select);
    expect(sel.body.systemActions).to.deep.equal([]);
  });

  it('when an appointment-book call cannot be decided (the CRD kit\'s appointments: a service type in no code list), then a coverage-information system action saying conditional with the reason (CRD 2.0.1 hooks.html#hook-categories)', async () => {
    const req = appointmentBookFloridaPt();
    req.context.appointments.entry[0].resource.serviceType = [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/service-type', code: '183', display: 'Sleep Medicine' }] }];
    const res = await post('service-coverage-requirements-appointment', req);
    expect(res.status).to.equal(200);
    expectValidCrdResponse(res.body, req);
    expect(res.body.systemActions).to.have.length(1);
    const info = infoOf(res.body.systemActions[0]);
    expect(info).to.deep.include({ covered: ['conditional'], 'pa-needed': ['conditional'], 'info-needed': ['OTH'], coverage: [{ reference: 'https://ehr.example.org/fhir/Coverage/cov-fl-ma' }] });
    expect((info.reason![0] as Any).text).to.match(/^Coverage could not be determined: None of the codes is in our CPT\/HCPCS\/RxNorm code lists: http:\/\/terminology.hl7.org\/CodeSystem\/service-type\|183/);
    expect(res.body.cards.map((c: Any) => c.summary)).to.deep.equal(['Coverage requirements not determined for Appointment/appt-pt-1']);
  });

  it('when the CRD test kit sends its order-sign request shape (class "Medicare Part A", payor by reference only), then it is answered', async () => {
    const req = orderSignMedicareE0250();
    req.prefetch.coverage.entry[0].resource = { resourceType: 'Coverage', id: 'cov015', subscriberId: '10A3D58WH456', beneficiary: { reference: 'Patient/pat-ny' }, status: 'active', class: [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'plan' }] }, value: 'Medicare Part A' }], payor: [{ reference: 'Organization/org1234' }] };
    req.extension = { 'davinci-crd.configuration': { 'alt-drug': true } };
    const res = await post('service-coverage-requirements', req);
    expectValidCrdResponse(res.body, req);
    expect(infoOf(res.body.systemActions[0])['coverage-assertion-id']).to.deep.equal(['ny.medicare-traditional.s.durable-medical-equipment']);
  });

  it('when resources inside the hook request hold odd values, then the service answers without a 500', async () => {
    const odd: Any[] = [
      { ...orderSignMedicareE0250(), prefetch: { coverage: { resourceType: 'Bundle', entry: 'x' }, patient: { resourceType: 'Patient', address: [null, 5] } } },
      (() => {
        const r = orderSignMedicareE0250();
        r.context.draftOrders.entry[0].resource.codeCodeableConcept = { coding: [null, { code: 5 }] };
        r.prefetch.coverage.entry[0].resource.payor = 5;
        r.prefetch.coverage.entry[0].resource.class = [{ value: 7 }];
        return r;
      })(),
      { ...orderSignMedicareE0250(), fhirServer: 'file:///etc/passwd', fhirAuthorization: { access_token: 5 }, prefetch: null },
      { ...appointmentBookFloridaPt(), context: { patientId: 'pat-fl', appointments: { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Appointment', id: 'a', basedOn: 'x', serviceType: 'y' } }] } } },
    ];
    for (const [i, body] of odd.entries()) {
      const res = await post(body.hook === 'appointment-book' ? 'service-coverage-requirements-appointment' : 'service-coverage-requirements', body);
      expect(res.status, `case ${i}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 400]);
      if (res.status === 200) expectValidCrdResponse(res.body, { context: {}, prefetch: {} });
    }
  });
});
