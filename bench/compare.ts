// Compare over 10 states through real HTTP (autocannon against a server on port 0), with the target from the
// issue: p99 under 5 ms. The corpus is synthetic but shaped like the sample: one program-level rule per state
// for the subject (a few gaps), across all 51 jurisdictions.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { JURISDICTIONS } from '../src/domain/vocabulary.js';
import { jurisdiction, rule } from '../test/support/docs.js';
import { makeTestApp } from '../test/support/test-app.js';

export interface BenchResult {
  name: string;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  targetP99Ms: number;
  ok: boolean;
}

export async function benchCompare(durationSeconds = 5): Promise<BenchResult> {
  const docs = [
    ...JURISDICTIONS.map((s) => jurisdiction(s)),
    ...JURISDICTIONS.filter((_, i) => i % 7 !== 3).map((s, i) =>
      rule({ state: s, program: 'medicaid_mco', code: 'glp1_weight_loss', paRequired: i % 4 !== 0, paType: i % 5 === 0 ? 'step_therapy' : undefined }),
    ),
  ];
  const t = await makeTestApp(docs);
  const key = await t.key({ name: 'bench', compare: true });
  const server: Server = createServer(t.app.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const path = '/v1/compare?states=TX,CA,NY,FL,OH,PA,IL,GA,NC,MI&program=medicaid_mco&drug=glp1_weight_loss';
  try {
    const warm = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-api-key': key } });
    if (warm.status !== 200) throw new Error(`compare answered ${warm.status}: ${await warm.text()}`);
    const r = await autocannon({
      url: `http://127.0.0.1:${port}${path}`,
      headers: { 'x-api-key': key },
      connections: 4,
      duration: durationSeconds,
    });
    const targetP99Ms = 5;
    return {
      name: 'GET /v1/compare (10 states)',
      requests: r.requests.total,
      p50: r.latency.p50,
      p99: r.latency.p99,
      max: r.latency.max,
      errors: r.errors,
      non2xx: r.non2xx,
      targetP99Ms,
      ok: r.latency.p99 < targetP99Ms && r.errors === 0 && r.non2xx === 0,
    };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.deps.store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchCompare();
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  process.exitCode = r.ok ? 0 : 1;
}
