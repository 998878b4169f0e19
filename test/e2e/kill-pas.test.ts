// Issue 25: PAS submissions are written with group commit (fsync off the event loop, shared by concurrent writes)
// and their Bundles stored as JSON text. Cycles of: start the real service on the embedded store, send new
// submissions on 20 connections, kill -9 at a random moment. Then every submission that was answered 200 is in
// the store with its request Bundle whole.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { submitBody } from '../../bench/pas-submit.js';
import { COLLECTIONS } from '../../src/store/collections.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import type { Keyed } from '../../src/store/port.js';
import { cli, startServer } from '../support/spawn.js';

const CYCLES = 6;
const CONNECTIONS = 20;

describe(`crash safety: ${CYCLES} kill -9 cycles during PAS submissions (embedded store)`, function () {
  this.timeout(300_000);

  it('when the service is killed while submissions are being answered, then every acknowledged submission is stored whole', async function () {
    if (process.env.MONGODB_URI) this.skip(); // the embedded store's group commit is what is under test
    const dataDir = mkdtempSync(join(tmpdir(), 'prauth-kill-pas-'));
    const env = { PRAUTH_DATA_DIR: dataDir, SERVE_SAMPLE_RULES: 'true' };
    const made = await cli(['keys', 'create', '--name', 'ops', '--admin', '--json'], env);
    expect(made.code, made.stderr).to.equal(0);
    const key = (JSON.parse(made.stdout) as { key: string }).key;
    const template = JSON.stringify(submitBody('§'));

    const acked: string[] = [];
    let sent = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = await startServer(env, 60_000);
      for (let i = 0; i < 300 && (await fetch(`${server.url}/healthz`).then((r) => r.status, () => 0)) !== 200; i++) await new Promise((r) => setTimeout(r, 100));
      let stopping = false;
      const submitter = async (): Promise<void> => {
        while (!stopping) {
          const id = `kill-${cycle}-${sent++}`;
          const r = await fetch(`${server.url}/v1/Claim/$submit`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/fhir+json' }, body: template.replaceAll('§', id) }).catch(() => undefined);
          if (r?.status === 200) acked.push(`bench-${id}`);
        }
      };
      const load = Promise.all(Array.from({ length: CONNECTIONS }, submitter));
      await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 700)));
      stopping = true;
      await server.stop('SIGKILL');
      await load;
    }

    const store = await openEmbeddedStore({ dataDir });
    try {
      const docs = await store.collection<Keyed & { request: { identifier?: { value?: string }; entry?: unknown[] } }>(COLLECTIONS.pasSubmissions).find({});
      const stored = new Map(docs.map((d) => [d.request.identifier?.value, d]));
      expect(acked.length, 'no submission was acknowledged').to.be.greaterThan(CYCLES);
      for (const id of acked) {
        expect(stored.has(id), `acknowledged submission ${id} was lost`).to.equal(true);
        expect(stored.get(id)!.request.entry?.length, `${id} is stored whole`).to.equal(submitBody('x').entry.length);
      }
      console.log(`      ${CYCLES} cycles: ${sent} submissions sent, ${acked.length} acknowledged, ${docs.length} stored`);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true }); // a corpus copy and thousands of submissions: never left behind
    }
  });
});
