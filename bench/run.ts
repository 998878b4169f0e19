// npm run bench: the service and a bare node:http server answering the same lookup bytes, loaded with
// autocannon in one run, one after the other, on loopback only; prints req/s, p50/p99 and the ratio.
// Also cold start to first served lookup, and the compare endpoint over 10 states when it is served.
import { measure, type Row } from './options.js';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSubmit } from './pas-submit.js';
import { benchCrdOrderSign, CRD_P99_TARGET_MS } from './crd-order-sign.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Proc {
  url: string;
  stop(): Promise<void>;
}

function start(cmd: string[], env: Record<string, string>): Promise<Proc & { startedMs: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, cmd, { cwd: root, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({
          url: `http://127.0.0.1:${m[1]}`,
          startedMs: performance.now() - t0,
          stop: () => new Promise((r) => {
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

const load = (url: string, headers: Record<string, string>, title: string): Promise<Row> =>
  measure(title, { url, connections: CONNECTIONS, duration: DURATION, headers, pipelining: 1 });

async function timeToFirstLookup(env: Record<string, string>, path: string, key?: string): Promise<number> {
  const t0 = performance.now();
  const p = await start(['dist/src/main.js'], { ...env, LOG_LEVEL: 'warn' });
  for (;;) {
    const res = await fetch(`${p.url}${path}`, { headers: key ? { 'x-api-key': key } : {} }).catch(() => undefined);
    if (res?.status === 200) break;
  }
  const ms = performance.now() - t0;
  await p.stop();
  return ms;
}

function cliKey(env: Record<string, string>, args: string[] = []): string {
  return execFileSync(process.execPath, ['bin/prauth.mjs', 'keys', 'create', '--name', 'bench', ...args], { cwd: root, env: { ...process.env, ...env } }).toString().trim();
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'prauth-bench-'));
  mkdirSync(dataDir, { recursive: true });
  const env = { PRAUTH_DATA_DIR: dataDir };
  const lookupPath = '/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c';

  const firstStartMs = await timeToFirstLookup(env, '/v1/manifest'); // first start loads the sample corpus
  const key = cliKey(env, ['--admin']); // admin: the bench measures the service, not the rate limiter
  const limitedKey = cliKey(env, ['--compare']);
  const coldStartMs = await timeToFirstLookup(env, lookupPath, key);

  // The machine is shared and noisy: service and bare runs alternate for ROUNDS rounds and the ratio is taken
  // from the medians of the same run.
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
  // A high limit for the metered key, so its run measures the cost of scope + limit checks, not 429s.
  const serviceEnv = { ...env, LOG_LEVEL: 'info', RATE_LIMITS: 'lookup=999999999,compare=999999999,ask=999999999,explore=999999999' };
  const probe = await start(['dist/src/main.js'], serviceEnv);
  const body = await (await fetch(`${probe.url}${lookupPath}`, { headers: { 'x-api-key': key } })).text();
  await probe.stop();
  const bare = await start(['bench/bare-server.mjs'], { BARE_BODY: body });
  const service = await start(['dist/src/main.js'], serviceEnv);
  const headers = { 'x-api-key': key };
  const svcRuns = [];
  const bareRuns = [];
  for (let i = 0; i < ROUNDS; i++) {
    svcRuns.push(await load(`${service.url}${lookupPath}`, headers, 'service /v1/pauth-lookup (admin key)'));
    bareRuns.push(await load(`${bare.url}/`, {}, 'bare node:http, same bytes'));
  }
  const median = <T extends { rps: number }>(runs: T[]): T => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;
  const rows = [median(svcRuns)];
  rows.push(await load(`${service.url}${lookupPath}`, { 'x-api-key': limitedKey }, 'service /v1/pauth-lookup (metered key: scope + limits + usage)'));
  const compareStates = 'TX,CA,NY,FL,OH,PA,IL,GA,NC,WA';
  const compareUrl = `${service.url}/v1/compare?states=${compareStates}&program=medicaid_mco&drug=glp1_weight_loss`;
  if ((await fetch(compareUrl, { headers })).status === 200) {
    rows.push(await load(compareUrl, headers, `service /v1/compare (10 states, ${CONNECTIONS} connections)`));
    rows.push(await measure('service /v1/compare (10 states, 10 connections)', { url: compareUrl, connections: 10, duration: DURATION, headers }));
  }
  // Free-text ask and similar rules at 20 connections (p99 target 20 ms).
  const askBody = JSON.stringify({ question: 'Does Texas Medicaid managed care require prior auth for Epclusa?' });
  const askRun = (base: string) => ({ url: `${base}/v1/ask`, method: 'POST' as const, body: askBody, connections: 20, duration: DURATION, headers: { ...headers, 'content-type': 'application/json' } });
  const similarRun = (base: string) => ({ url: `${base}/v1/rules/similar?rule_id=tx.medicaid-mco.d.hepatitis-c`, connections: 20, duration: DURATION, headers });
  rows.push(await measure('service POST /v1/ask (20 connections)', askRun(service.url)));
  rows.push(await measure('service GET /v1/rules/similar (20 connections)', similarRun(service.url)));
  // PAS $submit at 20 connections: every call a new stored submission, then one Bundle resubmitted.
  rows.push(...(await benchSubmit(service.url, key, DURATION, 20)));
  rows.push(await benchCrdOrderSign(service.url, key, CONNECTIONS, DURATION));
  await service.stop();
  await bare.stop();
  rows.push(median(bareRuns));

  // The rows with a p99 target, each again on a service of its own (started, warmed up at the row's connections,
  // then measured): the route in steady state, without the old-generation garbage the rows above leave behind.
  const targets: (Row & { target: number })[] = [];
  const own = async (title: string, run: (url: string) => Promise<Row>, target: number) => {
    const s = await start(['dist/src/main.js'], serviceEnv);
    try {
      targets.push({ ...(await run(s.url)), title, target });
    } finally {
      await s.stop();
    }
  };
  await own('POST /v1/ask (20 connections)', (u) => measure('', askRun(u)), 20);
  await own('GET /v1/rules/similar (20 connections)', (u) => measure('', similarRun(u)), 20);
  await own(`CRD order-sign, 3 draft orders (${CONNECTIONS} connections)`, (u) => benchCrdOrderSign(u, key, CONNECTIONS, DURATION), CRD_P99_TARGET_MS);

  const svc = rows[0]!;
  const base = rows[rows.length - 1]!;
  const result = {
    at: new Date().toISOString(),
    connections: CONNECTIONS,
    seconds: DURATION,
    rounds: ROUNDS,
    rows,
    service_rounds_rps: svcRuns.map((r) => r.rps),
    bare_rounds_rps: bareRuns.map((r) => r.rps),
    ratio_service_over_bare: Math.round((svc.rps / base.rps) * 100) / 100,
    cold_start_to_first_lookup_ms: Math.round(coldStartMs),
    first_start_with_sample_load_ms: Math.round(firstStartMs),
    targets,
  };
  console.log('\n| run | req/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.title} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
  console.log(`\nservice rounds req/s: ${result.service_rounds_rps.join(', ')}; bare rounds req/s: ${result.bare_rounds_rps.join(', ')}`);
  console.log(`ratio service/bare (lookup, medians of ${ROUNDS} alternating rounds): ${result.ratio_service_over_bare}`);
  console.log(`cold start to first served lookup: ${result.cold_start_to_first_lookup_ms} ms (first start incl. sample load: ${result.first_start_with_sample_load_ms} ms)`);
  console.log('\np99 targets, each route on a service of its own after a warm-up:\n\n| run | req/s | p50 ms | p99 ms | p99 target ms | met |\n|---|---|---|---|---|---|');
  for (const r of targets) console.log(`| ${r.title} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.target} | ${r.p99 <= r.target && r.non2xx === 0 ? 'yes' : 'no'} |`);
  mkdirSync(join(root, '.bench'), { recursive: true });
  writeFileSync(join(root, '.bench', 'last.json'), JSON.stringify(result, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
