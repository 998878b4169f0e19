// Bench case: CRD order-sign with three draft orders (E0250, CPT 70553, CPT 97161; traditional Medicare in NY, all
// prefetched) at BENCH_CONNECTIONS connections (50). Target: p99 under 20 ms. Used by bench/run.ts; also runs on
// its own against the built service: `npm run build && node --import tsx bench/crd-order-sign.ts`.
import { measure, type Row } from './options.js';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { orderSignThreeOrders } from '../test/support/crd-requests.js';

export const CRD_P99_TARGET_MS = 20;


export async function benchCrdOrderSign(baseUrl: string, key: string, connections: number, seconds: number): Promise<Row> {
  const body = JSON.stringify({ ...orderSignThreeOrders(), fhirServer: undefined, fhirAuthorization: undefined });
  const url = `${baseUrl}/v1/cds-services/service-coverage-requirements`;
  const check = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body });
  const answer = (await check.json()) as { systemActions?: unknown[] };
  if (check.status !== 200 || answer.systemActions?.length !== 3) throw new Error(`order-sign bench request not answered as expected: ${check.status}`);
  return measure(`service CRD order-sign, 3 draft orders (${connections} connections; p99 target ${CRD_P99_TARGET_MS} ms)`, { url, method: 'POST', connections, duration: seconds, headers: { 'content-type': 'application/json', 'x-api-key': key }, body });
}

async function main(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dataDir = mkdtempSync(join(tmpdir(), 'prauth-bench-crd-'));
  const env = { ...process.env, PRAUTH_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const key = execFileSync(process.execPath, ['bin/prauth.mjs', 'keys', 'create', '--name', 'bench', '--admin'], { cwd: root, env }).toString().trim();
  const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: root, env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
    child.once('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
  try {
    const row = await benchCrdOrderSign(url, key, Number(process.env.BENCH_CONNECTIONS ?? 50), Number(process.env.BENCH_SECONDS ?? 6));
    console.log(`| ${row.title} | ${row.rps} req/s | p50 ${row.p50} ms | p99 ${row.p99} ms | non-2xx ${row.non2xx} |`);
    if (row.p99 > CRD_P99_TARGET_MS) console.log(`p99 ${row.p99} ms is above the ${CRD_P99_TARGET_MS} ms target`);
  } finally {
    await new Promise<void>((r) => {
      child.once('exit', () => r());
      child.kill('SIGTERM');
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
