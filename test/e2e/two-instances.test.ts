// Two service processes on one MongoDB-compatible database (CI: FerretDB 1.x; scripts/ci/ferretdb.sh): a key created
// on one works on the other, an ingest on one is served by the other, a revocation reaches both, and the rate-limit
// counters are shared. Runs when MONGODB_URI is set.
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { jurisdiction, rule } from '../support/docs.js';
import { cli, startServer, type Spawned } from '../support/spawn.js';

const uri = process.env.MONGODB_URI;

describe('end to end: two instances on one MongoDB-compatible database (needs MONGODB_URI)', function () {
  this.timeout(120_000);
  let a: Spawned;
  let b: Spawned;
  let env: Record<string, string>;
  const dbName = `prauth_two_${process.pid}_${Date.now()}`;

  before(async function () {
    if (!uri) this.skip();
    env = {
      MONGODB_URI: uri!,
      MONGODB_DB: dbName,
      PRAUTH_LOAD_SAMPLE: 'false',
      CORPUS_POLL_SECONDS: '1',
      KEY_CACHE_SECONDS: '1',
      RATE_LIMITS: 'lookup=10',
      USAGE_FLUSH_SECONDS: '1',
    };
    [a, b] = await Promise.all([startServer(env, 60_000), startServer(env, 60_000)]);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    if (uri) {
      const c = new MongoClient(uri);
      await c.db(dbName).dropDatabase().catch(() => undefined);
      await c.close();
    }
  });

  const get = (s: Spawned, path: string, key: string) => fetch(`${s.url}${path}`, { headers: { 'x-api-key': key } });
  const post = (s: Spawned, path: string, key: string, body: unknown) =>
    fetch(`${s.url}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const LOOKUP = '/v1/pauth-lookup?state=TX&program=chip&drug=hepatitis_c';

  async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('when a key is created on A, then B accepts it; an ingest on A is served by B; a revocation on B reaches A', async () => {
    const made = await cli(['keys', 'create', '--name', 'ops', '--admin', '--json'], env);
    expect(made.code, made.stderr).to.equal(0);
    const admin = (JSON.parse(made.stdout) as { key: string }).key;

    const created = await post(a, '/v1/admin/keys', admin, { name: 'partner', states: ['TX'] });
    expect(created.status).to.equal(201);
    const { key, record } = (await created.json()) as { key: string; record: { id: string } };

    // Before any ingest B answers the key with a scope gap (not a 401): the key created on A is known to B.
    const gap = await get(b, LOOKUP, key);
    expect(gap.status).to.equal(404);
    expect(((await gap.json()) as { code: string }).code).to.equal('scope_gap');

    const ingested = await post(a, '/v1/admin/ingest', admin, { records: [jurisdiction('TX'), rule({ state: 'TX', program: 'chip', code: 'hepatitis_c' })] });
    expect(ingested.status).to.equal(200);
    expect(((await ingested.json()) as { added: number }).added).to.equal(2);
    const served = await until('B to serve the ingested rule', async () => {
      const r = await get(b, LOOKUP, key);
      return r.status === 200 ? ((await r.json()) as { result: { rule_id: string } }) : undefined;
    });
    expect(served.result.rule_id).to.equal('tx.chip.d.hepatitis-c');

    const revoked = await post(b, `/v1/admin/keys/${record.id}/revoke`, admin, {});
    expect(revoked.status).to.equal(200);
    await until('A to refuse the revoked key', async () => ((await get(a, LOOKUP, key)).status === 401 ? true : undefined), 5000);
  });

  it('when one key calls both instances, then they count against one shared limit', async () => {
    const made = await cli(['keys', 'create', '--name', 'limited', '--json'], env);
    const { key } = JSON.parse(made.stdout) as { key: string };
    const statuses: number[] = [];
    // Alternate A and B: 14 calls against a limit of 10 per hour leave exactly 4 refused, wherever they land.
    for (let i = 0; i < 14; i++) statuses.push((await get(i % 2 ? b : a, LOOKUP, key)).status);
    expect(statuses.filter((s) => s === 429)).to.have.length(4);
    expect(statuses.slice(0, 10).every((s) => s !== 429)).to.equal(true);
    const refused = await get(a, LOOKUP, key);
    const body = (await refused.json()) as { limit: number; window: string };
    expect(body).to.include({ limit: 10, window: '1h' });
  });
});
