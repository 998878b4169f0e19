// MongoDB adapter through the official driver: the production and scale-out path. The natural key `id` is
// stored as `_id`, so upserts by id are single-document atomic operations and need no extra unique index.
import { MongoClient, MongoServerError, type Collection as MongoCollection, type Db, type Document } from 'mongodb';
import type { Collection, DocumentStore, Filter, FindOptions, Keyed } from '../port.js';
import { DuplicateKeyError } from '../port.js';

function strip<T extends Keyed>(doc: Document | null): T | null {
  if (!doc) return null;
  const { _id: _ignored, ...rest } = doc;
  return rest as T;
}

function toFilter(filter: Filter): Document {
  // Queries by `id` use the primary key.
  if (Object.prototype.hasOwnProperty.call(filter, 'id')) {
    const { id, ...rest } = filter as Record<string, unknown>;
    return { ...rest, _id: id };
  }
  return filter as Document;
}

class MongoCollectionAdapter<T extends Keyed> implements Collection<T> {
  constructor(private readonly name: string, private readonly c: MongoCollection<Document>) {}

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.c.find(toFilter(filter));
    if (options.sort) cursor = cursor.sort(options.sort as Record<string, 1 | -1>);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    const docs = await cursor.toArray();
    return docs.map((d) => strip<T>(d)!);
  }

  async findOne(filter: Filter): Promise<T | null> {
    return strip<T>(await this.c.findOne(toFilter(filter)));
  }

  async insert(doc: T): Promise<void> {
    try {
      await this.c.insertOne({ ...doc, _id: doc.id } as Document, { writeConcern: { w: 'majority', j: true } });
    } catch (err) {
      if (err instanceof MongoServerError && err.code === 11000) throw new DuplicateKeyError(this.name, doc.id);
      throw err;
    }
  }

  async upsertMany(docs: readonly T[]): Promise<void> {
    if (!docs.length) return;
    await this.c.bulkWrite(
      docs.map((d) => ({
        replaceOne: { filter: { _id: d.id } as Document, replacement: { ...d, _id: d.id } as Document, upsert: true },
      })),
      { ordered: false, writeConcern: { w: 'majority', j: true } },
    );
  }

  async update(filter: Filter, set: Readonly<Partial<T>>): Promise<number> {
    const r = await this.c.updateMany(toFilter(filter), { $set: set as Document }, { writeConcern: { w: 'majority', j: true } });
    return r.matchedCount;
  }

  async increment(id: T['id'], field: string, by: number, seed: Readonly<Partial<T>>): Promise<number> {
    const { id: _omit, ...seedRest } = seed as Record<string, unknown>;
    delete seedRest[field];
    const r = await this.c.findOneAndUpdate(
      { _id: id } as Document,
      { $inc: { [field]: by }, $setOnInsert: { ...seedRest, id } },
      { upsert: true, returnDocument: 'after' },
    );
    return (r?.[field] as number | undefined) ?? by;
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
  return {
    kind: 'mongo',
    db,
    client,
    collection<T extends Keyed>(name: string): Collection<T> {
      return new MongoCollectionAdapter<T>(name, db.collection(name));
    },
    async ping() {
      await db.command({ ping: 1 });
    },
    async close() {
      await client.close();
    },
  };
}
