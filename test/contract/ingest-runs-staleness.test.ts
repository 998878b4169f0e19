// Ingest run reports and the no-overlap schedule; the staleness report, its admin endpoint and the manifest ages.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import type { IngestReport } from '../../src/ingest/run-ingest.js';
import { createIngestRuns, describeSource, type IngestRunDoc } from '../../src/services/ingest-runs.js';
import { ageDays, ageSummary } from '../../src/services/staleness.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import { createIngester } from '../../src/services/ingester.js';
import { jurisdiction, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp } from '../support/test-app.js';

const log = pino({ level: 'silent' });

describe('ingest runs', () => {
  it('when two scheduled runs meet, then the second is skipped and recorded; every run leaves a report', async () => {
    const store = await openEmbeddedStore({});
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fake = async (): Promise<IngestReport> => {
      await gate;
      return { files: ['x'], received: 2, added: 1, changed: 0, unchanged: 1, retired: 0, rejected: [], byType: {}, corpusVersion: 7, corpusChanged: true };
    };
    let dispatched = 0;
    const runs = createIngestRuns({ store, now: () => new Date(), log, ingest: fake, afterChange: async () => ++dispatched });
    const first = runs.scheduled('/srv/rules');
    await new Promise((r) => setTimeout(r, 20));
    const second = await runs.scheduled('/srv/rules');
    expect(second.status).to.equal('skipped_overlap');
    // A second instance sharing the store (the same store lock) is refused too.
    const other = createIngestRuns({ store, now: () => new Date(), log, ingest: fake });
    expect((await other.scheduled('/srv/rules')).status).to.equal('skipped_overlap');
    release();
    const done = await first;
    expect(done).to.include({ status: 'ok', added: 1, unchanged: 1, corpus_version: 7, notifications_queued: 1 });
    // The lock is released: the next tick runs.
    expect((await other.scheduled('/srv/rules')).status).to.equal('ok');
    const history = await runs.history(10);
    expect(history.map((h) => h.status).sort()).to.deep.equal(['ok', 'ok', 'skipped_overlap', 'skipped_overlap']);
    await store.close();
  });

  it('when the source is missing, a URL fails, or a process died mid-run, then the report says so', async () => {
    const store = await openEmbeddedStore({});
    const ingest = createIngester(store, undefined, () => new Date());
    const runs = createIngestRuns({ store, now: () => new Date(), log, ingest });
    const missing = await runs.scheduled('/nonexistent/prauth/source');
    expect(missing.status).to.equal('failed');
    expect(missing.error).to.contain('ENOENT');
    const server = createServer((_q, res) => res.writeHead(503).end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x.ndjson?key=abc`;
    const down = await runs.scheduled(url);
    server.close();
    expect(down).to.include({ status: 'failed', error: 'source answered HTTP 503' });
    expect(down.source).to.not.contain('abc');
    expect(describeSource('https://user:pw@example.org/x.ndjson?sig=1')).to.equal('https://example.org/x.ndjson');
    expect(describeSource('ftp-not-url')).to.equal('ftp-not-url');
    const insecure = await runs.scheduled('http://example.org/rules.ndjson');
    expect(insecure).to.include({ status: 'failed', error: 'INGEST_SOURCE URLs must be https (plain http only on loopback)' });

    // A run left 'running' by a dead process is marked interrupted at the next start.
    const dir = mkdtempSync(join(tmpdir(), 'prauth-runs-'));
    writeFileSync(join(dir, 'a.ndjson'), JSON.stringify(jurisdiction('TX')));
    await store.collection<IngestRunDoc>('ingest_runs').insert({ id: 'stale', trigger: 'schedule', source: dir, started_at: new Date().toISOString(), status: 'running' });
    expect(await runs.recover()).to.equal(1);
    expect((await store.collection<{ id: string; status: string }>('ingest_runs').findOne({ id: 'stale' }))!.status).to.equal('interrupted');
    await store.close();
  });
});

describe('staleness', () => {
  it('ages are whole days from last_verified to today (UTC); the median of an even count is the mean of the middle two', () => {
    const now = new Date('2026-11-25T23:59:00Z');
    expect(ageDays('2026-11-25', now)).to.equal(0);
    expect(ageDays('2026-11-18', now)).to.equal(7);
    const rules = ['2026-11-01', '2026-11-20', '2026-11-24', '2026-11-25'].map((d, i) => rule({ state: 'TX', program: 'chip', code: `c${i}`, lastVerified: d }));
    expect(ageSummary(rules, now)).to.deep.equal({ oldest_last_verified: '2026-11-01', oldest_age_days: 24, median_age_days: 3 });
    expect(ageSummary([], now)).to.deep.equal({ oldest_last_verified: null, oldest_age_days: null, median_age_days: null });
  });

  it('when rules were verified long ago, then /v1/admin/staleness lists them by state and program and the manifest reports oldest and median age', async () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const t = await makeTestApp(
      [
        jurisdiction('TX'),
        jurisdiction('CA'),
        rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', lastVerified: '2026-10-01' }),
        rule({ state: 'TX', program: 'medicaid_mco', code: 'biosimilars', lastVerified: '2026-11-24' }),
        rule({ state: 'TX', program: 'chip', code: 'dental', kind: 'service', lastVerified: '2026-11-10' }),
        rule({ state: 'CA', program: 'chip', code: 'dental', kind: 'service', lastVerified: '2026-11-20' }),
        rule({ state: 'CA', program: 'chip', code: 'hospice', kind: 'service', lastVerified: '2026-01-01', status: 'retired' }),
      ],
      { now: () => now },
    );
    const admin = await t.key({ admin: true });
    const res = await request(t.app.handler).get('/v1/admin/staleness').set('x-api-key', admin);
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body).to.deep.include({ as_of: '2026-11-25', threshold_days: 7, verified_rules: 4, stale_rules: 2, oldest_last_verified: '2026-10-01', oldest_age_days: 55, median_age_days: 10 });
    const body = res.body as { groups: { state: string; program: string; stale: number; total: number }[]; rules: { rule_id: string; age_days: number }[] };
    expect(body.groups.map((g) => `${g.state} ${g.program} ${g.stale}/${g.total}`)).to.deep.equal(['TX medicaid_mco 1/2', 'TX chip 1/1']);
    expect(body.rules.map((r) => `${r.rule_id} ${r.age_days}`)).to.deep.equal(['tx.medicaid-mco.d.hepatitis-c 55', 'tx.chip.s.dental 15']);
    const ca = await request(t.app.handler).get('/v1/admin/staleness?days=3&state=CA').set('x-api-key', admin);
    expect(ca.body).to.deep.include({ stale_rules: 1, verified_rules: 1 });
    const bad = await request(t.app.handler).get('/v1/admin/staleness?days=soon').set('x-api-key', admin);
    expect(bad.status).to.equal(400);
    const user = await t.key();
    expect((await request(t.app.handler).get('/v1/admin/staleness').set('x-api-key', user)).status).to.equal(403);

    const manifest = await request(t.app.handler).get('/v1/manifest');
    expectOpenApi(t.app.routes, manifest);
    expect((manifest.body as { dataset: object }).dataset).to.deep.include({ oldest_last_verified: '2026-10-01', oldest_age_days: 55, median_age_days: 10 });
  });

  it('every currency route is in /openapi.json and in the manifest endpoints', async () => {
    const t = await makeTestApp([jurisdiction('TX')]);
    const doc = (await request(t.app.handler).get('/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const manifest = (await request(t.app.handler).get('/v1/manifest')).body as { endpoints: Record<string, string> };
    const described = Object.values(manifest.endpoints).join('\n');
    for (const [method, path] of [
      ['get', '/v1/watch/feed.xml'],
      ['get', '/v1/watch/feed.json'],
      ['post', '/v1/notify-when-ready'],
      ['get', '/v1/notify/unsubscribe'],
      ['get', '/v1/admin/staleness'],
      ['get', '/v1/admin/ingest/history'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).to.not.equal(undefined);
      expect(doc.paths[path]![method]!.responses['200']).to.have.property('content');
      expect(described).to.contain(`${method.toUpperCase()} ${path}`);
    }
  });
});
