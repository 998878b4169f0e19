// Failed authentication, throttled per client address: every refused credential (bad key, token, assertion or
// CDS JWT) uses one unit of the address's hourly `auth_failure` budget (RATE_LIMITS, default 100). Past it, every
// further failure from the address is a 429 until the window ends, so guessing stays slow; valid credentials still
// pass (behind a shared proxy or NAT one address holds many clients; TRUST_PROXY names the proxies whose
// X-Forwarded-For gives the client). Counting goes through the shared limiter (MongoDB: every instance counts
// together); the "blocked until" mark is kept in process so that a blocked address's failures pay no store write.
import type { RateLimits } from './rate-limits.js';
import type { LimitDecision } from '../domain/limits.js';

export interface AuthThrottle {
  /**
   * One failed authentication from the address: the refusal (a 429) when the address is over its budget, else null.
   * An address already over it pays no store write (an in-process mark).
   */
  failure(address: string, now: Date): Promise<LimitDecision | null>;
}

export function createAuthThrottle(deps: { limits: RateLimits }): AuthThrottle {
  const blockedUntil = new Map<string, number>();
  const MAX_TRACKED = 100_000;
  const blocked = (address: string, now: Date): LimitDecision | null => {
    const until = blockedUntil.get(address);
    if (until === undefined) return null;
    const ms = until - now.getTime();
    if (ms <= 0) {
      blockedUntil.delete(address);
      return null;
    }
    return { allowed: false, limit: deps.limits.limitOf('auth_failure'), remaining: 0, resetSeconds: Math.ceil(ms / 1000) };
  };
  return {
    async failure(address, now) {
      const already = blocked(address, now);
      if (already) return already;
      const d = await deps.limits.consume(`ip:${address}`, 'auth_failure', now);
      if (d.allowed) return null;
      if (blockedUntil.size >= MAX_TRACKED) blockedUntil.clear();
      blockedUntil.set(address, now.getTime() + d.resetSeconds * 1000);
      return d;
    },
  };
}
