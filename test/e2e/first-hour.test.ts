// The first hour of a new user and operator: each message the issue names, tested as a user meets it.
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { renderIngestDoc, MINIMAL_RECORDS } from '../../src/ingest/ingest-doc.js';
import { validateDocument } from '../../src/ingest/validate.js';
import { cli, runServerOnce, startServer, type Spawned } from '../support/spawn.js';

const freshDir = () => join(mkdtempSync(join(tmpdir(), 'prauth-first-')), 'data');

describe('first hour: CLI and server messages', function () {
  this.timeout(60_000);
  let server: Spawned | undefined;
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
  });

  it('prauth --version prints the package version; --help names the settings it reads', async () => {
    const v = await cli(['--version'], {});
    expect(v.stdout.trim()).to.equal(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    const h = await cli(['--help'], {});
    for (const s of ['PRAUTH_DATA_DIR', 'MONGODB_URI', 'schema', 'docs/ingest.md']) expect(h.stdout).to.include(s);
  });

  it('a port already in use is reported before any data directory is created', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    const dir = freshDir();
    const out = await runServerOnce({ PORT: String(port), PRAUTH_DATA_DIR: dir });
    blocker.close();
    expect(out.code).to.equal(1);
    expect(out.output).to.include(`port ${port} is already in use`);
    expect(existsSync(dir), 'the data directory must not be created').to.equal(false);
  });

  it('a MongoDB server that accepts connections but never answers fails the start, saying which step waited', async () => {
    // A real TCP endpoint that takes connections and answers nothing (as a wedged server behaves to a client).
    const sockets: import('node:net').Socket[] = [];
    const silent = (await import('node:net')).createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as AddressInfo).port;
    const t0 = Date.now();
    const out = await runServerOnce({ MONGODB_URI: `mongodb://127.0.0.1:${port}/?directConnection=true`, STORE_OPEN_TIMEOUT_SECONDS: '1', PRAUTH_LOAD_SAMPLE: 'false' });
    for (const s of sockets) s.destroy();
    silent.close();
    expect(out.code, out.output).to.equal(1);
    expect(out.output).to.include('prauth failed to start: the store did not answer within 1 s while opening the store (connect and index creation)');
    expect(Date.now() - t0, 'failed at the deadline, not at the 10 s kill').to.be.below(8_000);
  });

  it('a write says which store it went to; a new data directory and a server on another one are warned about', async () => {
    const serverDir = freshDir();
    server = await startServer({ PRAUTH_DATA_DIR: serverDir, PRAUTH_LOAD_SAMPLE: 'false' });
    const through = await cli(['keys', 'create', '--name', 'a'], { PRAUTH_DATA_DIR: serverDir });
    expect(through.code).to.equal(0);
    expect(through.stderr).to.include(`wrote to the embedded store in ${serverDir} (through the server pid ${server.child.pid}`);
    // A server runs on this directory: no other server on this machine (another test's, an operator's) is named.
    expect(through.stderr).to.not.include('is running on the data directory');
    const elsewhere = freshDir();
    const lost = await cli(['keys', 'create', '--name', 'b'], { PRAUTH_DATA_DIR: elsewhere });
    expect(lost.code).to.equal(0);
    expect(lost.stderr).to.include(`warning: a server (pid ${server.child.pid}`);
    expect(lost.stderr).to.include(`is running on the data directory ${serverDir}, but this command uses ${elsewhere}; set PRAUTH_DATA_DIR=${serverDir}`);
    expect(lost.stderr).to.include(`warning: ${elsewhere} does not exist yet`);
    expect(lost.stderr).to.include(`wrote to the embedded store in ${elsewhere} (no server running on it)`);
  });

  it('revoking twice says so; a missing ingest file is named in the CLI\'s own words', async () => {
    const env = { PRAUTH_DATA_DIR: freshDir() };
    const created = await cli(['keys', 'create', '--json'], env);
    const id = JSON.parse(created.stdout).record.id as string;
    const first = await cli(['keys', 'revoke', id], env);
    expect(first.stdout.trim()).to.equal(`revoked ${id}`);
    await new Promise((r) => setTimeout(r, 1100));
    const second = await cli(['keys', 'revoke', id], env);
    expect(second.code).to.equal(0);
    expect(second.stdout).to.match(new RegExp(`^${id} was already revoked at \\d{4}-\\d{2}-\\d{2}T.*; nothing changed`));
    const missing = await cli(['ingest', '/nonexistent/rules.ndjson'], env);
    expect(missing.code).to.equal(1);
    expect(missing.stderr.trim()).to.equal('prauth: /nonexistent/rules.ndjson: no such file or directory (give an NDJSON or JSON file, or a directory of them; format: docs/ingest.md)');
  });

  it('prauth corpus coverage on a store that holds no corpus says so (not "0 verified"); after an ingest it counts', async () => {
    const env = { PRAUTH_DATA_DIR: freshDir() };
    const empty = await cli(['corpus', 'coverage'], env);
    expect(empty.code).to.equal(1);
    expect(empty.stdout).to.equal('');
    expect(empty.stderr).to.contain('prauth: this store holds no corpus yet; `npm start` loads the bundled corpus on its first start, or run `prauth ingest fixtures`');
    const ingested = await cli(['ingest', 'fixtures'], env);
    expect(ingested.code).to.equal(0);
    const counted = await cli(['corpus', 'coverage', '--json'], env);
    expect(counted.code).to.equal(0);
    const expected = JSON.parse(readFileSync('fixtures/coverage.json', 'utf8')) as { verified: number };
    expect(JSON.parse(counted.stdout).verified).to.equal(expected.verified).and.to.be.greaterThan(0);
  });

  it('a store that loaded an older bundled corpus says so at start, with the command that loads the new one', async () => {
    const fixtures = mkdtempSync(join(tmpdir(), 'prauth-fixtures-'));
    writeFileSync(join(fixtures, 'records.ndjson'), `${Object.values(MINIMAL_RECORDS).map((r) => JSON.stringify(r)).join('\n')}\n`);
    writeFileSync(join(fixtures, 'coverage.json'), JSON.stringify({ verified: 4242 }));
    const env = { PRAUTH_DATA_DIR: freshDir(), PRAUTH_FIXTURES_DIR: fixtures, LOG_LEVEL: 'info' };
    server = await startServer(env);
    expect(server.output()).to.match(/\(embedded store, 1 program-level rules served/);
    expect(server.output(), 'a first start loads the bundle: nothing to compare').not.to.include('the bundled corpus has');
    await server.stop();
    server = await startServer(env);
    const served = /(\d+) of them verified/.exec(server.output())![1];
    expect(server.output()).to.include(`this store serves ${served} verified rules; the bundled corpus has 4242 (the store keeps the corpus it loaded first): npx prauth ingest ${fixtures} loads it`);
    await server.stop();
    writeFileSync(join(fixtures, 'coverage.json'), JSON.stringify({ verified: Number(served) }));
    server = await startServer(env);
    expect(server.output(), 'the same count: no notice').not.to.include('the bundled corpus has');
  });

  it('curl -X POST /v1/demo-sessions with no body is accepted; a body of another type is still a 415', async () => {
    server = await startServer({ PRAUTH_DATA_DIR: freshDir(), PRAUTH_LOAD_SAMPLE: 'false' });
    const none = await fetch(`${server.url}/v1/demo-sessions`, { method: 'POST' });
    expect(none.status).to.equal(201);
    expect(((await none.json()) as { header: string }).header).to.equal('x-demo-session');
    const xml = await fetch(`${server.url}/v1/demo-sessions`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<a/>' });
    expect(xml.status).to.equal(415);
  });

  it('prauth schema prints each kind\'s schema and a minimal record; unknown kinds are named', async () => {
    const list = await cli(['schema'], {});
    expect(list.stdout).to.include('CoverageRule').and.include('rules.ndjson');
    const rules = await cli(['schema', 'rules'], {});
    expect(JSON.parse(rules.stdout).$id).to.equal('CoverageRule');
    const ex = await cli(['schema', 'Payer', '--example'], {});
    expect(validateDocument(JSON.parse(ex.stdout)).ok).to.equal(true);
    const bad = await cli(['schema', 'widgets'], {});
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.include("'widgets' is not a record kind");
  });
});

describe('docs/ingest.md', () => {
  it('is what the schemas generate (run `npm run docs:ingest` after changing a schema)', () => {
    expect(readFileSync(new URL('../../docs/ingest.md', import.meta.url), 'utf8')).to.equal(renderIngestDoc());
  });
  it('its minimal record of every kind passes the ingest validation', () => {
    for (const [kind, rec] of Object.entries(MINIMAL_RECORDS)) {
      const r = validateDocument(rec);
      expect(r.ok, `${kind}: ${r.ok ? '' : r.reason}`).to.equal(true);
    }
  });
});
