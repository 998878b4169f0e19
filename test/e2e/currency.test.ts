// Currency as an operator and a watcher see it, with real processes: npm start's entry point on a temp data
// directory, the prauth CLI, a loopback SMTP server and a Twilio-shaped SMS receiver. The server is killed with
// SIGKILL between the ingest and the delivery; the restarted server delivers each message exactly once, and the
// change is in the feed before and after the restart.
import { parseFeed } from '@rowanmanning/feed-parser';
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jurisdiction, rule } from '../support/docs.js';
import { startMailSink, startSmsReceiver, type MailSink, type SmsReceiver } from '../support/receivers.js';
import { cli, startServer, type Spawned } from '../support/spawn.js';

const EMAIL = 'nurse.lead@clinic.example.org';
const PHONE = '+15125550188';

function fixtureDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'prauth-cur-fx-'));
  writeFileSync(join(dir, 'a.ndjson'), [jurisdiction('TX'), rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' })].map((d) => JSON.stringify(d)).join('\n'));
  return dir;
}

async function feedTitles(url: string): Promise<string[]> {
  const res = await fetch(`${url}/v1/watch/feed.xml?state=TX`);
  expect(res.status).to.equal(200);
  return parseFeed(await res.text()).items.map((i) => i.title ?? '');
}

describe('end to end: change feed, notify-when-ready delivery across a kill -9, scheduled refresh', function () {
  this.timeout(240_000);
  let mail: MailSink;
  let sms: SmsReceiver;
  let env: Record<string, string>;
  let server: Spawned | undefined;
  let source: Server | undefined;

  beforeEach(async () => {
    mail = await startMailSink();
    sms = await startSmsReceiver();
    const dataDir = join(mkdtempSync(join(tmpdir(), 'prauth-cur-')), 'data');
    env = {
      PRAUTH_DATA_DIR: dataDir,
      PRAUTH_FIXTURES_DIR: fixtureDir(),
      SMTP_URL: mail.url,
      MAIL_FROM: 'prauth <alerts@prauth.example.org>',
      SMS_API_URL: sms.url,
      SMS_ACCOUNT_SID: 'AC00000000000000000000000000000002',
      SMS_AUTH_TOKEN: 'e2e-token',
      SMS_FROM: '+15125550100',
      // Nothing is delivered by polling during the test: only the immediate pass of a (re)started server.
      OUTBOX_POLL_SECONDS: '3600',
    };
  });
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
    await mail.close();
    await sms.close();
    await new Promise<void>((r) => (source ? source.close(() => r()) : r()));
    source = undefined;
  });

  it('when a watched gap is filled and the server is killed before delivery, then the restarted server sends one e-mail and one SMS', async () => {
    server = await startServer(env, 60_000);
    for (const body of [
      { state: 'TX', subject: 'dental', kind: 'service', program: 'chip', contact: EMAIL, channel: 'email' },
      { state: 'TX', subject: 'dental', kind: 'service', contact: PHONE },
    ]) {
      const res = await fetch(`${server.url}/v1/notify-when-ready`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { recorded: boolean }).recorded).to.equal(true);
    }
    const file = join(mkdtempSync(join(tmpdir(), 'prauth-cur-in-')), 'dental.ndjson');
    const filled = rule({ state: 'TX', program: 'chip', code: 'dental', kind: 'service', paType: 'conditional' });
    writeFileSync(file, `${JSON.stringify(filled)}\n`);
    const ingest = await cli(['ingest', file], env);
    expect(ingest.code, ingest.stderr).to.equal(0);
    expect(ingest.stderr).to.contain('through the server pid');
    expect(await feedTitles(server.url)).to.satisfy((t: string[]) => t[0]!.includes('Dental') && t[0]!.includes('rule added'));

    expect(await server.stop('SIGKILL')).to.equal(null);
    server = undefined;
    expect(mail.mails, 'nothing delivered before the kill').to.have.length(0);
    expect(sms.requests).to.have.length(0);

    server = await startServer(env, 60_000);
    await mail.waitFor(1, 30_000);
    await sms.waitFor(1, 30_000);
    // Give a duplicate the time to show up if there were one.
    await new Promise((r) => setTimeout(r, 1500));
    expect(mail.mails).to.have.length(1);
    expect(sms.requests).to.have.length(1);
    expect(mail.mails[0]!.to).to.deep.equal([EMAIL]);
    expect(mail.mails[0]!.text).to.contain(filled.id).and.contain(filled.source.url);
    expect(sms.requests[0]!.form.get('To')).to.equal(PHONE);
    expect(sms.requests[0]!.form.get('Body')).to.contain(filled.source.url);
    // The change is still in the feed after the restart.
    expect((await feedTitles(server.url))[0]).to.contain('Dental');

    // The CLI's run history has the ingest; a second restart sends nothing more.
    expect(await server.stop('SIGTERM')).to.equal(0);
    server = undefined;
    const history = await cli(['ingest', 'history', '--json'], env);
    expect(history.code, history.stderr).to.equal(0);
    const runs = JSON.parse(history.stdout) as { trigger: string; status: string; added: number; notifications_queued: number }[];
    expect(runs[0]).to.include({ trigger: 'admin', status: 'ok', added: 1, notifications_queued: 2 });
    server = await startServer(env, 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(mail.mails).to.have.length(1);
    expect(sms.requests).to.have.length(1);
    expect(server.output()).to.not.contain(EMAIL);
    expect(server.output()).to.not.contain(PHONE);
  });

  it('when INGEST_CRON and an https NDJSON URL are set, then the schedule ingests, stores a report, and the feed shows the change', async () => {
    // A real TLS server with a throwaway certificate for 127.0.0.1, trusted by the server process through NODE_EXTRA_CA_CERTS.
    const tls = mkdtempSync(join(tmpdir(), 'prauth-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(tls, 'key.pem'), '-out', join(tls, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const body = `${JSON.stringify(rule({ state: 'TX', program: 'part_d', code: 'oncology_oral' }))}\n`;
    source = createHttpsServer({ key: readFileSync(join(tls, 'key.pem')), cert: readFileSync(join(tls, 'cert.pem')) }, (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(body),
    );
    await new Promise<void>((r) => source!.listen(0, '127.0.0.1', () => r()));
    const url = `https://127.0.0.1:${(source.address() as AddressInfo).port}/rules.ndjson?token=secret`;
    server = await startServer({ ...env, INGEST_CRON: '*/2 * * * * *', INGEST_SOURCE: url, NODE_EXTRA_CA_CERTS: join(tls, 'cert.pem') }, 60_000);
    const deadline = Date.now() + 60_000;
    let titles: string[] = [];
    while (Date.now() < deadline) {
      titles = await feedTitles(server.url);
      if (titles.some((t) => t.includes('Oral oncology') || t.includes('oncology'))) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(titles[0]).to.match(/oncology/i);
    await new Promise((r) => setTimeout(r, 2500)); // at least one more tick: unchanged
    expect(await server.stop('SIGTERM')).to.equal(0);
    server = undefined;
    const history = await cli(['ingest', 'history', '--json'], env);
    const runs = JSON.parse(history.stdout) as { trigger: string; status: string; source: string; added: number; unchanged: number }[];
    const scheduled = runs.filter((r) => r.trigger === 'schedule');
    expect(scheduled.length).to.be.greaterThan(1);
    expect(scheduled.every((r) => r.source === `https://127.0.0.1:${(source!.address() as AddressInfo).port}/rules.ndjson`), 'no query string stored').to.equal(true);
    expect(scheduled.at(-1)).to.include({ status: 'ok', added: 1 });
    expect(scheduled[0]).to.include({ status: 'ok', added: 0, unchanged: 1 });
  });
});
