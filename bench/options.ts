// The one way npm run bench measures a row: a warm-up at the same connections (BENCH_WARMUP_SECONDS, default 2),
// which autocannon runs and leaves out of the figures, so a row measures the route in steady state (JIT-compiled,
// lazily built indexes in place), not the tail of the previous row's garbage; then the measured run, as a Row.
import autocannon from 'autocannon';

export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);

export interface Row {
  title: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

export async function measure(title: string, options: autocannon.Options & { connections: number }): Promise<Row> {
  const warmup = WARMUP_SECONDS > 0 ? { warmup: { connections: options.connections, duration: WARMUP_SECONDS } } : {};
  const r = await autocannon({ ...warmup, ...options });
  return { title, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
}
