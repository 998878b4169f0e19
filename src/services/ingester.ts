// Ingest as the running service offers it (admin interface, CLI through a running server, the scheduled run), the
// read model refreshed after each run that changed the corpus.
import type { CorpusHolder } from '../corpus/corpus-holder.js';
import { ingestRecords, runIngest, type IngestProgress, type IngestReport, type IngestSource } from '../ingest/run-ingest.js';
import type { DocumentStore } from '../store/port.js';

/**
 * Runs an ingest and refreshes the read model after one that changed the corpus. Concurrent ingests need no queue
 * here: each diffs and writes under the store lock 'ingest' (ingest/journal.ts), so they apply one after the other.
 */
export function createIngester(store: DocumentStore, corpus: CorpusHolder | undefined, now: () => Date): (source: IngestSource, onProgress?: IngestProgress) => Promise<IngestReport> {
  return async (source, onProgress) => {
    const deps = { store, now, ...(onProgress ? { onProgress } : {}) };
    const report =
      typeof source === 'string'
        ? await runIngest(deps, source)
        : await ingestRecords(deps, source.records.map((value, i) => ({ file: source.name ?? 'request', line: i + 1, value })));
    if (report.corpusChanged && corpus) await corpus.refresh();
    return report;
  };
}
