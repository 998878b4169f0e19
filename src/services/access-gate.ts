// The access gate behind every keyed endpoint: rate limits per key (or demo session) per endpoint group, the
// IETF RateLimit headers, and usage metering. Admin keys and the local operator bypass limits. A registered
// client (access token or CDS Hooks JWT) is counted exactly like a key, under its client id.
import type { EndpointGroup } from '../domain/endpoint-groups.js';
import { ApiError } from '../domain/api-error.js';
import { holderWord, isSubscribed, type Principal } from '../domain/principal.js';
import type { RateLimits } from './rate-limits.js';
import type { LimitDecision } from '../domain/limits.js';
import { WINDOW_SECONDS } from '../domain/limits.js';
import type { UsageMeter } from './usage.js';

export function rateLimitHeaders(policy: string, d: LimitDecision): Record<string, string> {
  // draft-ietf-httpapi-ratelimit-headers: structured fields naming the policy, quota, window, remaining, reset.
  return {
    'RateLimit-Policy': `"${policy}";q=${d.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"${policy}";r=${d.remaining};t=${d.resetSeconds}`,
  };
}

export function tooManyRequests(policy: string, d: LimitDecision, what: string): ApiError {
  return new ApiError(
    429,
    'rate_limited',
    `Rate limit exceeded: ${d.limit} request${d.limit === 1 ? '' : 's'} per hour for ${what}; retry after ${d.resetSeconds} s`,
    { limit: d.limit, window: '1h', retry_after_seconds: d.resetSeconds },
    { 'Retry-After': String(d.resetSeconds), ...rateLimitHeaders(policy, d) },
  );
}

/**
 * Access control beyond "is this a valid key": rate limits per endpoint group and usage metering.
 * Returns extra response headers (rate-limit state) or throws an ApiError (429).
 */
export interface AccessGate {
  admit(principal: Principal, group: EndpointGroup): Promise<Record<string, string>>;
  /** admit's answer when it needs nothing to wait for (an operator, an admin key: no limit applies), else undefined. */
  admitNow?(principal: Principal, group: EndpointGroup): Record<string, string> | undefined;
}

export function createAccessGate(deps: { limits: RateLimits; usage: UsageMeter; now: () => Date }): AccessGate {
  return {
    admitNow(principal) {
      if (principal.kind === 'operator') return {};
      if (!isSubscribed(principal) || !principal.admin) return undefined;
      deps.usage.record(principal.meterId, deps.now());
      return {};
    },
    async admit(principal: Principal, group: EndpointGroup) {
      if (principal.kind === 'operator') return {};
      const now = deps.now();
      if (isSubscribed(principal)) {
        // Keys and registered clients alike: limits and usage under the subscription's own id.
        if (principal.admin) {
          deps.usage.record(principal.meterId, now);
          return {};
        }
        const d = await deps.limits.consume(`k:${principal.meterId}`, group, now);
        if (!d.allowed) throw tooManyRequests(group, d, `the ${group} endpoints on this ${holderWord(principal)}`);
        deps.usage.record(principal.meterId, now); // refused calls are not billable
        return rateLimitHeaders(group, d);
      }
      const d = await deps.limits.consume(`d:${principal.sessionId}`, 'demo_session', now);
      if (!d.allowed) throw tooManyRequests('demo_session', d, 'this demo session');
      return rateLimitHeaders('demo_session', d);
    },
  };
}
