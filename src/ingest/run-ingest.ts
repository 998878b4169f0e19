// sources -> parse -> validate (ajv) -> diff -> upsert -> change log -> corpus version.
// Idempotent: a second run of the same input finds every record unchanged, writes nothing and says so.
import type { CanonicalDoc, CoverageRuleDoc, RegulatoryEventDoc, ResourceType } from '../domain/documents.js';
import { COLLECTION_OF, RESOURCE_TYPES } from '../domain/documents.js';
import { stableStringify } from '../domain/stable-json.js';
import { COLLECTIONS, readCorpusVersion } from '../store/collections.js';
import { commitIngest, replayJournal, withIngestLock } from './journal.js';
import type { DocumentStore, Keyed } from '../store/port.js';
import { eventChange, ruleFacts, type EventChangeLogEntry, type RuleFacts } from './change-facts.js';
import { readSources, type SourceRecord } from './read-sources.js';
import { validateDocument } from './validate.js';

export interface RejectedRecord {
  file: string;
  line: number;
  id?: string | number;
  reason: string;
}

export interface IngestReport {
  files: string[];
  received: number;
  added: number;
  changed: number;
  unchanged: number;
  retired: number;
  rejected: RejectedRecord[];
  byType: Partial<Record<ResourceType, { added: number; changed: number; unchanged: number }>>;
  corpusVersion: number;
  corpusChanged: boolean;
}

export interface ChangeLogEntry {
  id: string;
  at: string;
  corpusVersion: number;
  action: 'added' | 'changed' | 'retired';
  resourceType: 'CoverageRule';
  ruleId: string;
  jurisdiction: string;
  program: string;
  subject: { kind: string; code: string };
  payerId?: string;
  summary: string;
  sourceUrl: string;
  /** The served facts before (absent for an added rule) and after the change (the change feed shows old -> new). */
  before?: RuleFacts;
  after?: RuleFacts;
}

/** What an ingest reads: a file or directory path, or records sent inline (the admin interface, the CLI). */
export type IngestSource = string | { records: readonly unknown[]; name?: string };

export interface IngestDeps {
  store: DocumentStore;
  now: () => Date;
  /** Progress of long runs (the CLI draws a bar): records validated, then collections written. */
  onProgress?: IngestProgress;
}

export type IngestProgress = (p: { phase: 'validate' | 'write'; done: number; total: number }) => void;

/** The parts of a document that carry meaning: server-managed meta is left out of the comparison. */
function contentOf(doc: CanonicalDoc): string {
  if (doc.resourceType === 'CoverageRule') {
    const { meta: _meta, ...rest } = doc;
    return stableStringify(rest);
  }
  return stableStringify(doc);
}

function describeRule(rule: CoverageRuleDoc): string {
  const r = rule.requirement;
  const who = rule.payer ? ` (${rule.payer.name})` : '';
  return `${rule.jurisdiction} ${rule.program} ${rule.subject.kind} ${rule.subject.code}${who}: ${
    r.exclusion ? 'not covered (no PA route; a claim will be denied)' : r.paRequired ? `PA required (${r.paType})` : 'no PA required'
  }${r.population ? `, for ${r.population} only` : ''}`;
}

export async function runIngest(deps: IngestDeps, sourcePath: string): Promise<IngestReport> {
  const { files, records } = await readSources(sourcePath);
  return ingestRecords(deps, records, files);
}

export async function ingestRecords(deps: IngestDeps, records: readonly SourceRecord[], files: string[] = []): Promise<IngestReport> {
  const { store } = deps;
  const rejected: RejectedRecord[] = [];
  const valid = new Map<ResourceType, Map<string | number, CanonicalDoc>>(RESOURCE_TYPES.map((t) => [t, new Map()]));

  let seen = 0;
  for (const rec of records) {
    if (++seen % 500 === 0 || seen === records.length) deps.onProgress?.({ phase: 'validate', done: seen, total: records.length });
    if (rec.parseError) {
      rejected.push({ file: rec.file, line: rec.line, reason: rec.parseError });
      continue;
    }
    const result = validateDocument(rec.value);
    if (!result.ok) {
      const id = (rec.value as { id?: string | number } | null)?.id;
      rejected.push({ file: rec.file, line: rec.line, ...(id !== undefined ? { id } : {}), reason: result.reason });
      continue;
    }
    const bucket = valid.get(result.doc.resourceType)!;
    if (bucket.has(result.doc.id)) {
      rejected.push({ file: rec.file, line: rec.line, id: result.doc.id, reason: `duplicate ${result.doc.resourceType} id in this ingest` });
      continue;
    }
    bucket.set(result.doc.id, result.doc);
  }

  // A payer-level rule must name a payer the store (or this ingest) knows.
  const rules = valid.get('CoverageRule')!;
  const payerIds = [...new Set([...rules.values()].map((r) => (r as CoverageRuleDoc).payer?.id).filter((x): x is string => !!x))];
  if (payerIds.length) {
    const known = new Set([
      ...valid.get('Payer')!.keys(),
      ...(await store.collection<Keyed>(COLLECTIONS.payers).find({ id: { $in: payerIds } })).map((p) => p.id),
    ]);
    for (const rec of records) {
      const v = rec.value as CoverageRuleDoc | undefined;
      if (v?.resourceType !== 'CoverageRule' || !v.payer || known.has(v.payer.id) || rules.get(v.id) !== v) continue;
      rules.delete(v.id);
      rejected.push({ file: rec.file, line: rec.line, id: v.id, reason: `payer '${v.payer.id}' is not known (ingest its Payer document first)` });
    }
  }

  // Diff and write under the store-wide ingest lock, after finishing any ingest a crash interrupted: what is
  // compared is what is stored, and the journal makes the writes, their change log and the version one unit.
  return withIngestLock(store, async () => {
    await replayJournal(store);
    return diffAndCommit(store, deps.now(), valid, rejected, records.length, files, deps.onProgress);
  });
}

async function diffAndCommit(
  store: DocumentStore,
  now: Date,
  valid: Map<ResourceType, Map<string | number, CanonicalDoc>>,
  rejected: RejectedRecord[],
  received: number,
  files: string[],
  onProgress?: IngestProgress,
): Promise<IngestReport> {
  const report: IngestReport = {
    files,
    received,
    added: 0,
    changed: 0,
    unchanged: 0,
    retired: 0,
    rejected,
    byType: {},
    corpusVersion: await readCorpusVersion(store),
    corpusChanged: false,
  };
  const pendingWrites: { type: ResourceType; docs: CanonicalDoc[] }[] = [];
  const changes: (Omit<ChangeLogEntry, 'id' | 'corpusVersion'> | Omit<EventChangeLogEntry, 'id' | 'corpusVersion'>)[] = [];

  for (const type of RESOURCE_TYPES) {
    const incoming = valid.get(type)!;
    if (!incoming.size) continue;
    const collection = store.collection<Keyed & CanonicalDoc>(COLLECTION_OF[type]);
    const existing = new Map(
      (await collection.find({ id: { $in: [...incoming.keys()] } })).map((d) => [d.id, d as CanonicalDoc]),
    );
    const counts = { added: 0, changed: 0, unchanged: 0 };
    const writes: CanonicalDoc[] = [];
    for (const doc of incoming.values()) {
      const before = existing.get(doc.id);
      if (before && contentOf(before) === contentOf(doc)) {
        counts.unchanged++;
        continue;
      }
      let toWrite: CanonicalDoc = doc;
      if (doc.resourceType === 'CoverageRule') {
        const prev = before as CoverageRuleDoc | undefined;
        const versionId = String(Number(prev?.meta?.versionId ?? 0) + 1);
        toWrite = { ...doc, meta: { versionId, lastUpdated: now.toISOString() } };
        const retiredNow = doc.verification.status === 'retired' && prev?.verification.status !== 'retired';
        changes.push({
          at: now.toISOString(),
          action: retiredNow ? 'retired' : prev ? 'changed' : 'added',
          resourceType: 'CoverageRule',
          ruleId: doc.id,
          jurisdiction: doc.jurisdiction,
          program: doc.program,
          subject: doc.subject,
          ...(doc.payer ? { payerId: doc.payer.id } : {}),
          summary: describeRule(doc),
          sourceUrl: doc.source.url,
          ...(prev ? { before: ruleFacts(prev) } : {}),
          after: ruleFacts(doc),
        });
        if (retiredNow) report.retired++;
      }
      if (doc.resourceType === 'RegulatoryEvent') changes.push(eventChange(doc as RegulatoryEventDoc, !!before, now.toISOString()));
      if (before) counts.changed++;
      else counts.added++;
      writes.push(toWrite);
    }
    report.byType[type] = counts;
    report.added += counts.added;
    report.changed += counts.changed;
    report.unchanged += counts.unchanged;
    if (writes.length) pendingWrites.push({ type, docs: writes });
  }

  if (!pendingWrites.length) return report;

  const version = report.corpusVersion + 1;
  await commitIngest(store, version, pendingWrites, changes, now.toISOString());
  onProgress?.({ phase: 'write', done: pendingWrites.length, total: pendingWrites.length });
  report.corpusVersion = version;
  report.corpusChanged = true;
  return report;
}
