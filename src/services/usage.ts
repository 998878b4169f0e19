// Monthly call counts per key. Counted in memory per request and flushed to the store every few seconds with
// atomic increments, so metering never adds a store write to a lookup. A crash can lose at most one flush
// interval of counts (metering, not acknowledged data); SIGTERM flushes before exit.
import { COLLECTIONS } from '../store/collections.js';
import type { DocumentStore } from '../store/port.js';

export const INCLUDED_CALLS_PER_MONTH = 5000;

export interface UsageDoc {
  id: string; // `${keyId}|${YYYY-MM}`
  keyId: string;
  month: string;
  calls: number;
}

export interface UsageReport {
  key_id: string;
  included_per_month: number;
  months: { month: string; calls: number; included: number; overage: number }[];
}

export interface UsageMeter {
  record(keyId: string, now: Date): void;
  flush(): Promise<void>;
  report(keyId: string): Promise<UsageReport>;
  start(intervalMs: number, onError: (err: unknown) => void): void;
  stop(): Promise<void>;
}

const monthOf = (d: Date): string => d.toISOString().slice(0, 7);

/** monthOf for a clock that moves forward: the month's text is made once per month, not once per call. */
function monthCounter(): (d: Date) => string {
  let from = 0;
  let until = -1;
  let text = '';
  return (d) => {
    const t = d.getTime();
    if (t >= from && t < until) return text;
    text = monthOf(d);
    const start = new Date(t);
    start.setUTCDate(1);
    start.setUTCHours(0, 0, 0, 0);
    from = start.getTime();
    until = start.setUTCMonth(start.getUTCMonth() + 1);
    return text;
  };
}

export function toUsageReport(keyId: string, docs: readonly UsageDoc[]): UsageReport {
  return {
    key_id: keyId,
    included_per_month: INCLUDED_CALLS_PER_MONTH,
    months: [...docs]
      .sort((a, b) => (a.month < b.month ? 1 : -1))
      .map((d) => ({ month: d.month, calls: d.calls, included: INCLUDED_CALLS_PER_MONTH, overage: Math.max(0, d.calls - INCLUDED_CALLS_PER_MONTH) })),
  };
}

export function createUsageMeter(store: DocumentStore): UsageMeter {
  const usage = store.collection<UsageDoc>(COLLECTIONS.usage);
  let pending = new Map<string, { keyId: string; month: string; n: number }>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  const monthOfCall = monthCounter();

  const flush = (): Promise<void> => {
    flushing = flushing.then(async () => {
      if (!pending.size) return;
      const batch = pending;
      pending = new Map();
      for (const [id, p] of batch) {
        try {
          await usage.increment(id, 'calls', p.n, { id, keyId: p.keyId, month: p.month });
        } catch (err) {
          // Put it back so the next flush retries it.
          const again = pending.get(id);
          pending.set(id, { ...p, n: p.n + (again?.n ?? 0) });
          throw err;
        }
      }
    });
    return flushing;
  };

  return {
    record(keyId, now) {
      const month = monthOfCall(now);
      const id = `${keyId}|${month}`;
      const p = pending.get(id);
      if (p) p.n++;
      else pending.set(id, { keyId, month, n: 1 });
    },
    flush,
    async report(keyId) {
      await flush();
      return toUsageReport(keyId, await usage.find({ keyId }));
    },
    start(intervalMs, onError) {
      timer = setInterval(() => {
        flush().catch(onError);
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await flush();
    },
  };
}
