import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCorpusHolder } from '../../src/corpus/corpus-holder.js';
import { ruleKey } from '../../src/corpus/read-model.js';
import { runIngest, type ChangeLogEntry } from '../../src/ingest/run-ingest.js';
import { COLLECTIONS, readCorpusVersion } from '../../src/store/collections.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import { openMongoStore } from '../../src/store/mongo/mongo-store.js';
import type { DocumentStore } from '../../src/store/port.js';
import { jurisdiction, payer, rule } from '../support/docs.js';

const now = () => new Date('2026-11-21T12:00:00.000Z');

function writeNdjson(dir: string, name: string, lines: (object | string)[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

const stores: [string, () => Promise<DocumentStore>][] = [['embedded', () => openEmbeddedStore({})]];
if (process.env.MONGODB_URI) {
  stores.push(['mongo', () => openMongoStore(process.env.MONGODB_URI!, `prauth_ingest_${process.pid}_${Date.now()}`)]);
}

for (const [name, open] of stores) {
  describe(`ingest (${name} store)`, () => {
    let store: DocumentStore;
    let dir: string;
    beforeEach(async () => {
      store = await open();
      dir = mkdtempSync(join(tmpdir(), 'prauth-ingest-'));
    });
    afterEach(async () => {
      if ('db' in store) await (store as { db: { dropDatabase(): Promise<unknown> } }).db.dropDatabase();
      await store.close();
    });

    it('when a file has good and bad records, then good ones apply, bad ones are reported with file, line and reason', async () => {
      const file = writeNdjson(dir, 'rules.ndjson', [
        jurisdiction('TX'),
        rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' }),
        '{"resourceType": "CoverageRule", "id": ',
        { ...rule({ state: 'TX', program: 'chip', code: 'dental', kind: 'service' }), program: 'medigap' },
        { resourceType: 'Nope', id: 'x' },
        rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' }),
      ]);
      const report = await runIngest({ store, now }, file);
      expect(report).to.include({ received: 6, added: 2, changed: 0, unchanged: 0, corpusVersion: 1, corpusChanged: true });
      expect(report.rejected.map((r) => [r.file, r.line])).to.deep.equal([
        ['rules.ndjson', 3],
        ['rules.ndjson', 4],
        ['rules.ndjson', 5],
        ['rules.ndjson', 6],
      ]);
      expect(report.rejected[0]!.reason).to.match(/malformed JSON/);
      expect(report.rejected[1]!.reason).to.match(/\/program must be one of medicaid_mco/);
      expect(report.rejected[2]!.reason).to.match(/resourceType must be one of/);
      expect(report.rejected[3]!.reason).to.match(/duplicate CoverageRule id/);
    });

    it('when the same input is ingested twice, then the second run changes nothing and says so', async () => {
      const file = writeNdjson(dir, 'a.ndjson', [jurisdiction('TX'), rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' })]);
      const first = await runIngest({ store, now }, file);
      const second = await runIngest({ store, now }, file);
      expect(first.corpusVersion).to.equal(1);
      expect(second).to.include({ added: 0, changed: 0, unchanged: 2, corpusVersion: 1, corpusChanged: false });
      expect(await store.collection(COLLECTIONS.changes).count()).to.equal(1);
    });

    it('when a rule changes and another is retired, then the change log says added, changed, retired and the version moves', async () => {
      const base = rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' });
      const other = rule({ state: 'TX', program: 'medicaid_mco', code: 'biosimilars' });
      await runIngest({ store, now }, writeNdjson(dir, '1.ndjson', [jurisdiction('TX'), base, other]));
      const changed = { ...base, requirement: { ...base.requirement, paType: 'step_therapy' as const } };
      const retired = { ...other, verification: { ...other.verification, status: 'retired' as const } };
      const report = await runIngest({ store, now }, writeNdjson(dir, '2.ndjson', [changed, retired]));
      expect(report).to.include({ changed: 2, retired: 1, corpusVersion: 2 });
      const log = await store.collection<ChangeLogEntry>(COLLECTIONS.changes).find({}, { sort: { id: 1 } });
      const entries = log.map((e) => `${e.corpusVersion} ${e.action} ${e.ruleId}`).sort();
      expect(entries).to.deep.equal([
        '1 added tx.medicaid-mco.d.biosimilars',
        '1 added tx.medicaid-mco.d.hepatitis-c',
        '2 changed tx.medicaid-mco.d.hepatitis-c',
        '2 retired tx.medicaid-mco.d.biosimilars',
      ]);
      const stored = await store.collection<{ id: string; meta: { versionId: string } }>(COLLECTIONS.rules).findOne({ id: base.id });
      expect(stored!.meta.versionId).to.equal('2');
    });

    it('when a payer-level rule names an unknown payer, then it is rejected; with the payer ingested first it applies', async () => {
      const p = payer('tx-superior', 'Superior HealthPlan', ['TX']);
      const r = rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', payer: { id: p.id, name: p.name } });
      const bad = await runIngest({ store, now }, writeNdjson(dir, 'r.ndjson', [r]));
      expect(bad.rejected[0]!.reason).to.match(/payer 'tx-superior' is not known/);
      const good = await runIngest({ store, now }, writeNdjson(dir, 'pr.ndjson', [p, r]));
      expect(good.rejected).to.deep.equal([]);
      expect(good.added).to.equal(2);
      // The change-log entry names the payer (the feed and notify-when-ready filter on it).
      const entry = await store.collection<ChangeLogEntry>(COLLECTIONS.changes).findOne({ ruleId: r.id });
      expect(entry).to.include({ ruleId: r.id, payerId: 'tx-superior', action: 'added', jurisdiction: 'TX', program: 'medicaid_mco' });
    });

    it('when another instance ingests, then a second read model over the same store sees it on refresh (atomic swap)', async () => {
      const a = await createCorpusHolder(store);
      const b = await createCorpusHolder(store);
      const before = b.current;
      await runIngest({ store, now }, writeNdjson(dir, 'x.ndjson', [jurisdiction('TX'), rule({ state: 'TX', program: 'chip', code: 'hepatitis_c' })]));
      expect(b.current).to.equal(before); // untouched until the version is seen
      expect(await b.refresh()).to.equal(true);
      expect(await b.refresh()).to.equal(false);
      expect(b.current.rules.has(ruleKey('TX', 'chip', 'drug', 'hepatitis_c'))).to.equal(true);
      expect(before.rules.size).to.equal(0); // the old model is never mutated
      expect(await a.refresh()).to.equal(true);
      expect(a.current.version).to.equal(await readCorpusVersion(store));
    });
  });
}
