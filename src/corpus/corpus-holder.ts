// Holds the current read model and swaps it atomically: readers take `holder.current` once per request and
// never see a half-built model. Rebuilds when the store's corpus version moves (an ingest in this process, or
// another instance's ingest seen by polling).
import type { CodeMappingDoc, CoverageRuleDoc, DrugCrosswalkDoc, JurisdictionDoc, PayerDoc, RegulatoryEventDoc, TopicDoc } from '../domain/documents.js';
import { COLLECTIONS, readCorpusVersion } from '../store/collections.js';
import type { DocumentStore, Keyed } from '../store/port.js';
import { buildReadModel, type ReadModel, type ReadModelOptions } from './read-model.js';

export interface CorpusHolder {
  readonly current: ReadModel;
  /** Rebuilds if the stored version differs from the current one; resolves true when it swapped. */
  refresh(): Promise<boolean>;
  startPolling(intervalMs: number, onError: (err: unknown) => void): void;
  stop(): void;
}

type K<T> = T & Keyed;

export async function loadReadModel(store: DocumentStore, options: ReadModelOptions = {}): Promise<ReadModel> {
  const version = await readCorpusVersion(store);
  const [rules, jurisdictions, payers, drugs, codeMappings, events, topics] = await Promise.all([
    store.collection<K<CoverageRuleDoc>>(COLLECTIONS.rules).find({}),
    store.collection<K<JurisdictionDoc>>(COLLECTIONS.jurisdictions).find({}),
    store.collection<K<PayerDoc>>(COLLECTIONS.payers).find({}),
    store.collection<K<DrugCrosswalkDoc>>(COLLECTIONS.drugs).find({}),
    store.collection<K<CodeMappingDoc>>(COLLECTIONS.codeMappings).find({}),
    store.collection<K<RegulatoryEventDoc>>(COLLECTIONS.events).find({}),
    store.collection<K<TopicDoc>>(COLLECTIONS.topics).find({}),
  ]);
  return buildReadModel({ rules, jurisdictions, payers, drugs, codeMappings, events, topics }, version, new Date(), options);
}

export async function createCorpusHolder(store: DocumentStore, options: ReadModelOptions = {}): Promise<CorpusHolder> {
  let current = await loadReadModel(store, options);
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<boolean> | undefined;

  async function rebuildIfStale(): Promise<boolean> {
    const version = await readCorpusVersion(store);
    if (version === current.version) return false;
    const next = await loadReadModel(store, options);
    if (next.version < current.version) return false;
    current = next;
    return true;
  }

  const holder: CorpusHolder = {
    get current() {
      return current;
    },
    refresh() {
      // Coalesce concurrent refreshes into one rebuild.
      inFlight ??= rebuildIfStale().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    startPolling(intervalMs, onError) {
      timer = setInterval(() => {
        holder.refresh().catch(onError);
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
  return holder;
}
