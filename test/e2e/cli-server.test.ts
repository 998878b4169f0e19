// The embedded store is single-process: these tests prove the CLI and the server never lose each other's writes.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock } from '../../src/store/embedded/data-dir-lock.js';
import { DRUG_CLASSES, JURISDICTIONS, PROGRAMS } from '../../src/domain/vocabulary.js';
import { jurisdiction, rule } from '../support/docs.js';
import { cli, runServerOnce, startServer, type Spawned } from '../support/spawn.js';

function fixtureDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'prauth-fx-'));
  writeFileSync(join(dir, 'a.ndjson'), [jurisdiction('TX'), rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' })].map((d) => JSON.stringify(d)).join('\n'));
  return dir;
}

describe('end to end: npm start and the prauth CLI on one data directory', function () {
  this.timeout(120_000);
  let env: Record<string, string>;
  let server: Spawned | undefined;

  beforeEach(() => {
    env = { PRAUTH_DATA_DIR: mkdtempSync(join(tmpdir(), 'prauth-data-')), PRAUTH_FIXTURES_DIR: fixtureDir() };
  });
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
  });

  it('when the server runs, then concurrent CLI key writes go through it, all work at once, and survive a restart', async () => {
    server = await startServer(env);
    const created = await Promise.all(Array.from({ length: 5 }, (_, i) => cli(['keys', 'create', '--name', `k${i}`, '--json'], env)));
    for (const c of created) expect(c.code, c.stderr).to.equal(0);
    const keys = created.map((c) => JSON.parse(c.stdout) as { key: string; record: { id: string } });
    const res = await fetch(`${server.url}/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c`, { headers: { 'x-api-key': keys[3]!.key } });
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { result: { source_url: string } }).result.source_url).to.equal('https://medicaid.tx.example.gov/pa/hepatitis_c');

    // A new rule ingested through the CLI is served at once.
    const extra = join(mkdtempSync(join(tmpdir(), 'prauth-x-')), 'more.ndjson');
    writeFileSync(extra, `${JSON.stringify(rule({ state: 'TX', program: 'chip', code: 'dental', kind: 'service' }))}\n`);
    const ingest = await cli(['ingest', extra], env);
    expect(ingest.code, ingest.stderr).to.equal(0);
    expect(ingest.stdout).to.contain('added: 1');
    const dental = await fetch(`${server.url}/v1/pauth-lookup?state=TX&program=chip&service=dental`, { headers: { 'x-api-key': keys[0]!.key } });
    expect(dental.status).to.equal(200);

    // Revocation through the CLI is immediate on the server.
    expect((await cli(['keys', 'revoke', keys[1]!.record.id], env)).code).to.equal(0);
    const revoked = await fetch(`${server.url}/v1/pauth-lookup?state=TX&program=chip&service=dental`, { headers: { 'x-api-key': keys[1]!.key } });
    expect(revoked.status).to.equal(401);

    expect(await server.stop('SIGTERM')).to.equal(0);
    server = undefined;
    // Server gone: the CLI opens the store itself and sees every write.
    const list = await cli(['keys', 'list', '--json'], env);
    expect(list.code, list.stderr).to.equal(0);
    const listed = JSON.parse(list.stdout) as { name: string; revokedAt: string | null }[];
    expect(listed.map((k) => k.name).sort()).to.deep.equal(['k0', 'k1', 'k2', 'k3', 'k4']);
    expect(listed.filter((k) => k.revokedAt).length).to.equal(1);
    expect(list.stdout).to.not.contain(keys[0]!.key);

    server = await startServer(env);
    const again = await fetch(`${server.url}/v1/pauth-lookup?state=TX&program=chip&service=dental`, { headers: { 'x-api-key': keys[4]!.key } });
    expect(again.status).to.equal(200);
  });

  it('when the CLI holds the data directory, then a starting server refuses with a clear message instead of sharing the files', async () => {
    mkdirSync(env.PRAUTH_DATA_DIR!, { recursive: true });
    const lock = acquireLock(env.PRAUTH_DATA_DIR!, 'cli');
    try {
      const r = await runServerOnce(env);
      expect(r.code).to.equal(1);
      expect(r.output).to.match(/data directory is in use by a cli \(pid \d+\)/);
    } finally {
      lock.release();
    }
  });

  it('when the server was killed without cleanup, then the stale lock does not block the CLI', async () => {
    server = await startServer(env);
    await server.stop('SIGKILL');
    server = undefined;
    const r = await cli(['keys', 'create', '--name', 'after-crash'], env);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.match(/^[0-9a-f-]{36}$/);
  });

  it('when the CLI ingests a whole corpus through the server (more values than any other body may hold), then it is applied', async () => {
    server = await startServer(env);
    // Every state x program x drug class: past the 200,000 values every other JSON body is held to, as the bundled
    // corpus is (its evidence lists alone pass that count).
    const many = JURISDICTIONS.flatMap((st) => PROGRAMS.flatMap((program) => DRUG_CLASSES.map((code) => rule({ state: st, program, code }))));
    const values = (v: unknown): number => (Array.isArray(v) ? v.length + v.reduce((n: number, x) => n + (typeof x === 'object' && x ? values(x) - 1 : 0), 0)
      : typeof v === 'object' && v ? Object.values(v).reduce((n: number, x) => n + 1 + (typeof x === 'object' && x ? values(x) - 1 : 0), 1) : 1);
    expect(values({ records: many })).to.be.greaterThan(200_000);
    const bulk = join(mkdtempSync(join(tmpdir(), 'prauth-bulk-')), 'bulk.ndjson');
    writeFileSync(bulk, `${many.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const ingest = await cli(['ingest', bulk], env);
    expect(ingest.code, ingest.stderr).to.equal(0);
    expect(ingest.stdout).to.contain(`added: ${many.length - 1}`); // TX/medicaid_mco/hepatitis_c was loaded at start
    expect(ingest.stderr).not.to.contain('values');
  });

  it('when ingest input has bad records, then the CLI prints file:line reasons and exits non-zero', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prauth-bad-'));
    writeFileSync(join(dir, 'bad.ndjson'), `${JSON.stringify(jurisdiction('CA'))}\n{"resourceType":"CoverageRule"}\n`);
    const r = await cli(['ingest', dir], env);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/rejected bad\.ndjson:2: \(root\) must have required property 'id'/);
    expect(r.stdout).to.contain('added: 1');
  });
});
