// One contract, every adapter: embedded (in memory and on disk) always, MongoDB when MONGODB_URI is set.
import { COLLECTIONS } from '../../src/store/collections.js';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import { openMongoStore } from '../../src/store/mongo/mongo-store.js';
import { DuplicateKeyError, type DocumentStore } from '../../src/store/port.js';

interface Thing {
  id: string;
  kind: string;
  n: number;
  tags?: string[];
  nested?: { a: number };
}

interface AdapterCase {
  name: string;
  open(): Promise<DocumentStore>;
  /** Re-open the same data (persistence); undefined for in-memory. */
  reopen?(): Promise<DocumentStore>;
  /** A second, independent handle on the same data (another instance); only where several may share it. */
  second?(): Promise<DocumentStore>;
  cleanup(): Promise<void>;
}

function embeddedOnDisk(): AdapterCase {
  const dir = mkdtempSync(join(tmpdir(), 'prauth-store-'));
  return {
    name: 'embedded (file-backed)',
    open: () => openEmbeddedStore({ dataDir: dir }),
    reopen: () => openEmbeddedStore({ dataDir: dir }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

const cases: AdapterCase[] = [
  { name: 'embedded (in memory)', open: () => openEmbeddedStore({}), cleanup: async () => undefined },
  embeddedOnDisk(),
];
const mongoUri = process.env.MONGODB_URI;
if (mongoUri) {
  const dbName = `prauth_contract_${process.pid}_${Date.now()}`;
  cases.push({
    name: 'mongo',
    open: () => openMongoStore(mongoUri, dbName),
    reopen: () => openMongoStore(mongoUri, dbName),
    second: () => openMongoStore(mongoUri, dbName),
    cleanup: async () => {
      const s = await openMongoStore(mongoUri, dbName);
      await s.db.dropDatabase();
      await s.close();
    },
  });
}

describe('DocumentStore contract', () => {
  if (!mongoUri) {
    it('runs against MongoDB only when MONGODB_URI is set (skipped: no MONGODB_URI; `MONGODB_URI=mongodb://... npm run test:mongo`)', function () {
      this.skip();
    });
  }

  for (const c of cases) {
    describe(c.name, () => {
      let store: DocumentStore;
      before(async () => {
        store = await c.open();
      });
      after(async () => {
        await store.close();
        await c.cleanup();
      });

      it('when documents are inserted, then find and findOne return plain objects without _id', async () => {
        const col = store.collection<Thing>('things');
        await col.ensureIndex('kind');
        await col.insert({ id: 'a', kind: 'x', n: 1, nested: { a: 1 } });
        await col.insert({ id: 'b', kind: 'y', n: 2 });
        await col.insert({ id: 'c', kind: 'x', n: 3, tags: ['t'] });
        const one = await col.findOne({ id: 'a' });
        expect(one).to.deep.equal({ id: 'a', kind: 'x', n: 1, nested: { a: 1 } });
        const xs = await col.find({ kind: 'x' }, { sort: { n: -1 } });
        expect(xs.map((d) => d.id)).to.deep.equal(['c', 'a']);
        expect(xs.every((d) => !('_id' in d))).to.equal(true);
      });

      it('when an opaque field holds whatever a client sent (nested arrays, prototype-named keys), then it is stored and read back whole by insert, upsert and update', async () => {
        // OPAQUE_FIELDS: a PAS request Bundle is the client's JSON; FerretDB 1.x refuses nested arrays in documents.
        const col = store.collection<{ id: string; owner: string; request: unknown }>(COLLECTIONS.pasSubmissions);
        const odd = JSON.parse('{"resourceType":"Bundle","entry":[[null],[[1,[2]]]],"constructor":{"toString":false},"__proto__":{"valueOf":1},"a.b":{"$x":1}}') as unknown;
        await col.insert({ id: 'opaque-1', owner: 'k', request: odd });
        expect(await col.findOne({ id: 'opaque-1' })).to.deep.equal({ id: 'opaque-1', owner: 'k', request: odd });
        await col.upsertMany([{ id: 'opaque-2', owner: 'k', request: odd }]);
        expect((await col.find({ owner: 'k' }, { sort: { id: 1 } })).map((d) => d.request)).to.deep.equal([odd, odd]);
        const changed = { resourceType: 'Bundle', entry: [[[]]] };
        expect(await col.update({ id: 'opaque-1' }, { request: changed })).to.equal(1);
        expect((await col.findOne({ id: 'opaque-1' }))!.request).to.deep.equal(changed);
      });

      it('when a duplicate id is inserted, then DuplicateKeyError', async () => {
        const col = store.collection<Thing>('things');
        try {
          await col.insert({ id: 'a', kind: 'z', n: 9 });
          expect.fail('no error');
        } catch (err) {
          expect(err).to.be.instanceOf(DuplicateKeyError);
        }
        expect((await col.findOne({ id: 'a' }))!.kind).to.equal('x');
      });

      it('when queried with the Mongo dialect subset ($in, $gt, $exists, dotted paths), then both adapters agree', async () => {
        const col = store.collection<Thing>('things');
        expect((await col.find({ id: { $in: ['a', 'b', 'zz'] } }, { sort: { id: 1 } })).map((d) => d.id)).to.deep.equal(['a', 'b']);
        expect((await col.find({ n: { $gt: 1 } }, { sort: { id: 1 } })).map((d) => d.id)).to.deep.equal(['b', 'c']);
        expect((await col.find({ tags: { $exists: true } })).map((d) => d.id)).to.deep.equal(['c']);
        expect((await col.find({ 'nested.a': 1 })).map((d) => d.id)).to.deep.equal(['a']);
        expect((await col.find({}, { sort: { n: 1 }, skip: 1, limit: 1 })).map((d) => d.id)).to.deep.equal(['b']);
        expect(await col.count({ kind: 'x' })).to.equal(2);
      });

      it('when upsertMany replaces and adds, then documents are replaced whole, not merged', async () => {
        const col = store.collection<Thing>('things');
        await col.upsertMany([
          { id: 'a', kind: 'x2', n: 10 },
          { id: 'd', kind: 'y', n: 4 },
        ]);
        expect(await col.findOne({ id: 'a' })).to.deep.equal({ id: 'a', kind: 'x2', n: 10 });
        expect(await col.count()).to.equal(4);
      });

      it('when update and delete match several, then the counts say how many', async () => {
        const col = store.collection<Thing>('things');
        expect(await col.update({ kind: 'y' }, { n: 99 })).to.equal(2);
        expect((await col.find({ n: 99 })).length).to.equal(2);
        expect(await col.delete({ kind: 'y' })).to.equal(2);
        expect(await col.count()).to.equal(2);
      });

      it('when increments race, then none is lost', async () => {
        const col = store.collection<{ id: string; count: number; month: string }>('counters');
        await Promise.all(Array.from({ length: 50 }, () => col.increment('k1', 'count', 1, { id: 'k1', month: '2026-11' })));
        const doc = await col.findOne({ id: 'k1' });
        expect(doc).to.deep.include({ count: 50, month: '2026-11' });
      });

      // FerretDB 1.x (CI's MongoDB-compatible server) runs update operators unisolated: the adapter serialises
      // them per document, and these two cases are what proves it (they failed on FerretDB before).
      it('when conditional updates (compare-and-set) race, then exactly one matches', async () => {
        const col = store.collection<{ id: string; v: number; by?: number }>('cas');
        await col.insert({ id: 'c1', v: 0 });
        const matched = await Promise.all(Array.from({ length: 20 }, (_, i) => col.update({ id: 'c1', v: 0 }, { v: 1, by: i })));
        expect(matched.reduce((a, b) => a + b, 0)).to.equal(1);
        expect((await col.findOne({ id: 'c1' }))?.v).to.equal(1);
      });

      it('when two handles on the same store increment the same document, then none is lost', async function () {
        if (!c.second) this.skip();
        const other = await c.second!();
        const a = store.collection<{ id: string; count: number }>('counters2');
        const b = other.collection<{ id: string; count: number }>('counters2');
        await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).increment('k', 'count', 1, { id: 'k' })));
        expect((await a.findOne({ id: 'k' }))?.count).to.equal(30);
        await other.close();
      });

      if (c.reopen) {
        it('when the store is closed and opened again, then every acknowledged write is there', async () => {
          await store.close();
          store = await c.reopen!();
          const col = store.collection<Thing>('things');
          expect((await col.find({}, { sort: { id: 1 } })).map((d) => [d.id, d.n])).to.deep.equal([
            ['a', 10],
            ['c', 3],
          ]);
          expect((await store.collection<{ id: string; count: number }>('counters').findOne({ id: 'k1' }))!.count).to.equal(50);
        });
      }
    });
  }
});
