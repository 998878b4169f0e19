// POST /v1/notify-when-ready end to end in process: validation, durable storage with sealed contacts, limits, and
// delivery through the outbox to a real SMTP server and a real HTTP receiver of the Twilio Messages API shape.
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ingestRecords } from '../../src/ingest/run-ingest.js';
import { COLLECTIONS } from '../../src/store/collections.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import type { DocumentStore } from '../../src/store/port.js';
import type { OutboxDoc } from '../../src/services/outbox.js';
import { jurisdiction, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { startMailSink, startSmsReceiver, type MailSink, type SmsReceiver } from '../support/receivers.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

const EMAIL = 'watcher.one@clinic.example.org';
const PHONE = '+15125550123';

function ndjson(docs: object[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'prauth-notify-src-')), 'rules.ndjson');
  writeFileSync(path, docs.map((d) => JSON.stringify(d)).join('\n'));
  return path;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('notify-when-ready', () => {
  let mail: MailSink;
  let sms: SmsReceiver;
  let dataDir: string;
  let keyFile: string;
  let store: DocumentStore;
  let t: TestApp;

  beforeEach(async () => {
    mail = await startMailSink();
    sms = await startSmsReceiver();
    dataDir = mkdtempSync(join(tmpdir(), 'prauth-notify-data-'));
    keyFile = join(mkdtempSync(join(tmpdir(), 'prauth-notify-key-')), 'contact.key');
    store = await openEmbeddedStore({ dataDir });
    t = await makeTestApp([jurisdiction('TX'), jurisdiction('WY', { mcoBrands: [], carveOuts: ['No risk-based MCOs'] }), rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' })], {
      store,
      env: {
        SMTP_URL: mail.url,
        MAIL_FROM: 'prauth alerts <alerts@prauth.example.org>',
        SMS_API_URL: sms.url,
        SMS_ACCOUNT_SID: 'AC00000000000000000000000000000001',
        SMS_AUTH_TOKEN: 'test-auth-token',
        SMS_FROM: '+15125550100',
        NOTIFY_KEY_FILE: keyFile,
        PUBLIC_BASE_URL: 'https://prauth.example.org',
        RATE_LIMITS: 'notify_address=6,notify_contact=3',
      },
    });
  });
  afterEach(async () => {
    await mail.close();
    await sms.close();
    await store.close();
  });

  const post = (body: unknown) => request(t.app.handler).post('/v1/notify-when-ready').send(body as object);

  it('when a field is missing or invalid, then the 400 names it', async () => {
    const good = { state: 'TX', subject: 'dental', kind: 'service', contact: EMAIL, channel: 'email' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, state: undefined }, 'state'],
      [{ ...good, state: 'ZZ' }, 'state'],
      [{ ...good, subject: 'hepatitis_c' }, 'subject'], // a drug class with kind service
      [{ ...good, kind: 'device' }, 'kind'],
      [{ ...good, program: 'medigap' }, 'program'],
      [{ ...good, program: 'part_d' }, 'subject'], // dental is outside Part D's benefit: a gap no rule will fill
      [{ ...good, state: 'WY', program: 'medicaid_mco' }, 'program'], // the state runs no managed care: ask fee-for-service
      [{ ...good, channel: 'fax' }, 'channel'],
      [{ ...good, contact: 'not-an-address' }, 'contact'],
      [{ ...good, contact: 'someone@localhost' }, 'contact'],
      [{ ...good, channel: 'sms', contact: EMAIL }, 'contact'],
      [{ ...good, channel: 'sms', contact: '+1512555012' }, 'contact'], // too short for the US plan
      [{ ...good, channel: 'sms', contact: '5125550123' }, 'contact'], // not E.164
      [{ ...good, contact: 42 }, 'contact'],
      [{ ...good, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expectOpenApi(t.app.routes, res, 'POST');
      expect((res.body as { field: string }).field, JSON.stringify(body)).to.equal(field);
      expect((res.body as { error: string }).error).to.contain(field === 'extra' ? "'extra'" : field);
    }
    const notJson = await request(t.app.handler).post('/v1/notify-when-ready').set('content-type', 'application/json').send('[1]');
    expect(notJson.status).to.equal(400);
  });

  it('when a gap is watched, then the request is stored with the contact sealed, and a repeat collapses into the first', async () => {
    const first = await post({ state: 'tx', subject: 'dental', kind: 'service', program: 'chip', contact: 'Watcher.One@Clinic.Example.org' });
    expect(first.status).to.equal(200);
    expectOpenApi(t.app.routes, first, 'POST');
    expect(first.body).to.deep.include({ recorded: true, status: 'waiting', state: 'TX', program: 'chip', kind: 'service', subject: 'dental', channel: 'email' });
    expect((first.body as { contact_hint: string }).contact_hint).to.equal('W***@clinic.example.org');
    const again = await post({ state: 'TX', subject: 'dental', kind: 'service', program: 'chip', contact: 'Watcher.One@clinic.example.org', channel: 'email' });
    // The same body whether or not the contact already watched it: nothing tells a stranger what this person asked for.
    expect(again.body, 'a repeat answers exactly like the first request').to.deep.equal(first.body);
    expect(first.body).to.not.have.property('duplicate');
    expect(await store.collection(COLLECTIONS.notifications).count()).to.equal(1);

    // The data directory alone does not reveal the contact; the key lives outside it, mode 0600.
    await store.close();
    store = await openEmbeddedStore({ dataDir });
    for (const f of filesUnder(dataDir)) {
      const text = readFileSync(f, 'utf8').toLowerCase();
      expect(text, f).to.not.contain('watcher.one');
      expect(text, f).to.not.contain('clinic.example.org');
    }
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    expect(keyFile.startsWith(dataDir)).to.equal(false);
  });

  it('when a combination already has a verified rule, then it answers available and stores nothing', async () => {
    const res = await post({ state: 'TX', subject: 'hepatitis_c', program: 'medicaid_mco', contact: PHONE });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ recorded: false, status: 'available', channel: 'sms' });
    expect((res.body as { lookup_url: string }).lookup_url).to.equal('https://prauth.example.org/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c');
    expect(await store.collection(COLLECTIONS.notifications).count()).to.equal(0);
  });

  it('when one contact or one address asks too often, then 429 with the spec body and Retry-After', async () => {
    const subjects = ['dental', 'hospice', 'laboratory', 'home_health'];
    const statuses: number[] = [];
    for (const s of subjects) statuses.push((await post({ state: 'TX', subject: s, kind: 'service', contact: PHONE })).status);
    expect(statuses).to.deep.equal([200, 200, 200, 429]);
    const limited = await post({ state: 'TX', subject: 'dental', kind: 'service', contact: PHONE });
    expectOpenApi(t.app.routes, limited, 'POST');
    expect(limited.body).to.include({ code: 'rate_limited', limit: 3, window: '1h' });
    expect((limited.body as { retry_after_seconds: number }).retry_after_seconds).to.equal(Number(limited.headers['retry-after']));
    expect((limited.body as { error: string }).error).to.contain('this contact');
    expect(JSON.stringify(limited.body)).to.not.contain(PHONE);
    // Every request from the address counts, refused ones included: the 6th passes, the 7th is refused.
    expect((await post({ state: 'TX', subject: 'dental', kind: 'service', contact: '+15125550124' })).status).to.equal(200);
    const byAddress = await post({ state: 'TX', subject: 'dental', kind: 'service', contact: '+15125550125' });
    expect(byAddress.status).to.equal(429);
    expect(byAddress.body).to.include({ limit: 6, window: '1h' });
    expect((byAddress.body as { error: string }).error).to.contain('this address');
  });

  it('when an ingest fills watched gaps, then exactly one e-mail and one SMS go out with the rule and its citation, and unsubscribe works', async () => {
    expect((await post({ state: 'TX', subject: 'dental', kind: 'service', program: 'chip', contact: EMAIL, channel: 'email' })).status).to.equal(200);
    expect((await post({ state: 'TX', subject: 'dental', kind: 'service', contact: PHONE })).status).to.equal(200);
    // A watch elsewhere is not told.
    expect((await post({ state: 'TX', subject: 'hospice', kind: 'service', contact: 'other@clinic.example.org' })).status).to.equal(200);

    const filled = rule({ state: 'TX', program: 'chip', code: 'dental', kind: 'service', paType: 'conditional' });
    const report = await t.deps.ingest(ndjson([filled]));
    expect(report.added).to.equal(1);
    await t.deps.outbox.drain();
    // Re-dispatching, re-ingesting a change, draining again: still once.
    await t.deps.notify.dispatch();
    await t.deps.ingest(ndjson([{ ...filled, verification: { ...filled.verification, lastVerified: '2026-11-22' } }]));
    await t.deps.outbox.drain();

    expect(mail.mails).to.have.length(1);
    const m = mail.mails[0]!;
    expect(m.to).to.deep.equal([EMAIL]);
    expect(m.from).to.equal('alerts@prauth.example.org');
    expect(m.subject).to.contain('TX').and.contain('Dental');
    expect(m.text).to.contain(filled.id);
    expect(m.text).to.contain(`Source: ${filled.source.title} (${filled.source.publisher}) ${filled.source.url}`);
    expect(m.text).to.contain('PA required (conditional)');
    expect(m.text).to.contain('https://prauth.example.org/v1/pauth-lookup?state=TX&program=chip&service=dental');
    expect(m.messageId).to.match(/^<[0-9a-f]{32}\.notify@prauth\.example\.org>$/);
    const unsub = /https:\/\/prauth\.example\.org(\/v1\/notify\/unsubscribe\?token=[^\s]+)/.exec(m.text)![1]!;
    expect(JSON.stringify(m.headers.get('list'))).to.contain('/v1/notify/unsubscribe?token=');

    expect(sms.requests).to.have.length(1);
    const s = sms.requests[0]!;
    expect(s.path).to.equal('/2010-04-01/Accounts/AC00000000000000000000000000000001/Messages.json');
    expect(s.authorization).to.equal(`Basic ${Buffer.from('AC00000000000000000000000000000001:test-auth-token').toString('base64')}`);
    expect(s.form.get('To')).to.equal(PHONE);
    expect(s.form.get('From')).to.equal('+15125550100');
    expect(s.form.get('Body')).to.contain(filled.source.url).and.contain('/v1/notify/unsubscribe?token=');

    const u = await request(t.app.handler).get(unsub);
    expect(u.status).to.equal(200);
    expectOpenApi(t.app.routes, u);
    expect(u.body).to.deep.include({ unsubscribed: true });
    const forged = await request(t.app.handler).get(`${unsub.slice(0, -3)}abc`);
    expect(forged.status).to.equal(400);
    // RFC 8058 one-click: the mail says a POST works, and the POST a mail client sends unsubscribes (here the SMS watch's link).
    expect(JSON.stringify([...m.headers.entries()])).to.contain('List-Unsubscribe=One-Click');
    const smsUnsub = /https:\/\/prauth\.example\.org(\/v1\/notify\/unsubscribe\?token=[^\s]+)/.exec(s.form.get('Body')!)![1]!;
    const oneClick = await request(t.app.handler).post(smsUnsub).type('form').send('List-Unsubscribe=One-Click');
    expect(oneClick.status, JSON.stringify(oneClick.body)).to.equal(200);
    expectOpenApi(t.app.routes, oneClick, 'POST');
    expect(oneClick.body).to.deep.include({ unsubscribed: true });
    expect(await t.deps.outbox.stats()).to.deep.equal({ pending: 0, inflight: 0, delivered: 2, dead: 0 });
  });

  it('when PUBLIC_BASE_URL is unset and the request names another Host, then the message links still point at this server, never at that Host', async () => {
    const own = await makeTestApp([jurisdiction('TX')], {
      store,
      env: { SMTP_URL: mail.url, MAIL_FROM: 'prauth alerts <alerts@prauth.example.org>', NOTIFY_KEY_FILE: keyFile, PORT: '18555' },
    });
    const res = await request(own.app.handler).post('/v1/notify-when-ready').set('Host', 'phish.example').send({ state: 'TX', subject: 'dental', kind: 'service', program: 'chip', contact: EMAIL, channel: 'email' });
    expect(res.status).to.equal(200);
    // The answer goes back to the caller only: its link may use the Host it sent.
    expect((res.body as { lookup_url: string }).lookup_url).to.equal('http://phish.example/v1/pauth-lookup?state=TX&program=chip&service=dental');
    await own.deps.ingest(ndjson([rule({ state: 'TX', program: 'chip', code: 'dental', kind: 'service' })]));
    await own.deps.outbox.drain();
    expect(mail.mails).to.have.length(1);
    const text = mail.mails[0]!.text;
    expect(text).to.not.contain('phish.example');
    expect(text).to.contain('http://localhost:18555/v1/pauth-lookup?state=TX&program=chip&service=dental');
    expect(text).to.match(/http:\/\/localhost:18555\/v1\/notify\/unsubscribe\?token=/);
  });

  it('when a watch is stored while an ingest is landing (read model not yet refreshed, dispatcher already past it), then it is still told once', async () => {
    const filled = rule({ state: 'TX', program: 'chip', code: 'dental', kind: 'service' });
    await ingestRecords({ store, now: () => new Date() }, [{ file: 'x', line: 1, value: filled }]);
    await t.deps.notify.dispatch(); // the dispatcher has read the log (and found no watch) before the request
    expect(t.deps.corpus.current.rules.size).to.equal(1); // the read model still says gap
    const res = await post({ state: 'TX', subject: 'dental', kind: 'service', contact: EMAIL });
    expect(res.body).to.include({ recorded: true, status: 'notified' });
    await t.deps.outbox.drain();
    await t.deps.notify.dispatch();
    await t.deps.outbox.drain();
    expect(mail.mails).to.have.length(1);
    expect(mail.mails[0]!.text).to.contain(filled.id);
  });

  it('when the SMTP server refuses for a while, then the outbox retries and the mail arrives once; a 5xx dead-letters', async () => {
    expect((await post({ state: 'TX', subject: 'dental', kind: 'service', contact: EMAIL })).status).to.equal(200);
    mail.failNext(1, 451);
    await t.deps.ingest(ndjson([rule({ state: 'TX', program: 'chip', code: 'dental', kind: 'service' })]));
    await t.deps.outbox.drain();
    expect(mail.mails).to.have.length(0);
    const [queued] = await store.collection<OutboxDoc>(COLLECTIONS.outbox).find({ kind: 'notify.email' });
    expect(queued).to.include({ status: 'pending', attempts: 1, lastError: 'DeliveryError:451' });
    expect(JSON.stringify(queued)).to.not.contain('watcher.one');
    // Due again after its backoff: run it now by moving it forward, as the poller would once the time came.
    await store.collection<OutboxDoc>(COLLECTIONS.outbox).update({ id: queued!.id }, { nextAttemptAt: new Date(0).toISOString() });
    await t.deps.outbox.drain();
    expect(mail.mails).to.have.length(1);

    expect((await post({ state: 'TX', subject: 'hospice', kind: 'service', contact: 'second@clinic.example.org' })).status).to.equal(200);
    mail.failNext(1, 550);
    await t.deps.ingest(ndjson([rule({ state: 'TX', program: 'chip', code: 'hospice', kind: 'service' })]));
    await t.deps.outbox.drain();
    expect((await t.deps.outbox.stats()).dead).to.equal(1);
    expect(mail.mails).to.have.length(1);
  });
});
