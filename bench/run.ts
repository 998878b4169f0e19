// npm run bench: the service on the sample corpus (embedded store), loaded with autocannon on loopback. The rows of
// issue #25 (lookup, CRD order-sign, PAS $submit) each against a bare node:http twin doing the same I/O, with CPU
// per request (./twins.ts); start times (node alone, and `npm start` on an existing data directory); resident memory
// after start and after 10k requests; then the other routes. Results go to .bench/last.json.
import { measure, type Row } from './options.js';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchSubmit } from './pas-submit.js';
import { benchCrdOrderSign, CRD_P99_TARGET_MS } from './crd-order-sign.js';
import { lockFree, root, rssMb, start as startProc, type Proc } from './procs.js';
import { crdBodies, pasBodies, startBareTwin, twinRows, twinTable, type TwinRoute } from './twins.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** BENCH_TWINS_ONLY=1: the issue #25 rows, start and memory only. */
const TWINS_ONLY = process.env.BENCH_TWINS_ONLY === '1';

/** Starts a process once the data directory (when it has one) is free. */
async function start(cmd: string[], env: Record<string, string>): Promise<Proc> {
  if (env.PRAUTH_DATA_DIR) await lockFree(env.PRAUTH_DATA_DIR);
  return startProc(cmd, env);
}

const step = (what: string): void => void process.stderr.write(`bench: ${what}\n`);

/** From spawning `cmd` until `path` answers 200. */
async function timeToFirstAnswer(cmd: string[], env: Record<string, string>, path: string, key?: string): Promise<number> {
  const t0 = performance.now();
  const p = await start(cmd, { ...env, LOG_LEVEL: 'warn' });
  for (;;) {
    const res = await fetch(`${p.url}${path}`, { headers: key ? { 'x-api-key': key } : {} }).catch(() => undefined);
    if (res?.status === 200) break;
  }
  const ms = performance.now() - t0;
  await p.stop();
  return Math.round(ms);
}

function cliKey(env: Record<string, string>, args: string[] = []): string {
  return execFileSync(process.execPath, ['bin/prauth.mjs', 'keys', 'create', '--name', 'bench', ...args], { cwd: root, env: { ...process.env, ...env } }).toString().trim();
}

/** Resident memory of a fresh service after its first answer, and after 10k requests (8k lookups, 1k CRD, 1k PAS). */
async function memory(env: Record<string, string>, routes: readonly TwinRoute[]): Promise<{ after_start_mb: number; after_10k_requests_mb: number }> {
  const s = await start(['dist/src/main.js'], env);
  try {
    const [lookup, crd, pas] = routes;
    await fetch(`${s.url}${lookup!.path}`, { headers: lookup!.headers });
    const afterStart = rssMb(s.pid);
    let i = 0;
    const requests = (r: TwinRoute, amount: number) => autocannon({ url: `${s.url}${r.path}`, method: r.method, headers: r.headers, connections: 10, amount, ...(r.body ? { requests: [{ setupRequest: (req: object) => ({ ...req, body: r.body!(1e9 + i++) }) }] } : {}) });
    await Promise.all([requests(lookup!, 8000), requests(crd!, 1000), requests(pas!, 1000)]);
    return { after_start_mb: afterStart, after_10k_requests_mb: rssMb(s.pid) };
  } finally {
    await s.stop();
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'prauth-bench-'));
  try {
    await runAll(dataDir);
  } finally {
    // Each run's data directories hold a copy of the corpus (hundreds of MB): never left behind.
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}-npm`, { recursive: true, force: true });
  }
}

async function runAll(dataDir: string): Promise<void> {
  // The sample rules served too: the routes answer as they do for a covered request (verified coverage is partial).
  const env = { PRAUTH_DATA_DIR: dataDir, SERVE_SAMPLE_RULES: 'true' };
  const lookupPath = '/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c';

  const firstStartMs = await timeToFirstAnswer(['dist/src/main.js'], env, '/v1/manifest'); // loads the sample corpus
  const key = cliKey(env, ['--admin']); // admin: the bench measures the service, not the rate limiter
  const limitedKey = cliKey(env, ['--compare']);
  const coldStartMs = await timeToFirstAnswer(['dist/src/main.js'], env, lookupPath, key);
  step(`node start ${coldStartMs} ms`);
  // On a copy of the data directory: what npm leaves behind on its way out cannot hold the one the rows use.
  const npmDir = `${dataDir}-npm`;
  cpSync(dataDir, npmDir, { recursive: true });
  rmSync(join(npmDir, 'prauth.lock'), { force: true });
  const npmStartMs = await timeToFirstAnswer(['npm', 'start', '--silent'], { ...env, PRAUTH_DATA_DIR: npmDir }, lookupPath, key);

  const headers = { 'x-api-key': key };
  const routes: TwinRoute[] = [
    { name: `GET /v1/pauth-lookup (${CONNECTIONS} conn)`, path: lookupPath, method: 'GET', headers, connections: CONNECTIONS, fixedRate: 2000 },
    { name: 'CRD order-sign, 3 draft orders, new ids each call (20 conn)', path: '/v1/cds-services/service-coverage-requirements', method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, connections: 20, fixedRate: 200, body: crdBodies('c') },
    { name: 'PAS $submit, 24 KB Bundle, new submission each call (20 conn)', path: '/v1/Claim/$submit', method: 'POST', headers: { ...headers, 'content-type': 'application/fhir+json' }, connections: 20, fixedRate: 40, body: pasBodies('p') },
  ];
  // A high limit for the metered key, so its run measures the cost of scope + limit checks, not 429s.
  const serviceEnv = { ...env, LOG_LEVEL: 'info', RATE_LIMITS: 'lookup=999999999,compare=999999999,ask=999999999,explore=999999999' };
  step(`npm start ${npmStartMs} ms`);
  const rss = await memory(serviceEnv, routes);
  step(`memory ${JSON.stringify(rss)}`);

  const service = await start(['dist/src/main.js'], serviceEnv);
  const bare = await startBareTwin(service.url, routes);
  const twins = await twinRows(service, bare, routes, ROUNDS);
  await bare.stop();

  const rows: Row[] = [];
  const targets: (Row & { target: number })[] = [];
  if (!TWINS_ONLY) {
    rows.push(await measure('service /v1/pauth-lookup (metered key: scope + limits + usage)', { url: `${service.url}${lookupPath}`, connections: CONNECTIONS, duration: DURATION, headers: { 'x-api-key': limitedKey } }, service.pid));
    const compareUrl = `${service.url}/v1/compare?states=TX,CA,NY,FL,OH,PA,IL,GA,NC,WA&program=medicaid_mco&drug=glp1_weight_loss`;
    if ((await fetch(compareUrl, { headers })).status === 200) {
      rows.push(await measure(`service /v1/compare (10 states, ${CONNECTIONS} connections)`, { url: compareUrl, connections: CONNECTIONS, duration: DURATION, headers }, service.pid));
      rows.push(await measure('service /v1/compare (10 states, 10 connections)', { url: compareUrl, connections: 10, duration: DURATION, headers }, service.pid));
    }
    // Free-text ask and similar rules at 20 connections (p99 target 20 ms).
    const askBody = JSON.stringify({ question: 'Does Texas Medicaid managed care require prior auth for Epclusa?' });
    const askRun = (base: string) => ({ url: `${base}/v1/ask`, method: 'POST' as const, body: askBody, connections: 20, duration: DURATION, headers: { ...headers, 'content-type': 'application/json' } });
    const similarRun = (base: string) => ({ url: `${base}/v1/rules/similar?rule_id=tx.medicaid-mco.d.hepatitis-c`, connections: 20, duration: DURATION, headers });
    rows.push(await measure('service POST /v1/ask (20 connections)', askRun(service.url), service.pid));
    rows.push(await measure('service GET /v1/rules/similar (20 connections)', similarRun(service.url), service.pid));
    rows.push((await benchSubmit(service.url, key, DURATION, 20))[1]!); // the same Bundle again: the idempotent path
    // The rows with a p99 target, each again on a service of its own (started, warmed up, then measured).
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
    await own(`CRD order-sign, 3 draft orders, same body (${CONNECTIONS} connections)`, (u) => benchCrdOrderSign(u, key, CONNECTIONS, DURATION), CRD_P99_TARGET_MS);
  }
  await service.stop();

  const result = {
    at: new Date().toISOString(),
    connections: CONNECTIONS,
    seconds: DURATION,
    rounds: ROUNDS,
    twins,
    start: { npm_start_to_first_lookup_ms: npmStartMs, node_start_to_first_lookup_ms: coldStartMs, first_start_with_sample_load_ms: firstStartMs },
    rss_mb: rss,
    rows,
    targets,
  };
  console.log(`\n${twinTable(twins)}`);
  console.log(`\nstart to first served lookup: npm start ${npmStartMs} ms, node dist/src/main.js ${coldStartMs} ms (first start incl. sample load: ${firstStartMs} ms)`);
  console.log(`resident memory: ${rss.after_start_mb} MB after start, ${rss.after_10k_requests_mb} MB after 10k requests`);
  if (rows.length) {
    console.log('\n| run | req/s | p50 ms | p99 ms | CPU µs/req | non-2xx |\n|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.title} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.cpuUsPerReq ?? ''} | ${r.non2xx} |`);
    console.log('\np99 targets, each route on a service of its own after a warm-up:\n\n| run | req/s | p50 ms | p99 ms | p99 target ms | met |\n|---|---|---|---|---|---|');
    for (const r of targets) console.log(`| ${r.title} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.target} | ${r.p99 <= r.target && r.non2xx === 0 ? 'yes' : 'no'} |`);
  }
  for (const t of twins) if (t.service.non2xx || t.bare.non2xx) console.log(`non-2xx answers in ${t.route}: service ${t.service.non2xx}, bare ${t.bare.non2xx}`);
  mkdirSync(join(root, '.bench'), { recursive: true });
  writeFileSync(join(root, '.bench', 'last.json'), JSON.stringify(result, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
