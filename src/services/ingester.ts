// Ingest as the running service offers it (admin interface, CLI through a running server, the scheduled run): one
// at a time in this process, the read model refreshed after each run that changed the corpus.
import type { CorpusHolder } from '../corpus/corpus-holder.js';
import { ingestRecords, runIngest, type IngestProgress, type IngestReport, type IngestSource } from '../ingest/run-ingest.js';
import type { DocumentStore } from '../store/port.js';

/** Serialises ingests in this process and refreshes the read model after each one that changed the corpus. */
export function createIngester(store: DocumentStore, corpus: CorpusHolder | undefined, now: () => Date): (source: IngestSource, onProgress?: IngestProgress) => Promise<IngestReport> {
  let chain: Promise<unknown> = Promise.resolve();
  return (source, onProgress) => {
    const run = chain.then(async () => {
      const deps = { store, now, ...(onProgress ? { onProgress } : {}) };
      const report =
        typeof source === 'string'
          ? await runIngest(deps, source)
          : await ingestRecords(deps, source.records.map((value, i) => ({ file: source.name ?? 'request', line: i + 1, value })));
      if (report.corpusChanged && corpus) await corpus.refresh();
      return report;
    });
    chain = run.catch(() => undefined);
    return run;
  };
}
