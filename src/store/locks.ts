// A lease lock over any collection of the port, built on the one write every MongoDB-compatible server makes
// atomic: inserting a document whose id already exists fails. FerretDB 1.x runs update operators ($inc, $set with
// a filter, findAndModify) as read-then-write without isolation, so concurrent read-modify-writes lose updates
// there; a lock taken by insert serialises them on FerretDB and on MongoDB alike, across instances.
//
// A holder that dies keeps the lock until its lease runs out; a holder on this host whose process is gone is
// recognised at once (its pid no longer exists), so a restart after kill -9 does not wait for the lease.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { DuplicateKeyError, type Collection } from './port.js';

export interface LockDoc {
  id: string;
  owner: string;
  host: string;
  pid: number;
  until: number;
}

export interface LockOptions {
  /** How long a lock lasts without renewal (renewed every third of it while held). */
  leaseMs?: number;
  /** Give up after this long (the caller gets an error, never a silent no-lock run). */
  timeoutMs?: number;
  /** false: do not wait at all; LockTimeoutError at once while anyone (this process or another) holds the lock. */
  wait?: boolean;
}

const HOST = hostname();

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class LockTimeoutError extends Error {
  constructor(name: string) {
    super(`could not take the lock '${name}' in time`);
    this.name = 'LockTimeoutError';
  }
}

// Callers in this process queue here first, so they never contend (and back off) against each other in the store.
const localQueues = new Map<string, Promise<unknown>>();

/** Runs fn while holding the named lock. */
export function withLock<R>(locks: Collection<LockDoc>, name: string, fn: () => Promise<R>, options: LockOptions = {}): Promise<R> {
  if (options.wait === false) {
    if (localQueues.has(name)) return Promise.reject(new LockTimeoutError(name));
    options = { ...options, timeoutMs: 0 };
  }
  const prev = localQueues.get(name) ?? Promise.resolve();
  const run = prev.then(() => withStoreLock(locks, name, fn, options));
  const settled = run.catch(() => undefined);
  localQueues.set(name, settled);
  void settled.then(() => {
    if (localQueues.get(name) === settled) localQueues.delete(name);
  });
  return run;
}

async function withStoreLock<R>(locks: Collection<LockDoc>, name: string, fn: () => Promise<R>, options: LockOptions): Promise<R> {
  const leaseMs = options.leaseMs ?? 15_000;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const owner = randomUUID();
  let wait = 2;
  for (;;) {
    try {
      await locks.insert({ id: name, owner, host: HOST, pid: process.pid, until: Date.now() + leaseMs });
      break;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    const held = await locks.findOne({ id: name });
    if (held && (held.until < Date.now() || (held.host === HOST && held.pid !== process.pid && processGone(held.pid)))) {
      await locks.delete({ id: name, owner: held.owner }); // stale: its holder is gone
      continue;
    }
    if (Date.now() > deadline) throw new LockTimeoutError(name);
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 100);
  }
  const renew = setInterval(() => {
    locks.update({ id: name, owner }, { until: Date.now() + leaseMs }).catch(() => undefined);
  }, Math.max(1000, Math.floor(leaseMs / 3)));
  renew.unref();
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    await locks.delete({ id: name, owner });
  }
}
