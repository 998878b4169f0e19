// A durable outbox over the store port: messages are written before enqueue resolves, delivered by a registered
// handler per kind, retried with capped exponential backoff and dead-lettered after a number of attempts.
// Delivery is at-least-once: a message is claimed with a lease (a compare-and-set on its attempt counter, atomic on
// both adapters), so a process that dies mid-delivery leaves a claim that expires and the message is tried again.
// Receivers use the dedupe key (or the message id) to drop repeats.
import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { COLLECTIONS } from '../store/collections.js';
import { DuplicateKeyError, type DocumentStore } from '../store/port.js';

export interface OutboxMessage {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  nextAttemptAt: string;
  dedupeKey?: string;
}

/** `message` is the stored envelope (id, attempts, dedupe key): receivers may use its id as an idempotency key. */
export type OutboxDeliver = (payload: unknown, message: OutboxMessage) => Promise<void>;

export interface Outbox {
  /** Durable before it resolves; the same dedupeKey (per kind) is enqueued once, ever. */
  enqueue(msg: { kind: string; payload: unknown; dedupeKey?: string; notBefore?: Date }): Promise<void>;
  /** deliver throws -> retry with exponential backoff (capped), dead-letter after maxAttempts. */
  handle(kind: string, deliver: OutboxDeliver): void;
  start(pollMs: number): void;
  stop(): Promise<void>;
  /** Runs every due message now (tests, and the CLI after an ingest). */
  drain(): Promise<void>;
  /** Counts by status (operator views). */
  stats(): Promise<OutboxStats>;
}

export interface OutboxStats {
  pending: number;
  inflight: number;
  delivered: number;
  dead: number;
}

export type OutboxStatus = 'pending' | 'inflight' | 'delivered' | 'dead';

/** The stored document. */
export interface OutboxDoc extends OutboxMessage {
  status: OutboxStatus;
  createdAt: string;
  deliveredAt?: string;
  /** The error class and code of the last failure (never its message: it may carry an address). */
  lastError?: string;
}

export interface OutboxOptions {
  store: DocumentStore;
  now: () => Date;
  log: Logger;
  /** Attempts before a message is dead-lettered (default 8). */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt (default 2 s). */
  baseDelayMs?: number;
  /** Cap on the retry delay (default 1 h). */
  maxDelayMs?: number;
  /** How long a claim holds before another worker may take the message again (default 2 min). */
  leaseMs?: number;
  /** Messages claimed per poll (default 20). */
  batchSize?: number;
}

/** The delay before the attempt after `attempts` failed ones: base * 2^(attempts-1), capped. */
export function backoffMs(attempts: number, baseDelayMs: number, maxDelayMs: number): number {
  const exp = Math.min(30, Math.max(0, attempts - 1));
  return Math.min(maxDelayMs, baseDelayMs * 2 ** exp);
}

function describeError(err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { name?: unknown; code?: unknown; responseCode?: unknown; status?: unknown };
    const name = typeof e.name === 'string' ? e.name : 'Error';
    const code = e.code ?? e.responseCode ?? e.status;
    return code === undefined ? name : `${name}:${String(code).slice(0, 40)}`;
  }
  return typeof err;
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { store, now, log } = options;
  const maxAttempts = options.maxAttempts ?? 8;
  const baseDelayMs = options.baseDelayMs ?? 2000;
  const maxDelayMs = options.maxDelayMs ?? 3600_000;
  const leaseMs = options.leaseMs ?? 120_000;
  const batchSize = options.batchSize ?? 20;
  const col = store.collection<OutboxDoc>(COLLECTIONS.outbox);
  const handlers = new Map<string, OutboxDeliver>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let indexed: Promise<void> | undefined;
  let recovered = false;

  const ready = (): Promise<void> =>
    (indexed ??= Promise.all([col.ensureIndex('status'), col.ensureIndex('nextAttemptAt')]).then(() => undefined));

  /**
   * With the embedded store one process owns the data directory (the lock), so a claim left by an earlier process
   * is stale: make it due now instead of waiting out its lease. With MongoDB other instances may hold live claims.
   */
  async function recoverOnce(): Promise<void> {
    if (recovered) return;
    recovered = true;
    if (store.kind !== 'embedded') return;
    await col.update({ status: 'inflight' }, { status: 'pending', nextAttemptAt: now().toISOString() });
  }

  async function deliverOne(doc: OutboxDoc): Promise<void> {
    const deliver = handlers.get(doc.kind);
    if (!deliver) return;
    const claimedAttempts = doc.attempts + 1;
    const claimed = await col.update(
      { id: doc.id, status: doc.status, attempts: doc.attempts },
      { status: 'inflight', attempts: claimedAttempts, nextAttemptAt: new Date(now().getTime() + leaseMs).toISOString() },
    );
    if (claimed !== 1) return; // another worker took it
    const message: OutboxMessage = {
      id: doc.id,
      kind: doc.kind,
      payload: doc.payload,
      attempts: claimedAttempts,
      nextAttemptAt: doc.nextAttemptAt,
      ...(doc.dedupeKey !== undefined ? { dedupeKey: doc.dedupeKey } : {}),
    };
    try {
      await deliver(doc.payload, message);
    } catch (err) {
      const lastError = describeError(err);
      // An error marked `permanent` (a receiver that will never accept this message) is dead-lettered at once.
      if (claimedAttempts >= maxAttempts || (err as { permanent?: unknown } | null)?.permanent === true) {
        await col.update({ id: doc.id, attempts: claimedAttempts }, { status: 'dead', lastError });
        log.error({ outbox: doc.id, kind: doc.kind, attempts: claimedAttempts, error: lastError }, 'outbox message dead-lettered');
      } else {
        const next = new Date(now().getTime() + backoffMs(claimedAttempts, baseDelayMs, maxDelayMs));
        await col.update({ id: doc.id, attempts: claimedAttempts }, { status: 'pending', nextAttemptAt: next.toISOString(), lastError });
        log.warn({ outbox: doc.id, kind: doc.kind, attempts: claimedAttempts, error: lastError }, 'outbox delivery failed; will retry');
      }
      return;
    }
    // The payload is dropped once delivered; the document stays as the dedupe record.
    await col.update({ id: doc.id, attempts: claimedAttempts }, { status: 'delivered', deliveredAt: now().toISOString(), payload: null });
  }

  /** One pass over the messages due now; returns how many were due. */
  async function pass(): Promise<number> {
    await ready();
    await recoverOnce();
    const kinds = [...handlers.keys()];
    if (!kinds.length) return 0;
    const due = await col.find(
      { status: { $in: ['pending', 'inflight'] }, kind: { $in: kinds }, nextAttemptAt: { $lte: now().toISOString() } },
      { sort: { nextAttemptAt: 1 }, limit: batchSize },
    );
    for (const doc of due) await deliverOne(doc);
    return due.length;
  }

  function serial(fn: () => Promise<void>): Promise<void> {
    const next = running.then(fn, fn);
    running = next.catch(() => undefined);
    return next;
  }

  return {
    async enqueue(msg) {
      if (!msg.kind || typeof msg.kind !== 'string') throw new TypeError('outbox message needs a kind');
      await ready();
      const id = msg.dedupeKey !== undefined
        ? createHash('sha256').update(`${msg.kind}\u0000${msg.dedupeKey}`).digest('hex').slice(0, 32)
        : randomUUID();
      const at = now();
      const doc: OutboxDoc = {
        id,
        kind: msg.kind,
        payload: msg.payload ?? null,
        attempts: 0,
        nextAttemptAt: (msg.notBefore && msg.notBefore > at ? msg.notBefore : at).toISOString(),
        status: 'pending',
        createdAt: at.toISOString(),
        ...(msg.dedupeKey !== undefined ? { dedupeKey: msg.dedupeKey } : {}),
      };
      try {
        await col.insert(doc);
      } catch (err) {
        if (err instanceof DuplicateKeyError) return; // enqueued before: once only
        throw err;
      }
    },
    handle(kind, deliver) {
      handlers.set(kind, deliver);
    },
    start(pollMs) {
      if (timer) return;
      const tick = (): void => {
        if (!timer) return; // stopped meanwhile
        void serial(async () => {
          await pass();
        }).catch((err: unknown) => log.warn({ error: describeError(err) }, 'outbox poll failed'));
      };
      timer = setInterval(tick, pollMs);
      timer.unref();
      // A restart resumes at once: whatever was due when the last process stopped goes out now.
      setImmediate(tick);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
    drain() {
      return serial(async () => {
        // Failures are rescheduled into the future, so this ends; the bound guards against a clock that stands still.
        for (let i = 0; i < 1000; i++) {
          if ((await pass()) === 0) break;
        }
      });
    },
    async stats() {
      await ready();
      const [pending, inflight, delivered, dead] = await Promise.all(
        (['pending', 'inflight', 'delivered', 'dead'] as const).map((status) => col.count({ status })),
      );
      return { pending: pending!, inflight: inflight!, delivered: delivered!, dead: dead! };
    },
  };
}
