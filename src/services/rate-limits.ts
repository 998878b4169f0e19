// Per key, per endpoint group, fixed windows aligned to the clock hour (10:00-11:00 UTC, ...): every instance
// agrees on where a window starts, and Retry-After is the time to the top of the hour. Counting is
// rate-limiter-flexible's: in memory with the embedded store, in MongoDB (shared by all instances) otherwise,
// with an in-memory insurance limiter that takes over while MongoDB is unreachable.
import type { MongoClient } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { EndpointGroup } from '../domain/endpoint-groups.js';

export const WINDOW_SECONDS = 3600;

/** Spec 8: 10,000/h lookups (alias included), 2,000/h compare; the others are our documented defaults. */
export const DEFAULT_LIMITS: Readonly<Record<EndpointGroup, number>> = {
  lookup: 10_000,
  compare: 2_000,
  compare_payers: 2_000,
  action_plan: 1_000,
  fhir: 5_000,
  cds: 5_000,
  ask: 1_000,
  explore: 5_000,
  admin: 1_000,
};

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (the Retry-After value when refused). */
  resetSeconds: number;
}

export interface RateLimits {
  consume(subject: string, group: LimitGroup, now: Date): Promise<LimitDecision>;
  limitOf(group: LimitGroup): number;
}

/** Endpoint groups, plus demo sessions (calls per session), demo issuance (new sessions per client address),
 * failed authentications per client address, and notify-when-ready requests per client address and per contact. */
export type LimitGroup = EndpointGroup | 'demo_session' | 'demo_issue' | 'auth_failure' | 'notify_address' | 'notify_contact';

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
      ? new RateLimiterMongo({
          ...base,
          storeClient: options.mongo.client,
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

export function parseLimits(raw: string | undefined): { limits: Record<LimitGroup, number>; problems: string[] } {
  const limits: Record<string, number> = { ...DEFAULT_LIMITS, demo_session: 30, demo_issue: 10, auth_failure: 100, notify_address: 20, notify_contact: 5 };
  const problems: string[] = [];
  for (const part of (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z_]+)=(\d{1,9})$/.exec(part);
    if (!m || !(m[1]! in limits)) {
      problems.push(`RATE_LIMITS entry '${part}' must be group=N (N up to 9 digits) with a group among ${Object.keys(limits).join(', ')}`);
      continue;
    }
    limits[m[1]!] = Number(m[2]);
  }
  return { limits: limits as Record<LimitGroup, number>, problems };
}
