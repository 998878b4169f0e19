// The ingest change log: the facts each entry records, and the write-ahead journal that keeps a changed rule from
// ever standing without its entry (kill -9 in test/e2e/kill-ingest.test.ts; here the parts, ids, ordering and
// replay rules one by one, over an in-memory store). Written for the mutation run (issue 26).
import { expect } from 'chai';
import type { CanonicalDoc, CoverageRuleDoc, RegulatoryEventDoc } from '../../src/domain/documents.js';
import { eventChange, ruleFacts } from '../../src/ingest/change-facts.js';
import { changeId, commitIngest, recoverIngests, replayJournal } from '../../src/ingest/journal.js';
import { DRUG_CLASSES, PROGRAMS } from '../../src/domain/vocabulary.js';
import { COLLECTIONS } from '../../src/store/collections.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import type { DocumentStore, Keyed } from '../../src/store/port.js';
import { rule } from '../support/docs.js';

const AT = '2026-02-03T04:05:06.000Z';
type Entry = Keyed & { corpusVersion: number; n?: number };

const event = (over: Partial<RegulatoryEventDoc> = {}): RegulatoryEventDoc => ({
  resourceType: 'RegulatoryEvent', id: 7, jurisdiction: 'TX', eventKind: 'pa_rule_change', title: 'New PA list', issuedAt: '2026-01-01',
  effectiveAt: '2026-03-01', paRelevant: true, topics: [], ...over,
});

/** Many distinct rules (states x programs x drug classes). */
function rules(n: number): CoverageRuleDoc[] {
  const out: CoverageRuleDoc[] = [];
  for (const state of ['TX', 'CA', 'NY', 'FL', 'OH', 'PA', 'IL', 'GA', 'NC', 'MI']) for (const program of PROGRAMS) for (const code of DRUG_CLASSES) out.push(rule({ state, program, code }));
  if (out.length < n) throw new Error(`only ${out.length} rules`);
  return out.slice(0, n);
}

/** A store whose rule writes fail once armed: the ingest dies after its journal's commit point. */
function failingRuleWrites(store: DocumentStore): { store: DocumentStore; arm(): void } {
  let armed = false;
  return {
    arm: () => (armed = true),
    store: {
      ...store,
      collection: (<T extends Keyed>(name: string) => {
        const c = store.collection<T>(name);
        if (name !== COLLECTIONS.rules) return c;
        return { ...c, upsertMany: (docs: readonly T[]) => (armed ? Promise.reject(new Error('killed')) : c.upsertMany(docs)) };
      }) as DocumentStore['collection'],
    },
  };
}

describe('change facts: what a change-log entry says', () => {
  it('ruleFacts: the six served facts, old and new', () => {
    const r = rule({ state: 'TX', program: 'chip', code: 'hepatitis_c' });
    expect(ruleFacts(r)).to.deep.equal({
      paRequired: r.requirement.paRequired, paType: r.requirement.paType, sourceUrl: r.source.url, sourceTitle: r.source.title,
      lastVerified: r.verification.lastVerified, status: r.verification.status,
    });
  });

  it('eventChange: added or changed, the event fields, and a one-line summary with the kind in words', () => {
    expect(eventChange(event(), false, AT)).to.deep.equal({
      at: AT, action: 'added', resourceType: 'RegulatoryEvent', eventId: 7, jurisdiction: 'TX', programs: [], eventKind: 'pa_rule_change',
      title: 'New PA list', issuedAt: '2026-01-01', effectiveAt: '2026-03-01', summary: 'TX pa rule change: New PA list (effective 2026-03-01)',
    });
    const full = eventChange(event({ programs: ['chip', 'part_d'], ruleId: 'CMS-0057-F', sourceUrl: 'https://www.cms.gov/x' }), true, AT);
    expect(full).to.include({ action: 'changed', federalRuleId: 'CMS-0057-F', sourceUrl: 'https://www.cms.gov/x' });
    expect(full.programs).to.deep.equal(['chip', 'part_d']);
    expect(eventChange(event({ sourceUrl: null }), true, AT)).to.not.have.property('sourceUrl');
  });
});

describe('the ingest journal: write-ahead, then applied, then deleted', () => {
  it('changeId: the version and the entry number from 1, zero-padded to six digits', () => {
    expect(changeId(7, 0)).to.equal('7-000001');
    expect(changeId(12, 41)).to.equal('12-000042');
  });

  it('when an ingest commits, then its documents, its numbered entries and the version are written and the journal is empty', async () => {
    const store = await openEmbeddedStore({});
    const docs = rules(3);
    await commitIngest(store, 4, [{ type: 'CoverageRule', docs }], [{ n: 1 }, { n: 2 }, { n: 3 }], AT);
    expect((await store.collection<Keyed>(COLLECTIONS.rules).find({})).map((d) => d.id).sort()).to.deep.equal(docs.map((d) => d.id).sort());
    const changes = (await store.collection<Entry>(COLLECTIONS.changes).find({})).sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(changes.map(({ id, corpusVersion, n }) => ({ id, corpusVersion, n }))).to.deep.equal([
      { id: '4-000001', corpusVersion: 4, n: 1 }, { id: '4-000002', corpusVersion: 4, n: 2 }, { id: '4-000003', corpusVersion: 4, n: 3 },
    ]);
    expect(await store.collection<Keyed & { version: number; updatedAt: string }>(COLLECTIONS.meta).findOne({ id: 'corpus' })).to.deep.include({ version: 4, updatedAt: AT });
    expect(await store.collection<Keyed>(COLLECTIONS.ingestJournal).count({})).to.equal(0);
  });

  it('when an older version is applied after a newer one, then the corpus version does not move back', async () => {
    const store = await openEmbeddedStore({});
    await commitIngest(store, 5, [], [{ n: 1 }], AT);
    await commitIngest(store, 3, [], [{ n: 1 }], '2026-02-04T00:00:00.000Z');
    expect(await store.collection<Keyed & { version: number; updatedAt: string }>(COLLECTIONS.meta).findOne({ id: 'corpus' })).to.deep.include({ version: 5, updatedAt: AT });
  });

  it('when an ingest has nothing to change, then no entry is written but the version still moves', async () => {
    const store = await openEmbeddedStore({});
    await commitIngest(store, 2, [{ type: 'CoverageRule', docs: [] }], [], AT);
    expect(await store.collection<Keyed>(COLLECTIONS.changes).count({})).to.equal(0);
    expect(await store.collection<Keyed & { version: number }>(COLLECTIONS.meta).findOne({ id: 'corpus' })).to.have.property('version', 2);
  });

  it('when an ingest dies after its commit point, then the journal holds the head and its parts (200 documents, 1000 entries a part) and a replay finishes it', async () => {
    const base = await openEmbeddedStore({});
    const { store, arm } = failingRuleWrites(base);
    const docs = rules(450);
    const changes = Array.from({ length: 1001 }, (_, n) => ({ n }));
    arm();
    const err = await commitIngest(store, 9, [{ type: 'CoverageRule', docs }], changes, AT).then(() => null, (e: Error) => e);
    expect(err?.message).to.equal('killed');
    const journal = await base.collection<Keyed & { kind: string; version: number; parts?: number; docs?: unknown[]; changes?: unknown[]; at?: string }>(COLLECTIONS.ingestJournal).find({});
    const head = journal.find((j) => j.kind === 'head');
    expect(head).to.deep.include({ id: '9', version: 9, parts: 5, at: AT });
    const parts = journal.filter((j) => j.kind === 'part').sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(parts.map((p) => [p.id, p.version, p.docs?.length ?? 0, p.changes?.length ?? 0])).to.deep.equal([
      ['9-0', 9, 200, 0], ['9-1', 9, 200, 0], ['9-2', 9, 50, 0], ['9-3', 9, 0, 1000], ['9-4', 9, 0, 1],
    ]);
    expect(await base.collection<Keyed>(COLLECTIONS.meta).findOne({ id: 'corpus' }), 'the version moves last').to.equal(null);

    expect(await replayJournal(base)).to.deep.equal([9]);
    expect(await base.collection<Keyed>(COLLECTIONS.rules).count({})).to.equal(450);
    const entries = await base.collection<Entry>(COLLECTIONS.changes).find({});
    expect(entries.length).to.equal(1001);
    expect(entries.find((e) => e.n === 1000)).to.deep.include({ id: '9-001001', corpusVersion: 9 });
    expect(entries.find((e) => e.n === 0)).to.deep.include({ id: '9-000001' });
    expect(await base.collection<Keyed>(COLLECTIONS.ingestJournal).count({})).to.equal(0);
    expect(await base.collection<Keyed & { version: number }>(COLLECTIONS.meta).findOne({ id: 'corpus' })).to.have.property('version', 9);
  });

  it('when parts were left by a run that died before its head, then a replay drops them and applies nothing; a later commit of that version replaces them', async () => {
    const store = await openEmbeddedStore({});
    const journal = store.collection<Keyed & Record<string, unknown>>(COLLECTIONS.ingestJournal);
    await journal.upsertMany([{ id: '3-0', kind: 'part', version: 3, type: 'CoverageRule', docs: rules(1) }, { id: '3-7', kind: 'part', version: 3, changes: [{ n: 1 }] }]);
    expect(await replayJournal(store)).to.deep.equal([]);
    expect(await journal.count({})).to.equal(0);
    expect(await store.collection<Keyed>(COLLECTIONS.rules).count({})).to.equal(0);
    expect(await store.collection<Keyed>(COLLECTIONS.changes).count({})).to.equal(0);

    await journal.upsertMany([{ id: '3-7', kind: 'part', version: 3, changes: [{ n: 99 }] }]);
    await commitIngest(store, 3, [], [{ n: 1 }], AT);
    expect((await store.collection<Entry>(COLLECTIONS.changes).find({})).map((e) => e.n)).to.deep.equal([1]);
  });

  it('when two journalled ingests are left, then both are replayed oldest first, their parts in order, and the version ends at the newest', async () => {
    const store = await openEmbeddedStore({});
    const journal = store.collection<Keyed & Record<string, unknown>>(COLLECTIONS.ingestJournal);
    const [a, b] = rules(2) as [CanonicalDoc, CanonicalDoc];
    // Version 6 writes rule a, then (part 10, after part 2 in number order, before it as text) rule a again changed.
    const a2 = { ...a, title: 'changed in part 10' } as CanonicalDoc;
    await journal.upsertMany([
      { id: '6-10', kind: 'part', version: 6, type: 'CoverageRule', docs: [a2] },
      { id: '6-2', kind: 'part', version: 6, type: 'CoverageRule', docs: [a] },
      { id: '6', kind: 'head', version: 6, at: AT, parts: 2 },
      { id: '5-0', kind: 'part', version: 5, type: 'CoverageRule', docs: [b], changes: [{ n: 5 }] },
      { id: '5', kind: 'head', version: 5, at: AT, parts: 1 },
    ]);
    expect(await recoverIngests(store)).to.deep.equal([5, 6]);
    expect(await store.collection<Keyed & { title?: string }>(COLLECTIONS.rules).findOne({ id: a.id })).to.have.property('title', 'changed in part 10');
    expect(await store.collection<Keyed & { version: number }>(COLLECTIONS.meta).findOne({ id: 'corpus' })).to.have.property('version', 6);
    expect(await store.collection<Entry>(COLLECTIONS.changes).findOne({ id: '5-000001' })).to.deep.include({ n: 5, corpusVersion: 5 });
    expect(await journal.count({})).to.equal(0);
  });

  it('when versions 9 and 10 are both left (10 sorts before 9 as text), then 9 is replayed first and 10 has the last word', async () => {
    const store = await openEmbeddedStore({});
    const journal = store.collection<Keyed & Record<string, unknown>>(COLLECTIONS.ingestJournal);
    const [a] = rules(1) as [CanonicalDoc];
    await journal.upsertMany([
      { id: '10-0', kind: 'part', version: 10, type: 'CoverageRule', docs: [{ ...a, title: 'version 10' }] },
      { id: '10', kind: 'head', version: 10, at: AT, parts: 1 },
      { id: '9-0', kind: 'part', version: 9, type: 'CoverageRule', docs: [{ ...a, title: 'version 9' }] },
      { id: '9', kind: 'head', version: 9, at: AT, parts: 1 },
    ]);
    expect(await replayJournal(store)).to.deep.equal([9, 10]);
    expect(await store.collection<Keyed & { title?: string }>(COLLECTIONS.rules).findOne({ id: a.id })).to.have.property('title', 'version 10');
    expect(await store.collection<Keyed & { version: number }>(COLLECTIONS.meta).findOne({ id: 'corpus' })).to.have.property('version', 10);
  });

  it('when a head lacks some of its parts, then replay refuses it, saying how many it has', async () => {
    const store = await openEmbeddedStore({});
    const journal = store.collection<Keyed & Record<string, unknown>>(COLLECTIONS.ingestJournal);
    await journal.upsertMany([{ id: '8-0', kind: 'part', version: 8, changes: [{ n: 1 }] }, { id: '8', kind: 'head', version: 8, at: AT, parts: 2 }]);
    const err = await replayJournal(store).then(() => null, (e: Error) => e);
    expect(err?.message).to.equal('ingest journal 8 has 1 of its 2 parts');
  });
});
