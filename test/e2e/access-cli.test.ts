// The 401/403/429 paths of spec section 4, driven against the real server with keys the CLI issued.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jurisdiction, rule } from '../support/docs.js';
import { cli, startServer, type Spawned } from '../support/spawn.js';

describe('end to end: access control with CLI-issued keys', function () {
  this.timeout(60_000);
  let server: Spawned;
  let env: Record<string, string>;
  before(async () => {
    const fx = mkdtempSync(join(tmpdir(), 'prauth-fx-'));
    writeFileSync(
      join(fx, 'a.ndjson'),
      [jurisdiction('TX'), jurisdiction('CA'), rule({ state: 'TX', program: 'chip', code: 'hepatitis_c' }), rule({ state: 'CA', program: 'chip', code: 'hepatitis_c' })]
        .map((d) => JSON.stringify(d))
        .join('\n'),
    );
    env = { PRAUTH_DATA_DIR: mkdtempSync(join(tmpdir(), 'prauth-data-')), PRAUTH_FIXTURES_DIR: fx, RATE_LIMITS: 'lookup=5', USAGE_FLUSH_SECONDS: '1' };
    server = await startServer(env);
  });
  after(async () => {
    await server.stop();
  });

  const lookup = (state: string, key?: string) =>
    fetch(`${server.url}/v1/pauth-lookup?state=${state}&program=chip&drug=hepatitis_c`, { headers: key ? { 'x-api-key': key } : {} });

  it('when keys come from the CLI, then missing/revoked give 401, out-of-scope 403, over-limit 429, and usage counts the admitted calls', async () => {
    const made = await cli(['keys', 'create', '--name', 'tx-only', '--states', 'TX', '--programs', 'chip', '--json'], env);
    expect(made.code, made.stderr).to.equal(0);
    const { key, record } = JSON.parse(made.stdout) as { key: string; record: { id: string } };

    expect((await lookup('TX')).status).to.equal(401);
    const outOfScope = await lookup('CA', key);
    expect(outOfScope.status).to.equal(403);
    expect(((await outOfScope.json()) as { error: string }).error).to.equal("State CA not in this key's subscription");

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await lookup('TX', key)).status);
    // The 403 above used one unit of the hourly budget: scope is checked after the limiter.
    expect(statuses).to.deep.equal([200, 200, 200, 200, 429, 429]);
    const limited = await lookup('TX', key);
    const body = (await limited.json()) as { retry_after_seconds: number; limit: number; window: string };
    expect(limited.status).to.equal(429);
    expect(body.limit).to.equal(5);
    expect(body.window).to.equal('1h');
    expect(String(body.retry_after_seconds)).to.equal(limited.headers.get('retry-after'));
    expect(body.retry_after_seconds).to.be.within(1, 3600);

    await new Promise((r) => setTimeout(r, 1200)); // one usage flush
    const usage = await cli(['keys', 'usage', record.id, '--json'], env);
    expect(usage.code, usage.stderr).to.equal(0);
    const report = JSON.parse(usage.stdout) as { months: { calls: number; overage: number }[] };
    expect(report.months[0]).to.include({ calls: 5, overage: 0 });

    const compareKey = JSON.parse((await cli(['keys', 'create', '--groups', 'compare', '--json'], env)).stdout) as { key: string };
    const wrongGroup = await lookup('TX', compareKey.key);
    expect(wrongGroup.status).to.equal(403);

    expect((await cli(['keys', 'revoke', record.id], env)).code).to.equal(0);
    const revoked = await lookup('TX', key);
    expect(revoked.status).to.equal(401);
    expect(revoked.headers.get('cache-control')).to.equal('no-store');
  });
});
