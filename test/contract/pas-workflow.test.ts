// PAS as a payer runs it, in process: stored submissions decided by the rules (A1, A3, A1 with a certification
// period, A4 naming what is missing), idempotent resubmission, $inquire, the operator queue and decisions (each a new
// ClaimResponse version), updates and cancellations without the prior Claim, subscriptions delivered to a real
// receiver on loopback through the outbox, CMS-0057-F metrics, and scope on every path.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { PAS_EXT, PAS_PROFILE } from '../../fhir-profiles/canonicals.js';
import { COLLECTIONS } from '../../src/store/collections.js';
import { expectValid, validateAgainst, valueSetCodes } from '../support/ig-validate.js';
import { expectOpenApi } from '../support/openapi.js';
import { kitBody } from '../support/kit-requests.js';
import { dtrResponse, pasCorpus, pasRequest, pasSubscription, pasUpdate, reviewCodes, startReceiver, statusOf } from '../support/pas-requests.js';
import { bearerHeaders } from '../support/smart.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ext = (item: Json, url: string) => (item.extension ?? []).find((e: Json) => e.url === url);
const notesOf = (cr: Json, seq: number): string => cr.item.find((i: Json) => i.itemSequence === seq).noteNumber.map((n: number) => cr.processNote[n - 1].text).join(' ');

/** Validates a PAS response Bundle and its ClaimResponse against the PAS 2.2.1 profiles. */
function expectPasResponse(bundle: Json, kind: 'submit' | 'inquiry' = 'submit'): Json {
  expectValid(bundle as never, kind === 'submit' ? PAS_PROFILE.responseBundle : PAS_PROFILE.inquiryResponseBundle);
  const cr = bundle.entry[0].resource;
  expectValid(cr, kind === 'submit' ? PAS_PROFILE.claimResponse : PAS_PROFILE.claimInquiryResponse);
  expect([...valueSetCodes('http://hl7.org/fhir/us/davinci-pas/ValueSet/ClaimResponseOutcome')!]).to.include(cr.outcome);
  return cr;
}

describe('PAS workflow (stored submissions, decisions, $inquire, subscriptions, updates, metrics)', function () {
  this.timeout(60_000);
  let t: TestApp;
  let key: string;
  let admin: string;
  let server: Server;
  let base: string;

  before(async () => {
    t = await makeTestApp(pasCorpus(), { env: { PUBLIC_BASE_URL: 'https://prauth.test' } });
    key = await t.key({ name: 'harness' });
    admin = await t.key({ name: 'ops', admin: true });
    server = createServer(t.app.handler).listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const post = (path: string, body: unknown, k: string | null = key) => {
    const r = request(t.app.handler).post(path).set('content-type', 'application/fhir+json').send(JSON.stringify(body));
    return k ? r.set('x-api-key', k) : r;
  };
  const get = (path: string, k: string = key) => request(t.app.handler).get(path).set('x-api-key', k);
  const submit = async (body: unknown, k: string = key) => {
    const res = await post('/v1/Claim/$submit', body, k);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectOpenApi(t.app.routes, res, 'POST');
    return res.body as Json;
  };

  describe('decisions from the rules', () => {
    it('when PA is not required, then A1 certified and the response is a valid PAS response Bundle', async () => {
      const cr = expectPasResponse(await submit(pasRequest('approve', [{ code: '3' }])));
      expect(cr.outcome).to.equal('complete');
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A1']]);
      expect(cr.preAuthRef).to.match(/^PA-[0-9A-F]{10}$/);
      expect(cr.meta.versionId).to.equal('1');
      expect(notesOf(cr, 1)).to.contain('Prior authorization is not required');
    });

    it('when the rule excludes the service, then A3 not certified with the exclusion as the reason', async () => {
      const cr = expectPasResponse(await submit(pasRequest('deny', [{ code: '45' }])));
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A3']]);
      expect(notesOf(cr, 1)).to.contain('Not certified: Test exclusion: not a covered benefit of this program');
      expect(ext(cr.item[0], PAS_EXT.itemPreAuthIssueDate)).to.exist;
    });

    it('when PA is required and nothing is attached, then A4 pended naming every missing document (outcome complete, not queued)', async () => {
      const cr = expectPasResponse(await submit(pasRequest('pend', [{ code: '42' }])));
      expect(cr.outcome).to.equal('complete');
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A4']]);
      expect(notesOf(cr, 1)).to.contain('Documentation needed: Diagnosis; Prior therapies tried');
      expect(ext(cr.item[0], PAS_EXT.administrationReferenceNumber).valueString).to.equal(`${cr.preAuthRef}-1`);
    });

    it('when a completed DTR QuestionnaireResponse covers the documentation list, then A1 with a certification period; a partial one pends for what is missing', async () => {
      const qr = dtrResponse('qr-1', 'MA/medicaid_mco/home_health', [1, 2]);
      const cr = expectPasResponse(await submit(pasRequest('certify', [{ code: '42', servicedPeriod: { start: '2026-12-01', end: '2027-02-28' } }], { supporting: [qr] })));
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A1']]);
      expect(ext(cr.item[0], PAS_EXT.itemPreAuthPeriod).valuePeriod).to.deep.equal({ start: '2026-12-01', end: '2027-02-28' });
      expect(notesOf(cr, 1)).to.contain('covers every item the rule lists');

      const partial = expectPasResponse(await submit(pasRequest('partial', [{ code: '42' }], { supporting: [dtrResponse('qr-2', 'MA/medicaid_mco/home_health', [1])] })));
      expect(reviewCodes(partial)).to.deep.equal([[1, 'A4']]);
      expect(notesOf(partial, 1)).to.contain('Received: Diagnosis. Still missing: Prior therapies tried');

      // A QuestionnaireResponse for another rule's questionnaire, or still in progress, does not count.
      const other = dtrResponse('qr-3', 'TX/medicaid_mco/advanced_imaging', [1, 2]);
      const inProgress = { ...dtrResponse('qr-4', 'MA/medicaid_mco/home_health', [1, 2]), status: 'in-progress' };
      const none = expectPasResponse(await submit(pasRequest('wrong-qr', [{ code: '42' }], { supporting: [other, inProgress] })));
      expect(reviewCodes(none)).to.deep.equal([[1, 'A4']]);
    });

    it('when a DocumentReference names each document, then A1 with a 90-day certification from today', async () => {
      const docs = ['Diagnosis', 'Prior therapies tried'].map((d, i) => ({ resourceType: 'DocumentReference', id: `doc-${i}`, status: 'current', description: d, content: [{ attachment: { contentType: 'application/pdf', title: d } }] }));
      const cr = expectPasResponse(await submit(pasRequest('docref', [{ code: '42' }], { supporting: docs })));
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A1']]);
      const period = ext(cr.item[0], PAS_EXT.itemPreAuthPeriod).valuePeriod;
      expect((new Date(period.end).getTime() - new Date(period.start).getTime()) / 86_400_000).to.equal(90);
    });

    it('when the request is urgent (priority stat), then the clock is the expedited one (72 hours under CMS-0057-F and the rule)', async () => {
      const cr = expectPasResponse(await submit(pasRequest('urgent', [{ code: '42' }], { priority: 'stat' })));
      const stored = (await get(`/v1/admin/pas/${cr.preAuthRef}`, admin)).body;
      expect(stored.expedited).to.equal(true);
      expect(new Date(stored.dueAt).getTime() - new Date(stored.receivedAt).getTime()).to.equal(72 * 3600_000);
    });

    it('when the same Bundle is submitted again, then the same authorization in its current state (nothing new stored)', async () => {
      const body = pasRequest('twice', [{ code: '3' }, { code: '42' }]);
      const first = await submit(body);
      const count = await t.deps.store.collection(COLLECTIONS.pasSubmissions).count();
      const again = await submit(body);
      expect(again.entry[0].resource.preAuthRef).to.equal(first.entry[0].resource.preAuthRef);
      expect(again).to.deep.equal(first);
      expect(await t.deps.store.collection(COLLECTIONS.pasSubmissions).count()).to.equal(count);
    });
  });

  describe('SMART Backend Services clients', () => {
    it('when two backend clients submit with access tokens, then each inquires and reads only its own requests, and the token scopes are enforced', async () => {
      const scope = 'system/Claim.c system/Claim.rs system/ClaimResponse.rs system/Subscription.c system/Subscription.rs';
      const a = await bearerHeaders(t, { scope });
      const b = await bearerHeaders(t, { scope });
      const body = pasRequest('smart', [{ code: '42' }]);
      const res = await request(t.app.handler).post('/v1/Claim/$submit').set(a).set('content-type', 'application/fhir+json').send(JSON.stringify(body));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const cr = expectPasResponse(res.body);
      const inquire = (h: Record<string, string>) => request(t.app.handler).post('/v1/Claim/$inquire').set(h).set('content-type', 'application/fhir+json').send(JSON.stringify(body));
      expect((await inquire(a)).body.parameter[0].resource.entry[0].resource.preAuthRef).to.equal(cr.preAuthRef);
      expect((await inquire(b)).body).to.deep.equal({ resourceType: 'Parameters' });
      expect((await request(t.app.handler).get(`/v1/ClaimResponse/${cr.preAuthRef}`).set(a)).status).to.equal(200);
      expect((await request(t.app.handler).get(`/v1/ClaimResponse/${cr.preAuthRef}`).set(b)).status).to.equal(404);
      // the same Bundle from the other client is its own, new request
      const other = await request(t.app.handler).post('/v1/Claim/$submit').set(b).set('content-type', 'application/fhir+json').send(JSON.stringify(body));
      expect(other.body.entry[0].resource.preAuthRef).to.not.equal(cr.preAuthRef);
      const stored = (await get(`/v1/admin/pas/${cr.preAuthRef}`, admin)).body;
      expect(stored.owner).to.match(/^client:/);
      // a token without Subscription.c cannot subscribe; one without ClaimResponse read cannot read responses
      const readOnly = await bearerHeaders(t, { scope: 'system/Claim.c system/Claim.rs' });
      expect((await request(t.app.handler).post('/v1/Subscription').set(readOnly).set('content-type', 'application/fhir+json').send(JSON.stringify(pasSubscription('http://127.0.0.1:9/x')))).status).to.equal(403);
      expect((await request(t.app.handler).get(`/v1/ClaimResponse/${cr.preAuthRef}`).set(readOnly)).status).to.equal(403);
    });
  });

  describe('business problems and bad bodies', () => {
    it('when no state or program can be told, then a ClaimResponse error (X12 15) with pended items, not an HTTP 400; a key naming one state and program fills them in', async () => {
      const b = pasRequest('nocontext', [{ code: '3' }]);
      delete b.entry[0].resource.identifier[0].extension; // no claim jurisdiction
      const cov = b.entry.find((e: Json) => e.resource.resourceType === 'Coverage').resource;
      cov.payor = [{ display: 'Unknown payer' }];
      const cr = expectPasResponse(await submit(b));
      expect(cr.outcome).to.equal('partial');
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A4']]);
      expect(cr.error[0].code.coding[0].code).to.equal('15');
      expect(ext(cr.error[0], PAS_EXT.errorPath).valueString).to.equal('Bundle.entry[0].resource.insurance');

      const single = await t.key({ name: 'ma-mco', states: ['MA'], programs: ['medicaid_mco'] });
      const resolved = expectPasResponse(await submit(b, single));
      expect(resolved.outcome).to.equal('complete');
      expect(reviewCodes(resolved)).to.deep.equal([[1, 'A1']]);
    });

    it('when the body is not a PAS request, then 400 OperationOutcome; a claim update without its prior Claim in the Bundle is accepted', async () => {
      for (const body of [{ resourceType: 'Patient' }, { resourceType: 'Bundle', type: 'collection', entry: [] }, { resourceType: 'Bundle', type: 'collection' }]) {
        const res = await post('/v1/Claim/$submit', body);
        expect(res.status).to.equal(400);
        expect(res.body.resourceType).to.equal('OperationOutcome');
      }
      const update = pasUpdate(pasRequest('u0', [{ code: '3' }]), 'u0-update', 'PA-0000000000', (c) => {
        c.related = [{ claim: { reference: 'Claim/NotInThisBundle' }, relationship: { coding: [{ code: 'prior' }] } }];
      });
      const cr = expectPasResponse(await submit(update));
      expect(cr.outcome).to.equal('error');
      expect(cr.error[0].code.coding[0].code).to.equal('AA');
    });

    it('when the caller is outside the state, then 403 before anything is stored', async () => {
      const tx = await t.key({ name: 'tx', states: ['TX'] });
      const before = await t.deps.store.collection(COLLECTIONS.pasSubmissions).count();
      const res = await post('/v1/Claim/$submit', pasRequest('scoped', [{ code: '3' }]), tx);
      expect(res.status).to.equal(403);
      expect(await t.deps.store.collection(COLLECTIONS.pasSubmissions).count()).to.equal(before);
    });
  });

  describe('$inquire, review, subscriptions, updates', () => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let pended: Json;
    let subId: string;
    before(async () => {
      receiver = await startReceiver();
    });
    after(() => receiver.close());

    it('when a harness subscribes, then 201 requested, a handshake reaches the receiver with its Authorization header, and the Subscription turns active', async () => {
      const res = await post('/v1/Subscription', pasSubscription(receiver.url, { token: 'harness-token' }));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expectOpenApi(t.app.routes, res, 'POST');
      expect(res.body).to.include({ resourceType: 'Subscription', status: 'requested' });
      expect(res.headers.location).to.equal(`https://prauth.test/v1/Subscription/${res.body.id}`);
      // The one message left is a validator artefact: the IG's own Subscription example gets it too (the criteria
      // patternString is compared with the element carrying its _criteria filter extension). Checked by hand instead.
      expect(validateAgainst(res.body, PAS_PROFILE.subscription)).to.deep.equal(['Subscription.criteria: Value did not match expected pattern']);
      expect(res.body.criteria).to.equal('http://hl7.org/fhir/us/davinci-pas/SubscriptionTopic/PASSubscriptionTopic');
      subId = res.body.id;
      await t.deps.outbox.drain();
      expect(receiver.received).to.have.length(1);
      const hs = receiver.received[0]!;
      expect(hs.headers.authorization).to.equal('Bearer harness-token');
      expect(hs.headers['content-type']).to.contain('application/fhir+json');
      expect(hs.body).to.include({ resourceType: 'Bundle', type: 'history' });
      expect(statusOf(hs.body)).to.include({ type: 'handshake', status: 'requested', topic: 'http://hl7.org/fhir/us/davinci-pas/SubscriptionTopic/PASSubscriptionTopic' });
      expect(hs.body.entry[0].request.url).to.equal(`https://prauth.test/v1/Subscription/${subId}/$status`);
      expectValid(hs.body as never);
      const read = await get(`/v1/Subscription/${subId}`);
      expect(read.body.status).to.equal('active');
      const st = await get(`/v1/Subscription/${subId}/$status`);
      expect(st.status).to.equal(200);
      expect(st.body.type).to.equal('searchset');
      expect(statusOf(st.body)).to.include({ type: 'query-status', status: 'active', 'events-since-subscription-start': '0' });
      // another key cannot see it
      const other = await t.key({ name: 'other' });
      expect((await get(`/v1/Subscription/${subId}`, other)).status).to.equal(404);
      expect((await get(`/v1/Subscription/${subId}/$status`, other)).status).to.equal(404);
    });

    it('when a subscription asks for heartbeats, then a heartbeat arrives after a quiet period', async () => {
      const r3 = await startReceiver();
      try {
        const res = await post('/v1/Subscription', pasSubscription(r3.url, { heartbeat: 1 }));
        expect(res.status).to.equal(201);
        await t.deps.outbox.drain();
        expect(r3.received.map((r) => statusOf(r.body).type)).to.deep.equal(['handshake']);
        t.deps.subscriptions.start(100);
        await new Promise((r) => setTimeout(r, 1300));
        await t.deps.outbox.drain();
        const beats = r3.received.filter((r) => statusOf(r.body).type === 'heartbeat');
        expect(beats.length).to.be.at.least(1);
        expect(statusOf(beats[0]!.body)).to.include({ status: 'active', topic: 'http://hl7.org/fhir/us/davinci-pas/SubscriptionTopic/PASSubscriptionTopic' });
        expect(beats[0]!.body.entry).to.have.length(1);
      } finally {
        t.deps.subscriptions.stop();
        await r3.close();
      }
    });

    it('when the Subscription is not for the PAS topic, not rest-hook, or filters on something else, then 400', async () => {
      const bad = [
        (s: Json) => (s.criteria = 'http://example.org/other-topic'),
        (s: Json) => (s.channel.type = 'websocket'),
        (s: Json) => (s._criteria.extension[0].valueString = 'patient=Patient/1'),
        (s: Json) => (s.channel._payload.extension[0].valueCode = 'everything'),
        (s: Json) => (s.channel.endpoint = 'not a url'),
        // Headers the service's HTTP client sets itself: never sent wrong, dropped, or over the payload's type.
        (s: Json) => (s.channel.header = ['Content-Length: 5']),
        (s: Json) => (s.channel.header = ['Transfer-Encoding: chunked']),
        (s: Json) => (s.channel.header = ['Authorization: Bearer x', 'host: evil.example']),
        (s: Json) => (s.channel.header = ['Content-Type: text/plain']),
      ];
      for (const mutate of bad) {
        const s = pasSubscription(receiver.url);
        mutate(s);
        const res = await post('/v1/Subscription', s);
        expect(res.status, JSON.stringify(s)).to.equal(400);
        expect(res.body.resourceType).to.equal('OperationOutcome');
        if (s.channel.header?.length > 0) expect(res.body.issue[0].diagnostics).to.match(/channel\.header '(content-length|transfer-encoding|host|content-type)' is set by the service/);
      }
    });

    it('when a pended request is inquired, then the matching stored request in its current state; another key finds nothing', async () => {
      pended = await submit(pasRequest('life', [{ code: '3' }, { code: '42' }]));
      const inquiry = pasRequest('life', [{ code: '42' }]);
      const res = await post('/v1/Claim/$inquire', inquiry);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectOpenApi(t.app.routes, res, 'POST');
      expect(res.body.resourceType).to.equal('Parameters');
      expect(res.body.parameter).to.have.length(1);
      expect(res.body.parameter[0].name).to.equal('return');
      const cr = expectPasResponse(res.body.parameter[0].resource, 'inquiry');
      expect(cr.preAuthRef).to.equal(pended.entry[0].resource.preAuthRef);
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A1'], [2, 'A4']]);
      // by member id + provider NPI when the claim identifier is new; not-applicable means any item
      const byMember = pasRequest('another-id', [{ code: 'not-applicable', system: 'https://codesystem.x12.org/005010/1365' }]);
      const res2 = await post('/v1/Claim/$inquire', byMember);
      expect(res2.body.parameter.length).to.be.greaterThan(1);
      const other = await t.key({ name: 'stranger' });
      const none = await post('/v1/Claim/$inquire', inquiry, other);
      expect(none.status).to.equal(200);
      expect(none.body).to.deep.equal({ resourceType: 'Parameters' });
    });

    it('when the operator decides the pended item, then a new ClaimResponse version, the queue empties, and the subscriber receives it in full', async () => {
      const ref = pended.entry[0].resource.preAuthRef;
      const queue = await get('/v1/admin/pas/queue', admin);
      expectOpenApi(t.app.routes, queue);
      const entry = queue.body.queue.find((q: Json) => q.preAuthRef === ref);
      expect(entry.items).to.deep.equal([{ sequence: 2, ruleId: 'ma.medicaid-mco.s.home-health', missing: ['Diagnosis', 'Prior therapies tried'], notes: entry.items[0].notes }]);
      expect(new Date(entry.dueAt).getTime() - new Date(entry.receivedAt).getTime()).to.equal(168 * 3600_000);

      const bad = await request(t.app.handler).post(`/v1/admin/pas/${ref}/decide`).set('x-api-key', admin).send({ decision: 'deny' });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.contain('reason');

      const res = await request(t.app.handler).post(`/v1/admin/pas/${ref}/decide`).set('x-api-key', admin).send({ decision: 'approve', item: 2, note: 'Records reviewed' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectOpenApi(t.app.routes, res, 'POST');
      expect(res.body).to.include({ status: 'decided', version: 2 });
      const cr = expectPasResponse(res.body.claimResponse);
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A1'], [2, 'A1']]);
      expect(cr.meta.versionId).to.equal('2');
      expect(cr.extension[0].extension[0]).to.deep.equal({ url: 'wasHumanReviewedFlag', valueBoolean: true });
      expect((await get('/v1/admin/pas/queue', admin)).body.queue.some((q: Json) => q.preAuthRef === ref)).to.equal(false);
      const again = await request(t.app.handler).post(`/v1/admin/pas/${ref}/decide`).set('x-api-key', admin).send({ decision: 'approve' });
      expect(again.status).to.equal(409);

      await t.deps.outbox.drain();
      const events = receiver.received.filter((r) => statusOf(r.body).type === 'event-notification');
      expect(events).to.have.length(1);
      const n = events[0]!.body;
      expectValid(n as never);
      const st = statusOf(n);
      expect(st['events-since-subscription-start']).to.equal('1');
      const focus = (st["notification-event"] as Json[]).find((p) => p.name === "focus")!.valueReference.reference;
      expect(n.entry[1].fullUrl).to.equal(focus);
      const focusCr = expectPasResponse(n.entry[1].resource);
      expect(reviewCodes(focusCr)).to.deep.equal([[1, 'A1'], [2, 'A1']]);
      expect(n.entry[1].request.url).to.equal(`https://prauth.test/v1/ClaimResponse/${ref}/_history/2`);

      // the history is kept: version 1 is still readable, the current is version 2
      const v1 = await get(`/v1/ClaimResponse/${ref}/_history/1`);
      expect(reviewCodes(v1.body)).to.deep.equal([[1, 'A1'], [2, 'A4']]);
      expectValid(v1.body, PAS_PROFILE.claimResponse);
      const current = await get(`/v1/ClaimResponse/${ref}`);
      expect(current.body.meta.versionId).to.equal('2');
      // R4 http.html#read/#vread: the version as a weak ETag.
      expect(current.headers.etag).to.equal('W/"2"');
      expect(v1.headers.etag).to.equal('W/"1"');
      expect((await get(`/v1/ClaimResponse/${ref}`, await t.key({ name: 'x' }))).status).to.equal(404);
    });

    it('when an id-only subscriber is notified, then the entry carries only the ClaimResponse URL', async () => {
      const r2 = await startReceiver();
      try {
        const res = await post('/v1/Subscription', pasSubscription(r2.url, { payload: 'id-only' }));
        expect(res.status).to.equal(201);
        const sub = await submit(pasRequest('idonly', [{ code: '42' }]));
        const ref = sub.entry[0].resource.preAuthRef;
        const d = await request(t.app.handler).post(`/v1/admin/pas/${ref}/decide`).set('x-api-key', admin).send({ decision: 'deny', reason: 'X1' });
        expect(d.status).to.equal(200);
        expect(reviewCodes(d.body.claimResponse.entry[0].resource)).to.deep.equal([[1, 'A3']]);
        // The denial reason reaches the ClaimResponse: reviewAction.reasonCode carries the X12 886 code given.
        const action = d.body.claimResponse.entry[0].resource.item[0].adjudication[0].extension[0];
        const reason = action.extension.find((e: Json) => e.url === 'reasonCode');
        expect(reason.valueCodeableConcept.coding.map((c: Json) => c.code)).to.deep.equal(['X1']);
        await t.deps.outbox.drain();
        const ev = r2.received.find((r) => statusOf(r.body).type === 'event-notification')!.body;
        expect(ev.entry[1]).to.deep.equal({ fullUrl: `https://prauth.test/v1/ClaimResponse/${ref}/_history/2`, request: { method: 'GET', url: `https://prauth.test/v1/ClaimResponse/${ref}/_history/2` }, response: { status: '200' } });
      } finally {
        await r2.close();
      }
    });

    it('when the provider updates the request (prior Claim left out), then changed items are re-decided and a cancelled item is answered as cancelled; a whole cancellation cancels the rest', async () => {
      const original = pasRequest('upd', [{ code: '42' }, { code: '3' }]);
      const first = await submit(original);
      const ref = first.entry[0].resource.preAuthRef;
      const qr = dtrResponse('qr-upd', 'MA/medicaid_mco/home_health', [1, 2]);
      const update = pasUpdate(pasRequest('upd', [{ code: '42' }, { code: '3' }], { supporting: [qr] }), 'upd-1', ref, (c) => {
        c.item[0].extension.push({ url: PAS_EXT.infoChanged, valueCode: 'changed' });
        c.item[1].modifierExtension = [{ url: PAS_EXT.infoCancelled, valueBoolean: true }];
      });
      const cr = expectPasResponse(await submit(update));
      expect(cr.preAuthRef).to.equal(ref);
      expect(cr.meta.versionId).to.equal('2');
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A1'], [2, 'cancelled']]);
      expect(cr.processNote.map((n: Json) => n.text).join(' ')).to.contain('Item 2 was cancelled');

      const cancel = pasUpdate(original, 'upd-2', ref, (c) => {
        c.extension = [...(c.extension ?? []).filter((e: Json) => e.url !== PAS_EXT.certificationType), { url: PAS_EXT.certificationType, valueCodeableConcept: { coding: [{ system: 'https://codesystem.x12.org/005010/1322', code: '3' }] } }];
      });
      const done = expectPasResponse(await submit(cancel));
      expect(reviewCodes(done)).to.deep.equal([[1, 'cancelled'], [2, 'cancelled']]);
      expect(done.meta.versionId).to.equal('3');
      const stored = await get(`/v1/admin/pas/${ref}`, admin);
      expect(stored.body.status).to.equal('cancelled');
      expect(stored.body.items.map((i: Json) => i.history.map((h: Json) => h.action))).to.deep.equal([['A4', 'A1', 'cancelled'], ['A1', 'cancelled']]);
    });

    it('when a decided request is updated and then decided again, then every past version reads as it did when it was current (each request stored once, with the versions that answered it)', async () => {
      const original = pasRequest('hist', [{ code: '42' }]);
      const ref = (await submit(original)).entry[0].resource.preAuthRef;
      const read = async (v: number) => {
        const res = await get(`/v1/ClaimResponse/${ref}/_history/${v}`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body as Json;
      };
      const decide = async () => expect((await request(t.app.handler).post(`/v1/admin/pas/${ref}/decide`).set('x-api-key', admin).send({ decision: 'approve', item: 1 })).status).to.equal(200);
      const seen: Json[] = [await read(1)];
      await decide(); // version 2: the same request
      seen.push(await read(2));
      const update = pasUpdate(original, 'hist-1', ref, (c) => c.item[0].extension.push({ url: PAS_EXT.infoChanged, valueCode: 'changed' }));
      expect(expectPasResponse(await submit(update)).meta.versionId).to.equal('3'); // version 3: a new request
      seen.push(await read(3));
      await decide(); // version 4: the update's request again
      seen.push(await read(4));
      for (const [i, cr] of seen.entries()) expect(await read(i + 1), `version ${i + 1}`).to.deep.equal(cr);
      expect(seen.map((cr) => cr.identifier.map((x: Json) => x.value).slice(1))).to.deep.equal([
        original.entry[0].resource.identifier.map((x: Json) => x.value),
        original.entry[0].resource.identifier.map((x: Json) => x.value),
        update.entry[0].resource.identifier.map((x: Json) => x.value),
        update.entry[0].resource.identifier.map((x: Json) => x.value),
      ]);
      expect((await get(`/v1/ClaimResponse/${ref}/_history/5`)).status).to.equal(404);
    });

    it('when the operator extends a timeframe and approves, or approves a denied item on appeal, then both are recorded for the metrics', async () => {
      const sub = await submit(pasRequest('extend', [{ code: '42' }]));
      const ref = sub.entry[0].resource.preAuthRef;
      const before = (await get(`/v1/admin/pas/${ref}`, admin)).body;
      const ext = await request(t.app.handler).post(`/v1/admin/pas/${ref}/extend`).set('x-api-key', admin).send({ days: 5, reason: 'Waiting for the specialist report' });
      expect(ext.status, JSON.stringify(ext.body)).to.equal(200);
      expectOpenApi(t.app.routes, ext, 'POST');
      expect(new Date(ext.body.dueAt).getTime() - new Date(before.dueAt).getTime()).to.equal(5 * 86_400_000);
      const cr = expectPasResponse(ext.body.claimResponse);
      expect(cr.processNote[0].text).to.contain('extended by 5 days').and.contain('Waiting for the specialist report');
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A4']]);
      expect((await request(t.app.handler).post(`/v1/admin/pas/${ref}/extend`).set('x-api-key', admin).send({ days: 99, reason: 'x' })).status).to.equal(400);
      expect((await request(t.app.handler).post(`/v1/admin/pas/${ref}/decide`).set('x-api-key', admin).send({ decision: 'approve' })).status).to.equal(200);

      const denied = await submit(pasRequest('appeal', [{ code: '42' }]));
      const dref = denied.entry[0].resource.preAuthRef;
      expect((await request(t.app.handler).post(`/v1/admin/pas/${dref}/decide`).set('x-api-key', admin).send({ decision: 'deny', reason: 'X2' })).status).to.equal(200);
      const appeal = await request(t.app.handler).post(`/v1/admin/pas/${dref}/decide`).set('x-api-key', admin).send({ decision: 'approve', item: 1, note: 'Overturned on appeal' });
      expect(appeal.status).to.equal(200);
      expect(appeal.body.items[0].history.map((h: Json) => h.action)).to.deep.equal(['A4', 'A3', 'A1']);
      expect(appeal.body.items[0].notes[0]).to.contain('Certified on appeal');
    });

    it('when metrics are asked for the year, then approvals, denials and decision times per program and plan (drug-only requests left out)', async () => {
      const year = new Date().getUTCFullYear();
      const res = await get(`/v1/admin/pa-metrics?year=${year}`, admin);
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      const row = res.body.rows.find((r: Json) => r.program === 'medicaid_mco' && r.plan === 'PI-InsurerExample');
      expect(row.states).to.deep.equal(['MA']);
      expect(row.standard.decided).to.equal(row.standard.approved + row.standard.denied + row.standard.partially_approved);
      expect(row.standard.approved).to.be.greaterThan(0);
      expect(row.standard.denied).to.be.greaterThan(0);
      expect(row.standard.still_pending).to.be.greaterThan(0);
      expect(row.standard.percent_approved).to.equal(Math.round((1000 * row.standard.approved) / row.standard.decided) / 10);
      expect(res.body.excluded.cancelled_before_decision).to.equal(0);
      expect(row.standard.approved_after_appeal).to.equal(1);
      expect(row.standard.approved_after_extension).to.equal(1);
      const bad = await get('/v1/admin/pa-metrics?year=20x6', admin);
      expect(bad.status).to.equal(400);
      expect((await get('/v1/admin/pa-metrics', key)).status).to.equal(403);
    });
  });

  describe('what the response carries (PAS 2.2.1 must support, from the request and the decision)', () => {
    const byType = (b: Json, type: string): Json[] => b.entry.map((e: Json) => e.resource).filter((r: Json) => r.resourceType === type);
    /** Each entry against the profile it declares (base R4 when the packages hold none). */
    const expectEntriesValid = (b: Json) => {
      for (const e of b.entry) expectValid(e.resource as never, (e.resource.meta?.profile ?? []).map((p: string) => p.split('|')[0]).find((p: string) => p.startsWith('http://hl7.org/fhir/us/davinci-pas/')), e.fullUrl);
    };

    it("when the kit's Bundle with a careTeam PractitionerRole is submitted, then the role comes back with the Practitioner and Organization it names, each item echoes its trace number, previous authorization number and diagnoses, and the Claim's identifiers are echoed", async () => {
      const sent = kitBody('pas-kit-update-initial.json');
      const res = await submit(sent, await t.key({ name: 'echo' }));
      const cr = expectPasResponse(res);
      expectEntriesValid(res);
      const role = byType(res, 'PractitionerRole')[0];
      expect(role.id).to.equal('ReferralPractitionerRoleExample');
      expect(byType(res, 'Practitioner').map((r: Json) => r.id)).to.include(role.practitioner.reference.split('/')[1]);
      expect(byType(res, 'Organization').map((r: Json) => r.id)).to.include(role.organization.reference.split('/')[1]);
      const claim = sent.entry[0].resource;
      expect(cr.identifier).to.deep.include(claim.identifier[0]);
      const item = cr.item.find((i: Json) => i.itemSequence === claim.item[0].sequence);
      expect(ext(item, PAS_EXT.itemTraceNumber).valueIdentifier).to.deep.equal(ext(claim.item[0], PAS_EXT.itemTraceNumber).valueIdentifier);
      expect(ext(item, PAS_EXT.authorizationNumber).valueString).to.equal(ext(claim.item[0], PAS_EXT.authorizationNumber).valueString);
      const dx = claim.diagnosis.find((d: Json) => d.sequence === claim.item[0].diagnosisSequence[0]).diagnosisCodeableConcept;
      expect(ext(item, PAS_EXT.communicatedDiagnosis).valueCodeableConcept).to.deep.equal(dx);
      const reviewer = cr.extension.find((e: Json) => e.url === PAS_EXT.claimResponseReviewer);
      expect(reviewer.extension).to.deep.equal([{ url: 'wasHumanReviewedFlag', valueBoolean: false }]);
    });

    it('when an item is certified in total for a period, then it carries what it authorizes (the item as requested, its provider) and the claim-level reviewAction and preAuthPeriod', async () => {
      const qr = dtrResponse('qr-auth', 'MA/medicaid_mco/home_health', [1, 2]);
      const cr = expectPasResponse(await submit(pasRequest('auth', [{ code: '42', servicedPeriod: { start: '2026-12-01', end: '2027-02-28' } }], { supporting: [qr] })));
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A1']]);
      const detail = ext(cr.item[0], PAS_EXT.itemAuthorizedDetail);
      expect(detail.extension.find((e: Json) => e.url === 'productOrServiceCode').valueCodeableConcept.coding[0].code).to.equal('42');
      expect(ext(cr.item[0], PAS_EXT.itemAuthorizedProvider).extension[0].url).to.equal('provider');
      expect(ext(cr.item[0], PAS_EXT.itemRequestedServiceDate).valuePeriod).to.deep.equal({ start: '2026-12-01', end: '2027-02-28' });
      expect(cr.preAuthPeriod).to.deep.equal({ start: '2026-12-01', end: '2027-02-28' });
      expect(JSON.stringify(cr.adjudication)).to.contain('"code":"A1"');
    });

    it("when an item is pended for documentation under a rule, then a PAS Task asks for the rule's DTR Questionnaire (PayerURL, QuestionnaireContext with the item's line), valid against profile-task; a certified item gets none", async () => {
      const res = await submit(pasRequest('task', [{ code: '42' }, { code: '3' }]));
      const cr = expectPasResponse(res);
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A4'], [2, 'A1']]);
      const tasks = byType(res, 'Task');
      expect(tasks).to.have.length(1);
      const task = tasks[0];
      expectValid(task as never, PAS_PROFILE.task);
      expect(task.code.coding[0].code).to.equal('attachment-request-questionnaire');
      const input = (code: string) => task.input.find((i: Json) => i.type.coding[0].code === code);
      expect(input('payer-url').valueUrl).to.equal('https://prauth.test/v1');
      expect(input('questionnaire-context').valueString).to.equal('https://prauth.test/v1/dtr/questionnaire/MA/medicaid_mco/home_health');
      expect(input('questionnaire-context').extension).to.deep.equal([{ url: PAS_EXT.serviceLineNumber, valuePositiveInt: 1 }]);
      expect(task.reasonReference.reference).to.equal(cr.request.reference);
      expect(task.requester.identifier.value).to.be.a('string');
      expect(task.owner.identifier.value).to.be.a('string');
      // The Questionnaire it names is the one the DTR endpoint serves for the rule.
      const q = await get('/v1/dtr/questionnaire/MA/medicaid_mco/home_health');
      expect(q.status).to.equal(200);
      expect(q.body.url).to.equal(input('questionnaire-context').valueString);
    });
  });

  describe('as the PAS test kit drives it (its own request bodies, test/kit-requests)', () => {
    let kit: string;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    before(async () => {
      kit = await t.key({ name: 'pas-kit' });
      receiver = await startReceiver();
    });
    after(() => receiver.close());
    const claimOf = (b: Json): Json => b.entry[0].resource;

    it("when the kit subscribes with end 2020-12-31 (its own Subscription), then 201 with the end kept as sent, a handshake, and a later decision is notified", async () => {
      const sub = kitBody('pas-kit-subscription.json');
      sub.channel.endpoint = receiver.url;
      const res = await post('/v1/Subscription', sub, kit);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ resourceType: 'Subscription', status: 'requested', end: '2020-12-31T12:00:00Z' });
      await t.deps.outbox.drain();
      expect(receiver.received.map((r) => statusOf(r.body).type)).to.deep.equal(['handshake']);
      expect(receiver.received[0]!.headers.authorization).to.equal('Bearer demo_execution');
      expect((await get(`/v1/Subscription/${res.body.id}`, kit)).body.status).to.equal('active');
      // A pended request from the organization the filter names (org-identifier=8189991234), then decided.
      const pendedKit = await submit(pasRequest('kit-sub', [{ code: '42' }]), kit);
      const ref = claimOf(pendedKit).preAuthRef;
      const decided = await request(t.app.handler).post(`/v1/admin/pas/${ref}/decide`).set('x-api-key', admin).send({ decision: 'approve' });
      expect(decided.status).to.equal(200);
      await t.deps.outbox.drain();
      const events = receiver.received.filter((r) => statusOf(r.body).type === 'event-notification');
      expect(events).to.have.length(1);
      expect(reviewCodes(expectPasResponse(events[0]!.body.entry[1].resource))).to.deep.equal([[1, 'A1']]);
    });

    it('when an inquiry names the submitted claim, member and provider with other item codes (HCPCS, as the kit sends), then the stored request is returned, not narrowed by item code', async () => {
      const submitted = claimOf(await submit(pasRequest('kit-inq', [{ code: '3' }, { code: '42' }]), kit));
      const inquiry = kitBody('pas-kit-pended-inquire.json');
      expect(claimOf(inquiry).item.map((i: Json) => i.productOrService.coding[0].system)).to.include('http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets');
      // By the request's own identifier...
      claimOf(inquiry).identifier[0].value = 'claim-kit-inq';
      const byId = await post('/v1/Claim/$inquire', inquiry, kit);
      expect(byId.status, JSON.stringify(byId.body).slice(0, 300)).to.equal(200);
      expect(byId.body.parameter.map((p: Json) => claimOf(p.resource).preAuthRef)).to.deep.equal([submitted.preAuthRef]);
      const cr = expectPasResponse(byId.body.parameter[0].resource, 'inquiry');
      expect(reviewCodes(cr)).to.deep.equal([[1, 'A1'], [2, 'A4']]);
      // ...and by member and provider alone (PAS 2.2.1), every request of that member with that provider, newest first.
      claimOf(inquiry).identifier[0].value = 'an-identifier-never-submitted';
      inquiry.identifier.value = 'another-transaction';
      const byMember = await post('/v1/Claim/$inquire', inquiry, kit);
      const refs = byMember.body.parameter.map((p: Json) => claimOf(p.resource).preAuthRef);
      expect(refs[0]).to.equal(submitted.preAuthRef);
      expect(refs.length).to.be.greaterThan(1);
    });

    it('when the kit sends its update Bundles (one Bundle.identifier for all, the prior Claim included with its own related.claim), then one stored request changes version by version', async () => {
      const initial = claimOf(await submit(kitBody('pas-kit-update-initial.json'), kit));
      const ref = initial.preAuthRef;
      expect(reviewCodes(initial).map(([seq]) => seq)).to.deep.equal([1]);
      const added = claimOf(await submit(kitBody('pas-kit-update-add-item.json'), kit));
      expect(added).to.include({ preAuthRef: ref });
      expect(added.meta.versionId).to.equal('2');
      expect(reviewCodes(added).map(([seq]) => seq)).to.deep.equal([1, 2]);
      const modified = claimOf(await submit(kitBody('pas-kit-update-modify-cancel.json'), kit));
      expect(modified).to.include({ preAuthRef: ref });
      expect(modified.meta.versionId).to.equal('3');
      expect(reviewCodes(modified).map(([seq, code]) => `${seq}${code === 'cancelled' ? ' cancelled' : ''}`)).to.deep.equal(['1', '2 cancelled']);
      expect(modified.processNote.map((n: Json) => n.text).join(' ')).to.contain('Item 2 was cancelled');
      const cancelled = claimOf(await submit(kitBody('pas-kit-update-cancel-all.json'), kit));
      expect(cancelled).to.include({ preAuthRef: ref });
      expect(cancelled.meta.versionId).to.equal('4');
      expect(reviewCodes(cancelled)).to.deep.equal([[1, 'cancelled'], [2, 'cancelled']]);
      for (const cr of [initial, added, modified, cancelled]) expectValid(cr as never, PAS_PROFILE.claimResponse);
      expect((await get(`/v1/admin/pas/${ref}`, admin)).body.status).to.equal('cancelled');
    });

    it('when two different claims come under one Bundle.identifier, then two submissions (the 1-item claim answered with 1 item); the same Bundle again is the same submission', async () => {
      const two = pasRequest('same-tx', [{ code: '3' }, { code: '42' }]);
      const one = pasRequest('same-tx', [{ code: '42' }]);
      claimOf(one).identifier[0].value = 'claim-same-tx-b';
      expect(one.identifier).to.deep.equal(two.identifier);
      const a = claimOf(await submit(two, kit));
      const b = claimOf(await submit(one, kit));
      expect(b.preAuthRef).to.not.equal(a.preAuthRef);
      expect(reviewCodes(a)).to.deep.equal([[1, 'A1'], [2, 'A4']]);
      expect(reviewCodes(b)).to.deep.equal([[1, 'A4']]);
      const again = claimOf(await submit(one, kit));
      expect(again.preAuthRef).to.equal(b.preAuthRef);
      expect(again.meta.versionId).to.equal('1');
    });
  });
});

describe('PAS automatic decisions (PAS_AUTO_DECIDE, for harnesses that cannot wait for a person)', function () {
  this.timeout(60_000);
  it('when PAS_AUTO_DECIDE=approve:0, then a pended item is certified through the outbox as a new version, marked as not human-reviewed', async () => {
    const t = await makeTestApp(pasCorpus(), { env: { PUBLIC_BASE_URL: 'https://prauth.test', PAS_AUTO_DECIDE: 'approve:0' } });
    const key = await t.key({ name: 'auto' });
    const res = await request(t.app.handler).post('/v1/Claim/$submit').set('x-api-key', key).set('content-type', 'application/fhir+json').send(JSON.stringify(pasRequest('auto', [{ code: '42' }])));
    const ref = res.body.entry[0].resource.preAuthRef;
    expect(reviewCodes(res.body.entry[0].resource)).to.deep.equal([[1, 'A4']]);
    await t.deps.outbox.drain();
    const cr = (await request(t.app.handler).get(`/v1/ClaimResponse/${ref}`).set('x-api-key', key)).body;
    expect(cr.meta.versionId).to.equal('2');
    expect(reviewCodes(cr)).to.deep.equal([[1, 'A1']]);
    const reviewer = cr.extension.find((e: Json) => e.url.endsWith('extension-claimResponseReviewer'));
    expect(reviewer.extension).to.deep.equal([{ url: 'wasHumanReviewedFlag', valueBoolean: false }]);
    expect(cr.processNote.map((n: Json) => n.text).join(' ')).to.contain('automatic rule');
    expectValid(cr, PAS_PROFILE.claimResponse);
  });
});
