// The whole PAS life as a payer test harness drives it against the built service (dist/src/main.js) on one temp
// data directory, with restarts between steps: submit an approval, a denial and a pend (each decided by the rules),
// $inquire, subscribe (handshake on a real HTTP receiver on loopback), restart, decide the pended item with the CLI
// while the receiver is down, restart, receive the retried notification, update, cancel, metrics. The stored state
// and the outbox survive every restart.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAS_EXT, PAS_PROFILE } from '../../fhir-profiles/canonicals.js';
import { expectValid } from '../support/ig-validate.js';
import { dtrResponse, pasCorpus, pasRequest, pasSubscription, pasUpdate, reviewCodes, startReceiver, statusOf } from '../support/pas-requests.js';
import { cli, startServer, type Spawned } from '../support/spawn.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('end to end: the PAS life cycle across restarts (submit, inquire, subscribe, decide, notify, update, cancel, metrics)', function () {
  this.timeout(120_000);
  let env: Record<string, string>;
  let server: Spawned | undefined;
  let receiverStatus = 200;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let key: string;

  before(async () => {
    const fixtures = mkdtempSync(join(tmpdir(), 'prauth-pas-fx-'));
    writeFileSync(join(fixtures, 'corpus.ndjson'), pasCorpus().map((d) => JSON.stringify(d)).join('\n'));
    env = {
      PRAUTH_DATA_DIR: mkdtempSync(join(tmpdir(), 'prauth-pas-data-')),
      PRAUTH_FIXTURES_DIR: fixtures,
      OUTBOX_POLL_SECONDS: '1',
      LOG_LEVEL: 'warn',
    };
    receiver = await startReceiver(() => receiverStatus);
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await receiver.close();
  });

  const restart = async () => {
    if (server) expect(await server.stop('SIGTERM')).to.equal(0);
    server = await startServer(env);
  };
  const fhir = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${server!.url}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/fhir+json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const submit = async (b: Json): Promise<Json> => {
    const res = await fhir('POST', '/v1/Claim/$submit', b);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectValid(res.body as never, PAS_PROFILE.responseBundle);
    expectValid(res.body.entry[0].resource, PAS_PROFILE.claimResponse);
    return res.body.entry[0].resource;
  };
  const events = () => receiver.received.filter((r) => statusOf(r.body).type === 'event-notification');

  it('runs the whole life of a request', async () => {
    await restart();
    const created = await cli(['keys', 'create', '--name', 'harness', '--json'], env);
    expect(created.code, created.stderr).to.equal(0);
    key = (JSON.parse(created.stdout) as { key: string }).key;

    // 1. Submit: an approval, a denial and a pend, each decided by the rules.
    expect(reviewCodes(await submit(pasRequest('approve', [{ code: '3' }])))).to.deep.equal([[1, 'A1']]);
    expect(reviewCodes(await submit(pasRequest('deny', [{ code: '45' }])))).to.deep.equal([[1, 'A3']]);
    const pendBody = pasRequest('pend', [{ code: '3' }, { code: '42' }]);
    const pended = await submit(pendBody);
    expect(reviewCodes(pended)).to.deep.equal([[1, 'A1'], [2, 'A4']]);
    const ref: string = pended.preAuthRef;

    // 2. Subscribe: 201 requested, then the handshake on the receiver.
    const sub = await fhir('POST', '/v1/Subscription', pasSubscription(receiver.url, { token: 'inferno-token' }));
    expect(sub.status, JSON.stringify(sub.body)).to.equal(201);
    expect(sub.body.status).to.equal('requested');
    const handshake = await waitFor('the handshake', () => receiver.received.find((r) => statusOf(r.body).type === 'handshake'));
    expect(handshake.headers.authorization).to.equal('Bearer inferno-token');

    // 3. Restart: the request is still pended, $inquire finds it, the subscription is active.
    await restart();
    const inq = await fhir('POST', '/v1/Claim/$inquire', pasRequest('pend', [{ code: '42' }]));
    expect(inq.status).to.equal(200);
    expect(inq.body.parameter).to.have.length(1);
    const inqCr = inq.body.parameter[0].resource.entry[0].resource;
    expectValid(inqCr, PAS_PROFILE.claimInquiryResponse);
    expect(inqCr.preAuthRef).to.equal(ref);
    expect(reviewCodes(inqCr)).to.deep.equal([[1, 'A1'], [2, 'A4']]);
    expect((await fhir('GET', `/v1/Subscription/${sub.body.id}`)).body.status).to.equal('active');

    // 4. The receiver goes down; the operator decides with the CLI (through the running server); delivery fails.
    receiverStatus = 503;
    const queue = await cli(['pas', 'queue', '--json'], env);
    expect(queue.code, queue.stderr).to.equal(0);
    expect((JSON.parse(queue.stdout) as Json[]).map((q) => q.preAuthRef)).to.deep.equal([ref]);
    const decided = await cli(['pas', 'decide', ref, '--item', '2', '--approve', '--note', 'Records reviewed'], env);
    expect(decided.code, decided.stderr).to.equal(0);
    expect(decided.stdout).to.contain(`${ref}  decided  version 2`);
    let lastError: unknown;
    for (const until = Date.now() + 15_000; Date.now() < until && !lastError; await sleep(200)) {
      lastError = statusOf((await fhir('GET', `/v1/Subscription/${sub.body.id}/$status`)).body).error;
    }
    expect(lastError).to.deep.equal({ text: 'endpoint answered HTTP 503' });
    expect(events()).to.have.length(0);

    // 5. Restart with the receiver back: the outbox resumes and the notification arrives, full-resource.
    expect(await server!.stop('SIGTERM')).to.equal(0);
    receiverStatus = 200;
    server = await startServer(env);
    const ev = await waitFor('the event notification', () => events()[0], 30_000);
    const focus = ev.body.entry[1].resource;
    expectValid(focus, PAS_PROFILE.responseBundle);
    expect(focus.entry[0].resource.preAuthRef).to.equal(ref);
    expect(reviewCodes(focus.entry[0].resource)).to.deep.equal([[1, 'A1'], [2, 'A1']]);
    expect(ev.headers.authorization).to.equal('Bearer inferno-token');

    // 6. Update (prior Claim left out): item 2 re-decided with a DTR response attached, item 1 cancelled.
    const update = pasUpdate(pasRequest('pend', [{ code: '3' }, { code: '42' }], { supporting: [dtrResponse('qr-1', 'MA/medicaid_mco/home_health', [1, 2])] }), 'pend-update', ref, (c) => {
      c.item[1].extension.push({ url: PAS_EXT.infoChanged, valueCode: 'changed' });
      c.item[0].modifierExtension = [{ url: PAS_EXT.infoCancelled, valueBoolean: true }];
    });
    const updated = await submit(update);
    expect(updated.meta.versionId).to.equal('3');
    expect(reviewCodes(updated)).to.deep.equal([[1, 'cancelled'], [2, 'A1']]);

    // 7. Restart, then cancel the whole request.
    await restart();
    const cancel = pasUpdate(pendBody, 'pend-cancel', ref, (c) => {
      c.extension = [...c.extension.filter((e: Json) => e.url !== PAS_EXT.certificationType), { url: PAS_EXT.certificationType, valueCodeableConcept: { coding: [{ system: 'https://codesystem.x12.org/005010/1322', code: '3' }] } }];
    });
    const cancelled = await submit(cancel);
    expect(cancelled.meta.versionId).to.equal('4');
    expect(reviewCodes(cancelled)).to.deep.equal([[1, 'cancelled'], [2, 'cancelled']]);
    await waitFor('the update and cancellation notifications', () => (events().length >= 3 ? true : undefined), 30_000);
    // Each notification counts its own event (delivery order between two due messages is not guaranteed).
    expect(events().map((e) => statusOf(e.body)['events-since-subscription-start']).sort()).to.deep.equal(['1', '2', '3']);
    const after = await fhir('POST', '/v1/Claim/$inquire', pasRequest('pend', [{ code: '42' }]));
    expect(after.body.parameter[0].resource.entry[0].resource.meta.versionId).to.equal('4');

    // 8. Metrics through the CLI: the approval and the decided pend approved, the denial denied; the cancelled
    //    request was decided before its cancellation, so it counts.
    const metrics = await cli(['pas', 'metrics', '--json'], env);
    expect(metrics.code, metrics.stderr).to.equal(0);
    const report = JSON.parse(metrics.stdout) as Json;
    const row = report.rows.find((r: Json) => r.program === 'medicaid_mco');
    expect(row.standard).to.include({ requests: 3, decided: 3, denied: 1, still_pending: 0 });
    expect(row.standard.approved + row.standard.partially_approved).to.equal(2);
  });
});
