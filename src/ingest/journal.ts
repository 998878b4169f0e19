// Write-ahead journal of an ingest: the documents to write, their change-log entries and the corpus version they
// publish are recorded first, then applied. A crash (kill -9) before the journal's head is written leaves nothing
// applied; after it, the next start (or the next ingest on any instance) replays the journal to the end. So a
// changed rule never exists without its change-log entry, and the version moves only when both are in place.
//
// Neither store offers multi-document transactions here (FerretDB 1.x has none; nedb neither), hence the journal.
// Ingests are serialised across instances by a lease lock (src/store/locks.ts); replay is idempotent (upserts by id).
import type { CanonicalDoc, ResourceType } from '../domain/documents.js';
import { COLLECTION_OF } from '../domain/documents.js';
import { COLLECTIONS, type CorpusMeta } from '../store/collections.js';
import { withLock, type LockDoc } from '../store/locks.js';
import type { DocumentStore, Keyed } from '../store/port.js';

/** A change-log entry before its id and version are known (the shape of ChangeLogEntry without them). */
export type PendingChange = object;

interface JournalHead {
  id: string; // `${version}`
  kind: 'head';
  version: number;
  at: string;
  parts: number;
}
interface JournalPart {
  id: string; // `${version}-${n}`
  kind: 'part';
  version: number;
  type?: ResourceType;
  docs?: CanonicalDoc[];
  changes?: PendingChange[];
}
type JournalDoc = JournalHead | JournalPart;

/** Documents per journal part: keeps each stored record well under MongoDB's 16 MB document limit. */
const PART_SIZE = 200;

export const changeId = (version: number, index: number): string => `${version}-${String(index + 1).padStart(6, '0')}`;

const journalOf = (store: DocumentStore) => store.collection<JournalDoc & Keyed>(COLLECTIONS.ingestJournal);

/** Runs fn holding the store-wide ingest lock (one ingest at a time, whichever instance runs it). */
export function withIngestLock<R>(store: DocumentStore, fn: () => Promise<R>): Promise<R> {
  return withLock(store.collection<LockDoc>(COLLECTIONS.locks), 'ingest', fn, { leaseMs: 15_000, timeoutMs: 120_000 });
}

async function apply(store: DocumentStore, version: number, parts: readonly JournalPart[], at: string): Promise<void> {
  for (const p of parts) {
    if (p.type && p.docs?.length) await store.collection<Keyed & CanonicalDoc>(COLLECTION_OF[p.type]).upsertMany(p.docs);
  }
  const changes = parts.flatMap((p) => p.changes ?? []);
  if (changes.length) {
    await store.collection<Keyed>(COLLECTIONS.changes).upsertMany(changes.map((c, i) => ({ ...c, id: changeId(version, i), corpusVersion: version })));
  }
  // Last: the version readers poll. Monotonic, so replaying an old journal never moves it back.
  const meta = store.collection<CorpusMeta>(COLLECTIONS.meta);
  const current = (await meta.findOne({ id: 'corpus' }))?.version ?? 0;
  if (version > current) await meta.upsertMany([{ id: 'corpus', version, updatedAt: at }]);
}

/**
 * Records then applies one ingest's writes under `version`. Call with the ingest lock held.
 * `writes` are the documents per type (rules already carry their new meta), `changes` their change-log entries.
 */
export async function commitIngest(
  store: DocumentStore,
  version: number,
  writes: readonly { type: ResourceType; docs: readonly CanonicalDoc[] }[],
  changes: readonly PendingChange[],
  at: string,
): Promise<void> {
  const parts: JournalPart[] = [];
  for (const w of writes) {
    for (let i = 0; i < w.docs.length; i += PART_SIZE) parts.push({ id: '', kind: 'part', version, type: w.type, docs: w.docs.slice(i, i + PART_SIZE) });
  }
  for (let i = 0; i < changes.length; i += PART_SIZE * 5) parts.push({ id: '', kind: 'part', version, changes: changes.slice(i, i + PART_SIZE * 5) });
  parts.forEach((p, n) => (p.id = `${version}-${n}`));
  const journal = journalOf(store);
  await journal.delete({ version }); // parts left by a run that died before its head
  await journal.upsertMany(parts);
  await journal.insert({ id: String(version), kind: 'head', version, at, parts: parts.length }); // the commit point
  await apply(store, version, parts, at);
  await journal.delete({ version });
}

/** Finishes every journalled ingest a crash interrupted; drops parts whose head was never written. Lock held. */
export async function replayJournal(store: DocumentStore): Promise<number[]> {
  const journal = journalOf(store);
  const heads = (await journal.find({ kind: 'head' })) as JournalHead[];
  const replayed: number[] = [];
  for (const head of heads.sort((a, b) => a.version - b.version)) {
    const parts = ((await journal.find({ version: head.version, kind: 'part' })) as JournalPart[]).sort((a, b) => Number(a.id.split('-')[1]) - Number(b.id.split('-')[1]));
    if (parts.length !== head.parts) throw new Error(`ingest journal ${head.version} has ${parts.length} of its ${head.parts} parts`);
    await apply(store, head.version, parts, head.at);
    await journal.delete({ version: head.version });
    replayed.push(head.version);
  }
  const orphans = await journal.count({});
  if (orphans) await journal.delete({}); // parts of runs that died before their commit point: never applied
  return replayed;
}

/** At start: repair what a crash left (the server calls this before it loads the read model). */
export function recoverIngests(store: DocumentStore): Promise<number[]> {
  return withIngestLock(store, () => replayJournal(store));
}
