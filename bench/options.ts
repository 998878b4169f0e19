// Shared autocannon options of npm run bench: every measured run is preceded by a warm-up at the same connections
// (BENCH_WARMUP_SECONDS, default 2), which autocannon runs and leaves out of the figures, so a row measures the
// route in steady state (JIT-compiled, lazily built indexes in place), not the tail of the previous row's garbage.
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
export const warmup = (connections: number) => (WARMUP_SECONDS > 0 ? { warmup: { connections, duration: WARMUP_SECONDS } } : {});
