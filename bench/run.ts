// npm run bench: every benchmark with a latency target; exits non-zero when one misses it.
// Add further benchmarks to BENCHES (each returns a BenchResult).
import { benchCompare, type BenchResult } from './compare.js';

const BENCHES: (() => Promise<BenchResult>)[] = [() => benchCompare()];

let failed = 0;
for (const bench of BENCHES) {
  const r = await bench();
  process.stdout.write(
    `${r.ok ? 'ok  ' : 'FAIL'} ${r.name}: ${r.requests} requests, p50 ${r.p50} ms, p99 ${r.p99} ms (target < ${r.targetP99Ms} ms), max ${r.max} ms, errors ${r.errors}, non-2xx ${r.non2xx}\n`,
  );
  if (!r.ok) failed++;
}
process.exitCode = failed ? 1 : 0;
