// Ingest runs: every ingest (scheduled, admin, CLI) leaves a stored report. A scheduled run never overlaps another,
// in this process or on any instance sharing the store: it takes the store lock 'ingest-schedule' without waiting
// (store/locks.ts, the one locking mechanism; the ingest itself writes under the lock 'ingest'), and a tick that
// finds it held is recorded as skipped. INGEST_SOURCE may be a directory or file, or an https URL serving NDJSON.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { IngestProgress, IngestReport } from '../ingest/run-ingest.js';
import { COLLECTIONS } from '../store/collections.js';
import type { DocumentStore } from '../store/port.js';
import { LockTimeoutError, withLock, type LockDoc } from '../store/locks.js';

export type IngestTrigger = 'schedule' | 'admin' | 'cli' | 'startup';
export type RunStatus = 'running' | 'ok' | 'rejected_records' | 'failed' | 'skipped_overlap' | 'interrupted';

export interface IngestRunDoc {
  id: string;
  trigger: IngestTrigger;
  source: string;
  started_at: string;
  finished_at?: string;
  status: RunStatus;
  error?: string;
  received?: number;
  added?: number;
  changed?: number;
  unchanged?: number;
  retired?: number;
  rejected?: number;
  corpus_version?: number;
  notifications_queued?: number;
}


export interface IngestRuns {
  /** Runs one ingest and stores its report; the report is returned as runIngest's. */
  run(source: string, trigger: IngestTrigger, onProgress?: IngestProgress): Promise<IngestReport>;
  /** A scheduled tick: skipped (and recorded as such) while another scheduled run is in progress anywhere. */
  scheduled(source: string): Promise<IngestRunDoc>;
  history(limit: number): Promise<IngestRunDoc[]>;
  /** Marks runs left 'running' by a process that died (embedded store: this process owns the data). */
  recover(): Promise<number>;
}

export interface IngestRunDeps {
  store: DocumentStore;
  now: () => Date;
  log: Logger;
  ingest: (path: string, onProgress?: IngestProgress) => Promise<IngestReport>;
  /** After a run that changed the corpus (notify-when-ready dispatch); returns messages queued. */
  afterChange?: () => Promise<number>;
  fetchImpl?: typeof fetch;
}

/** The source as stored and shown: a URL loses its query string and credentials (they may hold a token). */
export function describeSource(source: string): string {
  if (/^https?:\/\//i.test(source)) {
    try {
      const u = new URL(source);
      return `${u.protocol}//${u.host}${u.pathname}`;
    } catch {
      return 'invalid URL';
    }
  }
  return source;
}

export class IngestSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IngestSourceError';
  }
}

/** Downloads an https NDJSON source to a private temp file; returns its path and a cleanup. */
async function download(url: string, fetchImpl: typeof fetch): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const u = new URL(url);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname))) {
    throw new IngestSourceError('INGEST_SOURCE URLs must be https (plain http only on loopback)');
  }
  const res = await fetchImpl(url, { headers: { Accept: 'application/x-ndjson, application/json;q=0.9, */*;q=0.5' }, signal: AbortSignal.timeout(120_000) });
  if (!res.ok) throw new IngestSourceError(`source answered HTTP ${res.status}`);
  const text = await res.text();
  const dir = await mkdtemp(join(tmpdir(), 'prauth-ingest-'));
  const path = join(dir, 'source.ndjson');
  await writeFile(path, text, { mode: 0o600 });
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function createIngestRuns(deps: IngestRunDeps): IngestRuns {
  const { store, now, log } = deps;
  const runs = store.collection<IngestRunDoc>(COLLECTIONS.ingestRuns);
  const locks = store.collection<LockDoc>(COLLECTIONS.locks);
  const fetchImpl = deps.fetchImpl ?? fetch;

  async function execute(source: string, trigger: IngestTrigger, onProgress?: IngestProgress): Promise<{ doc: IngestRunDoc; report?: IngestReport; error?: unknown }> {
    const doc: IngestRunDoc = { id: `${now().toISOString()}-${randomUUID().slice(0, 8)}`, trigger, source: describeSource(source), started_at: now().toISOString(), status: 'running' };
    await runs.insert(doc);
    let fetched: { path: string; cleanup: () => Promise<void> } | undefined;
    try {
      const path = /^https?:\/\//i.test(source) ? (fetched = await download(source, fetchImpl)).path : source;
      const report = await deps.ingest(path, onProgress);
      const queued = report.corpusChanged && deps.afterChange ? await deps.afterChange().catch((err: unknown) => {
        log.warn({ error: (err as Error).name }, 'notify dispatch after ingest failed; it is retried by the dispatcher');
        return 0;
      }) : 0;
      const done: Partial<IngestRunDoc> = {
        finished_at: now().toISOString(),
        status: report.rejected.length ? 'rejected_records' : 'ok',
        received: report.received,
        added: report.added,
        changed: report.changed,
        unchanged: report.unchanged,
        retired: report.retired,
        rejected: report.rejected.length,
        corpus_version: report.corpusVersion,
        notifications_queued: queued,
      };
      await runs.update({ id: doc.id }, done);
      return { doc: { ...doc, ...done }, report };
    } catch (err) {
      const message = err instanceof IngestSourceError || (err as NodeJS.ErrnoException).code === 'ENOENT' ? (err as Error).message : (err as Error).name || 'Error';
      const failed: Partial<IngestRunDoc> = { finished_at: now().toISOString(), status: 'failed', error: message.slice(0, 300) };
      await runs.update({ id: doc.id }, failed);
      return { doc: { ...doc, ...failed }, error: err };
    } finally {
      await fetched?.cleanup();
    }
  }

  return {
    async run(source, trigger, onProgress) {
      const { report, error } = await execute(source, trigger, onProgress);
      if (error) throw error;
      return report!;
    },

    async scheduled(source) {
      try {
        return await withLock(locks, 'ingest-schedule', async () => {
          const { doc } = await execute(source, 'schedule');
          log.info({ status: doc.status, added: doc.added, changed: doc.changed, rejected: doc.rejected }, 'scheduled ingest');
          return doc;
        }, { wait: false });
      } catch (err) {
        if (!(err instanceof LockTimeoutError)) throw err;
        const skipped: IngestRunDoc = { id: `${now().toISOString()}-${randomUUID().slice(0, 8)}`, trigger: 'schedule', source: describeSource(source), started_at: now().toISOString(), finished_at: now().toISOString(), status: 'skipped_overlap' };
        await runs.insert(skipped);
        log.info({ source: skipped.source }, 'scheduled ingest skipped: another run is in progress');
        return skipped;
      }
    },

    async history(limit) {
      return runs.find({}, { sort: { started_at: -1 }, limit });
    },

    async recover() {
      if (store.kind !== 'embedded') return 0;
      return runs.update({ status: 'running' }, { status: 'interrupted', finished_at: now().toISOString() });
    },
  };
}
