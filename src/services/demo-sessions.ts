// Demo sessions: a UUID that unlocks /v1/action-plan only, for a limited time, issued by a public endpoint
// that is itself limited per client address. Stored durably so that every instance honours them; stored like API keys,
// as a SHA-256 hash of the id (the plaintext id is shown once, to its holder), and purged once expired.
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../domain/hash.js';
import { COLLECTIONS } from '../store/collections.js';
import type { DocumentStore } from '../store/port.js';
import type { DemoPrincipal } from '../domain/principal.js';
import type { RateLimits } from './rate-limits.js';
import type { LimitDecision } from '../domain/limits.js';

export interface DemoSessionDoc {
  /** SHA-256 (hex) of the session id; the id itself is never stored. */
  id: string;
  createdAt: string;
  expiresAt: string;
}

/** What the holder gets once: the plaintext id and its lifetime. */
export interface IssuedSession {
  id: string;
  createdAt: string;
  expiresAt: string;
}

export type IssueOutcome = { ok: true; session: IssuedSession } | { ok: false; decision: LimitDecision };

export const hashSessionId = (id: string): string => sha256Hex(id.toLowerCase());

/** Expired sessions are deleted at most this often (on issue), so the collection holds only live sessions. */
const PURGE_EVERY_MS = 60_000;

export interface DemoSessionService {
  issue(clientAddress: string, now: Date): Promise<IssueOutcome>;
  verify(id: string): Promise<DemoPrincipal | null>;
  /** Deletes expired sessions; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}

export function createDemoSessions(deps: { store: DocumentStore; limits: RateLimits; ttlMinutes: number; now: () => Date }): DemoSessionService {
  const sessions = deps.store.collection<DemoSessionDoc>(COLLECTIONS.demoSessions);
  let lastPurge = 0;
  const service: DemoSessionService = {
    async issue(clientAddress, now) {
      const d = await deps.limits.consume(`ip:${clientAddress}`, 'demo_issue', now);
      if (!d.allowed) return { ok: false, decision: d };
      if (now.getTime() - lastPurge >= PURGE_EVERY_MS) {
        lastPurge = now.getTime();
        await service.purgeExpired(now);
      }
      const session = {
        id: randomUUID(),
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + deps.ttlMinutes * 60_000).toISOString(),
      };
      await sessions.insert({ ...session, id: hashSessionId(session.id) });
      return { ok: true, session };
    },
    async verify(id) {
      const s = await sessions.findOne({ id: hashSessionId(id) });
      if (!s || Date.parse(s.expiresAt) <= deps.now().getTime()) return null;
      // The principal carries the hash: it keys rate limits and logs, never the bearer value.
      return { kind: 'demo', sessionId: s.id, expiresAt: s.expiresAt };
    },
    purgeExpired(now) {
      return sessions.delete({ expiresAt: { $lte: now.toISOString() } });
    },
  };
  return service;
}
