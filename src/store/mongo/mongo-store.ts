// MongoDB adapter through the official driver: the production and scale-out path. The natural key `id` is
// stored as `_id`, so upserts by id are single-document atomic operations and need no extra unique index.
import { MongoClient, MongoServerError, type Collection as MongoCollection, type Db, type Document } from 'mongodb';
import type { Collection, DocumentStore, Filter, FindOptions, Keyed } from '../port.js';
import { DuplicateKeyError } from '../port.js';
import { withLock, type LockDoc } from '../locks.js';
import { packerFor, type Packer } from '../opaque.js';

/** The collection of lease locks (see ../locks.ts). */
export const LOCKS_COLLECTION = 'locks';

function strip<T extends Keyed>(doc: Document | null, packer: Packer): T | null {
  if (!doc) return null;
  const { _id: _ignored, ...rest } = doc;
  return packer.unpack(rest) as T;
}

function toFilter(filter: Filter): Document {
  // Queries by `id` use the primary key.
  if (Object.prototype.hasOwnProperty.call(filter, 'id')) {
    const { id, ...rest } = filter as Record<string, unknown>;
    return { ...rest, _id: id };
  }
  return filter as Document;
}

const docLock = (collection: string, id: string | number): string => `doc|${collection}|${String(id)}`;

class MongoCollectionAdapter<T extends Keyed> implements Collection<T> {
  private readonly packer: Packer;

  constructor(
    private readonly name: string,
    private readonly c: MongoCollection<Document>,
    private readonly locks?: () => Collection<LockDoc>,
  ) {
    this.packer = packerFor(name);
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.c.find(toFilter(filter));
    if (options.sort) cursor = cursor.sort(options.sort as Record<string, 1 | -1>);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    const docs = await cursor.toArray();
    return docs.map((d) => strip<T>(d, this.packer)!);
  }

  async findOne(filter: Filter): Promise<T | null> {
    return strip<T>(await this.c.findOne(toFilter(filter)), this.packer);
  }

  async insert(doc: T): Promise<void> {
    try {
      await this.c.insertOne({ ...this.packer.pack(doc as unknown as Record<string, unknown>), _id: doc.id } as Document, { writeConcern: { w: 'majority', j: true } });
    } catch (err) {
      if (err instanceof MongoServerError && err.code === 11000) throw new DuplicateKeyError(this.name, doc.id);
      throw err;
    }
  }

  async upsertMany(docs: readonly T[]): Promise<void> {
    if (!docs.length) return;
    await this.c.bulkWrite(
      docs.map((d) => ({
        replaceOne: { filter: { _id: d.id } as Document, replacement: { ...this.packer.pack(d as unknown as Record<string, unknown>), _id: d.id } as Document, upsert: true },
      })),
      { ordered: false, writeConcern: { w: 'majority', j: true } },
    );
  }

  async update(filter: Filter, changes: Readonly<Partial<T>>): Promise<number> {
    const set = this.packer.pack(changes as Record<string, unknown>);
    const wc = { writeConcern: { w: 'majority' as const, j: true } };
    if (!this.locks) return (await this.c.updateMany(toFilter(filter), { $set: set as Document }, wc)).matchedCount;
    // A compare-and-set per document (callers rely on the matched count: outbox claims, revocations), serialised
    // with the document's lock: FerretDB 1.x evaluates the filter and writes without isolation, so two concurrent
    // conditional updates could both match.
    const id = (filter as Record<string, unknown>).id;
    const ids = typeof id === 'string' || typeof id === 'number' ? [id] : (await this.c.find(toFilter(filter), { projection: { _id: 1 } }).toArray()).map((d) => d._id as unknown as string | number);
    let matched = 0;
    for (const one of ids) {
      matched += await withLock(
        this.locks(),
        docLock(this.name, one),
        async () => (await this.c.updateOne({ ...toFilter(filter), _id: one } as Document, { $set: set as Document }, wc)).matchedCount,
        { leaseMs: 5000, timeoutMs: 15_000 },
      );
    }
    return matched;
  }

  async increment(id: T['id'], field: string, by: number, seed: Readonly<Partial<T>>): Promise<number> {
    // Not $inc: FerretDB 1.x applies update operators as an unisolated read-then-write, and concurrent $inc lose
    // counts there (measured: 50 concurrent increments left 3). A per-document lease lock serialises the
    // read-modify-write on both servers.
    const { id: _omit, ...seedRest } = seed as Record<string, unknown>;
    delete seedRest[field];
    return withLock(this.locks!(), docLock(this.name, id), async () => {
      const current = await this.c.findOne({ _id: id } as Document);
      if (!current) {
        await this.c.insertOne({ ...seedRest, id, [field]: by, _id: id } as Document, { writeConcern: { w: 'majority', j: true } });
        return by;
      }
      const value = (typeof current[field] === 'number' ? (current[field] as number) : 0) + by;
      await this.c.updateOne({ _id: id } as Document, { $set: { [field]: value } }, { writeConcern: { w: 'majority', j: true } });
      return value;
    }, { leaseMs: 5000, timeoutMs: 15_000 });
  }

  async delete(filter: Filter): Promise<number> {
    const r = await this.c.deleteMany(toFilter(filter), { writeConcern: { w: 'majority', j: true } });
    return r.deletedCount;
  }

  async count(filter: Filter = {}): Promise<number> {
    return this.c.countDocuments(toFilter(filter));
  }

  async ensureIndex(field: string, options: { unique?: boolean; sparse?: boolean } = {}): Promise<void> {
    if (field === 'id') return; // the primary key
    await this.c.createIndex({ [field]: 1 }, { unique: options.unique ?? false, sparse: options.sparse ?? false });
  }
}

export async function openMongoStore(uri: string, dbName: string): Promise<DocumentStore & { db: Db; client: MongoClient }> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000, appName: 'prauth' });
  await client.connect();
  const db = client.db(dbName);
  const locks = (): Collection<LockDoc> => new MongoCollectionAdapter<LockDoc>(LOCKS_COLLECTION, db.collection(LOCKS_COLLECTION));
  return {
    kind: 'mongo',
    db,
    client,
    collection<T extends Keyed>(name: string): Collection<T> {
      return new MongoCollectionAdapter<T>(name, db.collection(name), locks);
    },
    async ping() {
      await db.command({ ping: 1 });
    },
    async close() {
      await client.close();
    },
  };
}
