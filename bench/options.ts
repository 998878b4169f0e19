// The one way npm run bench measures a row: a warm-up at the same connections (BENCH_WARMUP_SECONDS, default 2),
// left out of the figures, so a row measures the route in steady state (JIT-compiled, lazily built indexes in
// place), not the tail of the previous row's garbage; then the measured run, as a Row. Given the pid of the process
// under load, the row also carries its CPU time per request (user + system, from /proc).
import autocannon from 'autocannon';
import { cpuMicros } from './procs.js';

export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);

export interface Row {
  title: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU µs of the loaded process per answered request, when its pid was given. */
  cpuUsPerReq?: number;
}

export async function measure(title: string, options: autocannon.Options & { connections: number }, pid?: number): Promise<Row> {
  if (WARMUP_SECONDS > 0) await autocannon({ ...options, duration: WARMUP_SECONDS });
  const cpu0 = pid ? cpuMicros(pid) : 0;
  const r = await autocannon(options);
  const row: Row = { title, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
  if (pid && r.requests.total > 0) row.cpuUsPerReq = Math.round((cpuMicros(pid) - cpu0) / r.requests.total);
  return row;
}
