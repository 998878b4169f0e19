// Collection names and the indexes ensured at start. Repositories over the port live beside it.
import type { DocumentStore } from './port.js';

export const COLLECTIONS = {
  rules: 'rules',
  jurisdictions: 'jurisdictions',
  payers: 'payers',
  drugs: 'drugs',
  codeMappings: 'code_mappings',
  events: 'events',
  topics: 'topics',
  changes: 'changes',
  meta: 'meta',
  keys: 'keys',
  usage: 'usage',
  demoSessions: 'demo_sessions',
  notifications: 'notifications',
  clients: 'clients',
  accessTokens: 'access_tokens',
  jwtIds: 'jwt_ids',
  outbox: 'outbox',
  pasSubmissions: 'pas_submissions',
  pasResponses: 'pas_responses',
  pasSubscriptions: 'pas_subscriptions',
  ingestRuns: 'ingest_runs',
  /** Write-ahead records of ingests in progress (src/ingest/journal.ts). */
  ingestJournal: 'ingest_journal',
  /** Lease locks (src/store/locks.ts). */
  locks: 'locks',
} as const;

/**
 * Fields written and read whole and never queried into (a PAS request Bundle, a ClaimResponse view): the embedded
 * store keeps them as JSON text rather than walking every element (src/store/embedded/embedded-store.ts).
 */
export const OPAQUE_FIELDS: Readonly<Partial<Record<string, readonly string[]>>> = {
  [COLLECTIONS.pasSubmissions]: ['request'],
  [COLLECTIONS.pasResponses]: ['view'],
};

export async function ensureIndexes(store: DocumentStore): Promise<void> {
  await Promise.all([
    store.collection(COLLECTIONS.rules).ensureIndex('jurisdiction'),
    store.collection(COLLECTIONS.changes).ensureIndex('corpusVersion'),
    store.collection(COLLECTIONS.keys).ensureIndex('hash', { unique: true }),
    store.collection(COLLECTIONS.usage).ensureIndex('keyId'),
    store.collection(COLLECTIONS.events).ensureIndex('ruleId', { sparse: true }),
    store.collection(COLLECTIONS.pasSubmissions).ensureIndex('owner'),
    store.collection(COLLECTIONS.pasSubmissions).ensureIndex('dedupeKeys'),
    store.collection(COLLECTIONS.pasSubmissions).ensureIndex('status'),
    store.collection(COLLECTIONS.pasResponses).ensureIndex('preAuthRef'),
    store.collection(COLLECTIONS.pasSubscriptions).ensureIndex('owner'),
    store.collection(COLLECTIONS.clients).ensureIndex('issuer', { sparse: true }),
    store.collection(COLLECTIONS.accessTokens).ensureIndex('clientId'),
  ]);
}

export interface CorpusMeta {
  id: 'corpus';
  version: number;
  updatedAt: string;
}

export async function readCorpusVersion(store: DocumentStore): Promise<number> {
  const meta = await store.collection<CorpusMeta>(COLLECTIONS.meta).findOne({ id: 'corpus' });
  return meta?.version ?? 0;
}
