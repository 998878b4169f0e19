// Demo sessions: a UUID that unlocks /v1/action-plan only, for a limited time, issued by a public endpoint
// that is itself limited per client address. Stored durably so that every instance honours them.
import { randomUUID } from 'node:crypto';
import { COLLECTIONS } from '../store/collections.js';
import type { DocumentStore } from '../store/port.js';
import type { DemoPrincipal } from '../http/route.js';
import type { LimitDecision, RateLimits } from './rate-limits.js';

export interface DemoSessionDoc {
  id: string;
  createdAt: string;
  expiresAt: string;
}

export type IssueOutcome = { ok: true; session: DemoSessionDoc } | { ok: false; decision: LimitDecision };

export interface DemoSessionService {
  issue(clientAddress: string, now: Date): Promise<IssueOutcome>;
  verify(id: string): Promise<DemoPrincipal | null>;
}

export function createDemoSessions(deps: { store: DocumentStore; limits: RateLimits; ttlMinutes: number; now: () => Date }): DemoSessionService {
  const sessions = deps.store.collection<DemoSessionDoc>(COLLECTIONS.demoSessions);
  return {
    async issue(clientAddress, now) {
      const d = await deps.limits.consume(`ip:${clientAddress}`, 'demo_issue', now);
      if (!d.allowed) return { ok: false, decision: d };
      const session = {
        id: randomUUID(),
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + deps.ttlMinutes * 60_000).toISOString(),
      };
      await sessions.insert(session);
      return { ok: true, session };
    },
    async verify(id) {
      const s = await sessions.findOne({ id: id.toLowerCase() });
      if (!s || Date.parse(s.expiresAt) <= deps.now().getTime()) return null;
      return { kind: 'demo', sessionId: s.id, expiresAt: s.expiresAt };
    },
  };
}
