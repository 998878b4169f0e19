// Issue 13 findings, one regression test each: demo-session ids in clear and never purged; data files 0644;
// POST /v1/admin/ingest {"path": "/etc/passwd"} reading any file and echoing its lines; lower-case state codes
// accepted; /v1/states?state= answering the list; FHIR 429s without limit/window/retry-after; /v1/pa-lookup 401s
// and 429s without Deprecation and Sunset.
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { RATE_LIMIT_EXTENSION } from '../../src/http/pipeline.js';
import { COLLECTIONS } from '../../src/store/collections.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import type { Keyed } from '../../src/store/port.js';
import { jurisdiction, rule } from '../support/docs.js';
import { example, fhirCorpus } from '../support/fhir-corpus.js';
import { expectValidFhir } from '../support/fhir-validate.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp } from '../support/test-app.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('hardening: the issue 13 findings', () => {
  it('when a demo session is issued, then only a hash of its id is stored, it still works, and expired sessions are purged', async () => {
    let clock = new Date('2026-11-21T10:00:00.000Z');
    const t = await makeTestApp([jurisdiction('TX')], { now: () => clock, env: { DEMO_SESSION_MINUTES: '5' } });
    const issued = await request(t.app.handler).post('/v1/demo-sessions');
    expect(issued.status).to.equal(201);
    const sid = issued.body.session_id as string;
    const stored = await t.deps.store.collection<Keyed & { expiresAt: string }>(COLLECTIONS.demoSessions).find({});
    expect(stored).to.have.length(1);
    expect(JSON.stringify(stored)).to.not.contain(sid);
    expect(stored[0]!.id).to.match(/^[0-9a-f]{64}$/);
    const ok = await request(t.app.handler).get('/v1/action-plan?state=TX&program=chip&drug=hepatitis_c&denied=true').set('x-demo-session', sid);
    expect(ok.status).to.not.equal(401);
    // Ten minutes later the session has expired; the next issue purges it.
    clock = new Date('2026-11-21T10:10:00.000Z');
    expect((await request(t.app.handler).get('/v1/action-plan?state=TX&program=chip&drug=hepatitis_c').set('x-demo-session', sid)).status).to.equal(401);
    await request(t.app.handler).post('/v1/demo-sessions');
    const left = await t.deps.store.collection<Keyed & { expiresAt: string }>(COLLECTIONS.demoSessions).find({});
    expect(left).to.have.length(1);
    expect(Date.parse(left[0]!.expiresAt)).to.be.greaterThan(clock.getTime());
  });

  it('when the embedded store writes its files, then the directory is 0700 and every file 0600 (existing files too)', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'prauth-modes-')), 'data');
    mkdirSync(dir, { mode: 0o755 });
    writeFileSync(join(dir, 'keys.db'), '', { mode: 0o644 });
    const store = await openEmbeddedStore({ dataDir: dir });
    await store.collection<Keyed>('keys').insert({ id: 'k1' });
    await store.collection<Keyed>('meta').insert({ id: 'm1' });
    await store.close(); // compaction rewrites the files
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
    for (const f of ['keys.db', 'meta.db']) expect(statSync(join(dir, f)).mode & 0o777, f).to.equal(0o600);
  });

  describe('admin ingest reads only bodies and files inside PRAUTH_INGEST_DIR', () => {
    const inbox = mkdtempSync(join(tmpdir(), 'prauth-inbox-'));
    writeFileSync(join(inbox, 'tx.ndjson'), [jurisdiction('TX'), rule({ state: 'TX', program: 'chip', code: 'hepatitis_c' })].map((d) => JSON.stringify(d)).join('\n'));
    const outside = mkdtempSync(join(tmpdir(), 'prauth-outside-'));
    writeFileSync(join(outside, 'secret.ndjson'), 'root:x:0:0:root:/root:/bin/bash\n');
    symlinkSync(join(outside, 'secret.ndjson'), join(inbox, 'link.ndjson'));

    const post = async (env: Record<string, string>, body: unknown) => {
      const t = await makeTestApp([], { env });
      const admin = await t.key({ admin: true });
      return request(t.app.handler).post('/v1/admin/ingest').set('x-api-key', admin).send(body as object);
    };

    it('when the path is /etc/passwd, outside, or a symbolic link out, then the same 400 that echoes nothing', async () => {
      for (const path of ['/etc/passwd', join(outside, 'secret.ndjson'), 'link.ndjson', '../' + outside.split('/').pop() + '/secret.ndjson', join(inbox, 'nope.ndjson')]) {
        const res = await post({ PRAUTH_INGEST_DIR: inbox }, { path });
        expect(res.status, path).to.equal(400);
        expect(res.body.error).to.equal('The path must name a file or directory inside the ingest directory (PRAUTH_INGEST_DIR)');
        expect(res.text).to.not.contain('root:');
      }
    });

    it('when no ingest directory is configured, then paths are refused and bodies work', async () => {
      const refused = await post({}, { path: join(inbox, 'tx.ndjson') });
      expect(refused.status).to.equal(400);
      expect(refused.body.error).to.contain('PRAUTH_INGEST_DIR is not set');
      const ok = await post({}, { records: [jurisdiction('TX'), rule({ state: 'TX', program: 'chip', code: 'hepatitis_c' })] });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.include({ added: 2, corpusChanged: true });
    });

    it('when the path is inside the ingest directory, then it is ingested', async () => {
      const res = await post({ PRAUTH_INGEST_DIR: inbox }, { path: 'tx.ndjson' });
      expect(res.status).to.equal(200);
      expect(res.body.added).to.equal(2);
    });

    it('when a file line is not JSON, then the report says where, never what the line was', async () => {
      const bad = mkdtempSync(join(tmpdir(), 'prauth-bad-'));
      writeFileSync(join(bad, 'x.ndjson'), 'root:x:0:0:root:/root:/bin/bash\n');
      const res = await post({ PRAUTH_INGEST_DIR: bad }, { path: 'x.ndjson' });
      expect(res.status).to.equal(200);
      expect(res.body.rejected[0]).to.include({ file: 'x.ndjson', line: 1 });
      expect(res.text).to.not.contain('root');
    });
  });

  it('when a state code is lower case anywhere, then 400 (the spec pattern is ^[A-Z]{2}$)', async () => {
    const t = await makeTestApp(fhirCorpus(), { env: { PUBLIC_BASE_URL: 'https://prauth.test' } });
    const key = await t.key({ compare: true });
    const gets = [
      '/v1/pauth-lookup?state=tx&program=part_d&drug=hepatitis_c',
      '/v1/pa-lookup?state=tx&program=part_d&drug=hepatitis_c',
      '/v1/compare?states=tx,ok&program=part_d&drug=hepatitis_c',
      '/v1/compare-payers?state=tx&drug=hepatitis_c',
      '/v1/action-plan?state=tx&program=part_d&drug=hepatitis_c',
      '/v1/states?state=tx',
      '/v1/lookup-options?state=tx&program=part_d',
      '/v1/dtr/questionnaire/tx/part_d/hepatitis_c',
    ];
    for (const path of gets) {
      const res = await request(t.app.handler).get(path).set('x-api-key', key);
      expect(res.status, path).to.equal(400);
      expectOpenApi(t.app.routes, res);
    }
    const cds = await request(t.app.handler).post('/v1/cds-services/service-coverage-requirements?state=ok').set('x-api-key', key).send(example('crd-2.2-order-sign-hook-request.json'));
    expect(cds.status).to.equal(400);
    const upper = await request(t.app.handler).get('/v1/pauth-lookup?state=TX&program=part_d&drug=hepatitis_c').set('x-api-key', key);
    expect(upper.status).to.equal(200);
  });

  it('when /v1/states gets an empty state parameter, then 400, not the list', async () => {
    const t = await makeTestApp([jurisdiction('TX')]);
    for (const q of ['?state=', '?state=%20']) {
      const res = await request(t.app.handler).get(`/v1/states${q}`);
      expect(res.status, q).to.equal(400);
      expect(res.body.error).to.contain("'state' is empty");
      expectOpenApi(t.app.routes, res);
    }
    expect((await request(t.app.handler).get('/v1/states')).status).to.equal(200);
  });

  it('when a FHIR call is rate limited, then the OperationOutcome carries limit, window and retry-after beside the headers', async () => {
    const t = await makeTestApp(fhirCorpus(), { env: { RATE_LIMITS: 'fhir=1' }, now: () => new Date('2026-11-21T10:59:00.000Z') });
    const key = await t.key();
    await request(t.app.handler).get('/v1/dtr/questionnaire/TX/part_d/hepatitis_c').set('x-api-key', key);
    const res = await request(t.app.handler).get('/v1/dtr/questionnaire/TX/part_d/hepatitis_c').set('x-api-key', key);
    expect(res.status).to.equal(429);
    expect(res.headers['retry-after']).to.equal('60');
    expect(res.headers['content-type']).to.contain('application/fhir+json');
    const ext = (res.body as Any).issue[0].extension.find((e: Any) => e.url === RATE_LIMIT_EXTENSION);
    expect(ext.extension).to.deep.equal([
      { url: 'limit', valueInteger: 1 },
      { url: 'window', valueString: '1h' },
      { url: 'retry_after_seconds', valueInteger: 60 },
    ]);
    expectValidFhir(res.body);
  });

  it('when /v1/pa-lookup answers 401, 403, 429 or 200, then every answer carries Deprecation, Sunset and the successor Link', async () => {
    const t = await makeTestApp([jurisdiction('TX'), rule({ state: 'TX', program: 'chip', code: 'hepatitis_c' })], { env: { RATE_LIMITS: 'lookup=1' } });
    const key = await t.key({ states: ['TX'] });
    const path = '/v1/pa-lookup?state=TX&program=chip&drug=hepatitis_c';
    const answers = [
      await request(t.app.handler).get(path),
      await request(t.app.handler).get(path).set('x-api-key', key),
      await request(t.app.handler).get(path).set('x-api-key', key),
      await request(t.app.handler).get('/v1/pa-lookup?state=CA&program=chip&drug=hepatitis_c').set('x-api-key', await t.key({ states: ['TX'] })),
    ];
    expect(answers.map((r) => r.status)).to.deep.equal([401, 200, 429, 403]);
    for (const r of answers) {
      expect(r.headers.deprecation, String(r.status)).to.match(/^@\d+$/);
      expect(r.headers.sunset).to.equal('Wed, 30 Jun 2027 23:59:59 GMT');
      expect(r.headers.link).to.equal('</v1/pauth-lookup>; rel="successor-version"');
    }
  });
});
