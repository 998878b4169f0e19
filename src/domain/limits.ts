// Rate-limit groups, their defaults (spec 8) and the RATE_LIMITS setting's parser: configuration reads them, the
// limiter (services/rate-limits.ts) counts against them.
import type { EndpointGroup } from './endpoint-groups.js';

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

/** Endpoint groups, plus demo sessions (calls per session), demo issuance (new sessions per client address),
 * failed authentications per client address, and notify-when-ready requests per client address and per contact. */
export type LimitGroup = EndpointGroup | 'demo_session' | 'demo_issue' | 'auth_failure' | 'notify_address' | 'notify_contact';

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
