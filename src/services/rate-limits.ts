// Per key, per endpoint group, fixed windows aligned to the clock hour (10:00-11:00 UTC, ...): every instance
// agrees on where a window starts, and Retry-After is the time to the top of the hour. Counting is
// rate-limiter-flexible's: in memory with the embedded store, in MongoDB (shared by all instances) otherwise,
// with an in-memory insurance limiter that takes over while MongoDB is unreachable. The MongoDB store counts by
// inserting numbered slots (./rate-limit-slots.ts), which stays exact on FerretDB as on MongoDB.
import type { MongoClient } from 'mongodb';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterMongoSlots } from './rate-limit-slots.js';
import { WINDOW_SECONDS, type LimitDecision, type LimitGroup } from '../domain/limits.js';


export interface RateLimits {
  consume(subject: string, group: LimitGroup, now: Date): Promise<LimitDecision>;
  limitOf(group: LimitGroup): number;
}

export interface RateLimitOptions {
  limits: Readonly<Record<LimitGroup, number>>;
  mongo?: { client: MongoClient; dbName: string };
  onStoreError: (err: unknown) => void;
}

export function createRateLimits(options: RateLimitOptions): RateLimits {
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = (group: LimitGroup): RateLimiterAbstract => {
    let l = limiters.get(group);
    if (l) return l;
    const points = options.limits[group] ?? 1000;
    const base = { keyPrefix: `rl_${group}`, points, duration: WINDOW_SECONDS };
    l = options.mongo
      ? new RateLimiterMongoSlots({
          ...base,
          client: options.mongo.client,
          dbName: options.mongo.dbName,
          tableName: 'rate_limits',
          insuranceLimiter: new RateLimiterMemory(base),
        })
      : new RateLimiterMemory(base);
    limiters.set(group, l);
    return l;
  };

  return {
    limitOf: (group) => options.limits[group] ?? 1000,
    async consume(subject, group, now) {
      const nowSec = Math.floor(now.getTime() / 1000);
      const window = Math.floor(nowSec / WINDOW_SECONDS);
      const toWindowEnd = (window + 1) * WINDOW_SECONDS - nowSec; // 1..3600
      const limit = options.limits[group] ?? 1000;
      try {
        const res = await limiterFor(group).consume(`${subject}:${window}`, 1, { customDuration: toWindowEnd });
        return { allowed: true, limit, remaining: res.remainingPoints, resetSeconds: toWindowEnd };
      } catch (rej) {
        if (rej instanceof RateLimiterRes) return { allowed: false, limit, remaining: 0, resetSeconds: toWindowEnd };
        // The store failed and no insurance answered: keep serving (fail open), never a false 429.
        options.onStoreError(rej);
        return { allowed: true, limit, remaining: limit, resetSeconds: toWindowEnd };
      }
    },
  };
}
