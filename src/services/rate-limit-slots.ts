// A rate-limiter-flexible store on MongoDB-compatible servers that counts by inserting numbered slots.
//
// Why not the library's RateLimiterMongo: it counts with findOneAndUpdate + $inc and relies on a TTL index and a
// unique index. FerretDB 1.x (what CI runs) rejects the TTL index (so the unique index is never created either)
// and applies $inc as an unisolated read-then-write: two instances sharing a limit lost most of their counts.
// Here the n-th call of a window inserts the document `${key}#${n}`; the unique primary key, which every
// MongoDB-compatible server enforces atomically, makes each position taken exactly once, across instances.
// Expired slots are deleted by a periodic sweep (no TTL index needed). The library keeps its other parts: the
// in-memory insurance limiter while the database is unreachable, and the RateLimiterRes arithmetic.
import { createRequire } from 'node:module';
import type { Collection as MongoCollection, Db, Document, MongoClient } from 'mongodb';
import { MongoServerError } from 'mongodb';
import type { IRateLimiterStoreOptions, RateLimiterRes as RateLimiterResType, RateLimiterStoreAbstract as StoreAbstractType } from 'rate-limiter-flexible';
import { RateLimiterRes } from 'rate-limiter-flexible';

// Not re-exported by the package index; its file is part of the published package (lib/).
const RateLimiterStoreAbstract = createRequire(import.meta.url)('rate-limiter-flexible/lib/RateLimiterStoreAbstract.js') as typeof StoreAbstractType;

interface SlotResult {
  points: number;
  expire: Date;
}

export interface SlotLimiterOptions extends Omit<IRateLimiterStoreOptions, 'storeClient'> {
  client: MongoClient;
  dbName: string;
  tableName: string;
}

const MAX_TRIES = 30;
const SWEEP_MS = 10 * 60 * 1000;

export class RateLimiterMongoSlots extends RateLimiterStoreAbstract {
  private readonly slots: MongoCollection<Document>;
  /** The next position this process expects per key: local calls never collide with each other. */
  private readonly next = new Map<string, number>();
  private readonly ready: Promise<void>;
  private sweeper: NodeJS.Timeout;

  constructor(opts: SlotLimiterOptions) {
    const { client, dbName, tableName, ...rest } = opts;
    super({ ...rest, storeClient: client });
    const db: Db = client.db(dbName);
    this.slots = db.collection(tableName);
    this.ready = this.slots.createIndex({ k: 1 }).then(
      () => undefined,
      () => undefined, // counting still works without the index, only slower
    );
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Deletes the slots of windows that have ended (a TTL index would, where the server has one). */
  async sweep(now = new Date()): Promise<number> {
    this.next.clear();
    const r = await this.slots.deleteMany({ exp: { $lt: now } }).catch(() => ({ deletedCount: 0 }));
    return r.deletedCount;
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  async _upsert(rlKey: string, points: number, msDuration: number, forceExpire = false): Promise<SlotResult> {
    if (forceExpire || points !== 1) throw new Error('RateLimiterMongoSlots counts single consumptions only');
    await this.ready;
    const expire = new Date(Date.now() + msDuration);
    // Past the limit, a refused call needs no slot of its own: the answer is "over" whatever the exact count.
    const expected = this.next.get(rlKey) ?? 1;
    if (expected > this.points + 1) {
      this.next.set(rlKey, expected + 1);
      return { points: expected, expire };
    }
    let n = expected;
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      this.next.set(rlKey, Math.max(this.next.get(rlKey) ?? 1, n + 1));
      try {
        await this.slots.insertOne({ _id: `${rlKey}#${n}` as unknown as Document['_id'], k: rlKey, exp: expire });
        return { points: n, expire };
      } catch (err) {
        if (!(err instanceof MongoServerError && err.code === 11000)) throw err;
      }
      // Another instance took this position: resynchronise from the stored count.
      const taken = await this.slots.countDocuments({ k: rlKey });
      n = Math.max(taken + 1, this.next.get(rlKey) ?? 1, n + 1);
      if (n > this.points + 1) {
        this.next.set(rlKey, n + 1);
        return { points: n, expire };
      }
    }
    throw new Error('rate-limit slot contention did not settle');
  }

  async _get(rlKey: string): Promise<SlotResult | null> {
    const taken = await this.slots.countDocuments({ k: rlKey });
    if (!taken) return null;
    const one = await this.slots.findOne({ k: rlKey });
    return { points: taken, expire: (one?.exp as Date | undefined) ?? new Date() };
  }

  async _delete(rlKey: string): Promise<boolean> {
    this.next.delete(rlKey);
    const r = await this.slots.deleteMany({ k: rlKey });
    return r.deletedCount > 0;
  }

  _getRateLimiterRes(_rlKey: string, changedPoints: number, result: SlotResult): RateLimiterResType {
    return new RateLimiterRes(
      Math.max(this.points - result.points, 0),
      Math.max(result.expire.getTime() - Date.now(), 0),
      result.points,
      result.points === changedPoints,
    );
  }
}
