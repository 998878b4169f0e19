// Embedded default: one @seald-io/nedb datastore (an append-only JSON-lines file) per collection under
// PRAUTH_DATA_DIR. Mutations are fsync'd before they resolve (./group-sync.ts: off the event loop, concurrent writes
// sharing one fsync), so an acknowledged write survives a crash. Files are read in one go at open and compacted when
// the store closes: opening rewrites nothing (./load-file.ts). Single-process by nature: see ./data-dir-lock.ts for how the CLI
// and the server share it.
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

// nedb is CommonJS with a default-export typing; load the constructor through require so both agree.
type NedbCtor = typeof import('@seald-io/nedb').default;
const Nedb = createRequire(import.meta.url)('@seald-io/nedb') as NedbCtor;
type Datastore<S extends Record<string, unknown>> = InstanceType<NedbCtor> & { __schema?: S };
import type { Collection, DocumentStore, Filter, FindOptions, Keyed } from '../port.js';
import { DuplicateKeyError } from '../port.js';
import { packerFor } from '../opaque.js';
import { GroupSync } from './group-sync.js';
import { appendThrough, loadDatastore } from './load-file.js';

type Stored<T> = T & { _id: string };

type Doc = Record<string, unknown>;


class EmbeddedCollection<T extends Keyed> implements Collection<T> {
  // Serialises read-modify-write operations (increment) within this process.
  private queue: Promise<unknown> = Promise.resolve();
  private readonly syncer: GroupSync | undefined;
  private readonly pack: (d: Doc) => Doc;
  private readonly unpack: (d: Doc) => Doc;

  constructor(
    private readonly name: string,
    private readonly db: Datastore<Record<string, unknown>>,
    filename: string | undefined,
  ) {
    this.syncer = filename ? new GroupSync(filename) : undefined;
    if (this.syncer) appendThrough(db, this.syncer);
    db.on('compaction.done', () => this.syncer?.reopen());
    ({ pack: this.pack, unpack: this.unpack } = packerFor(name));
  }

  private async durable(): Promise<void> {
    await this.syncer?.sync();
  }

  /** Closes the descriptor kept for fsync (the store is closing). */
  release(): void {
    this.syncer?.reopen();
  }

  private strip(doc: Stored<T> | null): T | null {
    if (!doc) return null;
    const { _id: _ignored, ...rest } = doc;
    return this.unpack(rest) as unknown as T;
  }

  private serial<R>(fn: () => Promise<R>): Promise<R> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.db.findAsync(filter as Record<string, unknown>);
    if (options.sort) cursor = cursor.sort(options.sort as Record<string, number>);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    const docs = (await cursor) as Stored<T>[];
    return docs.map((d) => this.strip(d)!);
  }

  async findOne(filter: Filter): Promise<T | null> {
    return this.strip((await this.db.findOneAsync(filter as Record<string, unknown>)) as Stored<T> | null);
  }

  async insert(doc: T): Promise<void> {
    try {
      await this.db.insertAsync({ ...this.pack(doc as unknown as Doc), _id: String(doc.id) });
    } catch (err) {
      if ((err as { errorType?: string }).errorType === 'uniqueViolated') throw new DuplicateKeyError(this.name, doc.id);
      throw err;
    }
    await this.durable();
  }

  async upsertMany(docs: readonly T[]): Promise<void> {
    if (!docs.length) return;
    // New documents go in one append; existing ones are replaced in place (one line each), so a crash part-way
    // never leaves a document removed but not re-inserted.
    const ids = docs.map((d) => String(d.id));
    const existing = new Set(
      ((await this.db.findAsync({ _id: { $in: ids } }, { _id: 1 })) as { _id: string }[]).map((d) => d._id),
    );
    const fresh = docs.filter((d) => !existing.has(String(d.id)));
    if (fresh.length) await this.db.insertAsync(fresh.map((d) => ({ ...this.pack(d as unknown as Doc), _id: String(d.id) })));
    for (const d of docs) {
      if (existing.has(String(d.id))) await this.db.updateAsync({ _id: String(d.id) }, { ...this.pack(d as unknown as Doc), _id: String(d.id) }, {});
    }
    await this.durable();
  }

  async update(filter: Filter, set: Readonly<Partial<T>>): Promise<number> {
    const { numAffected } = await this.db.updateAsync(filter as Record<string, unknown>, { $set: this.pack(set as Doc) }, { multi: true });
    await this.durable();
    return numAffected;
  }

  increment(id: T['id'], field: string, by: number, seed: Readonly<Partial<T>>): Promise<number> {
    return this.serial(async () => {
      const _id = String(id);
      const existing = (await this.db.findOneAsync({ _id })) as Record<string, unknown> | null;
      if (!existing) {
        await this.db.insertAsync({ ...this.pack(seed as Doc), id, _id, [field]: by });
        await this.durable();
        return by;
      }
      const value = (typeof existing[field] === 'number' ? (existing[field] as number) : 0) + by;
      await this.db.updateAsync({ _id }, { $set: { [field]: value } }, {});
      await this.durable();
      return value;
    });
  }

  async delete(filter: Filter): Promise<number> {
    const n = await this.db.removeAsync(filter as Record<string, unknown>, { multi: true });
    await this.durable();
    return n;
  }

  async count(filter: Filter = {}): Promise<number> {
    return await this.db.countAsync(filter as Record<string, unknown>);
  }

  async ensureIndex(field: string, options: { unique?: boolean; sparse?: boolean } = {}): Promise<void> {
    await this.db.ensureIndexAsync({ fieldName: field, unique: options.unique ?? false, sparse: options.sparse ?? false });
  }
}

export interface EmbeddedStoreOptions {
  /** Directory for the collection files; undefined keeps everything in memory (unit tests). */
  dataDir?: string;
}

/**
 * The data directory holds key hashes, usage and the corpus: owner-only. The directory is 0700 and every file 0600,
 * including files nedb rewrites later (compaction writes a new file and renames it), hence the process umask.
 */
export function protectDataDir(dataDir: string): void {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  for (const f of readdirSync(dataDir)) {
    if (/\.db~?$|\.lock$/.test(f)) chmodSync(join(dataDir, f), 0o600);
  }
}

/**
 * A collection's file is read on the first call that needs its documents, not when the collection is named: a start
 * reads the corpus, not years of PAS history or the change log. An index asked for before that is created as the
 * file is read.
 */
export async function openEmbeddedStore(options: EmbeddedStoreOptions): Promise<DocumentStore> {
  const { dataDir } = options;
  if (dataDir) protectDataDir(dataDir);
  const collections = new Map<string, EmbeddedCollection<Keyed>>();
  const datastores = new Map<string, Datastore<Record<string, unknown>>>();
  const loading = new Map<string, Promise<void>>();
  const pendingIndexes = new Map<string, { fieldName: string; unique: boolean; sparse: boolean }[]>();

  function open(name: string): EmbeddedCollection<Keyed> {
    let c = collections.get(name);
    if (c) return c;
    if (!/^[a-z_]{1,40}$/.test(name)) throw new Error(`invalid collection name ${name}`);
    const filename = dataDir ? join(dataDir, `${name}.db`) : undefined;
    const db = new Nedb(filename ? { filename } : { inMemoryOnly: true });
    datastores.set(name, db);
    c = new EmbeddedCollection(name, db, filename);
    collections.set(name, c);
    return c;
  }

  function load(name: string): Promise<void> {
    let ready = loading.get(name);
    if (!ready) {
      const db = datastores.get(name)!;
      ready = loadDatastore(db).then(async () => {
        for (const spec of pendingIndexes.get(name) ?? []) await db.ensureIndexAsync(spec);
        pendingIndexes.delete(name);
      });
      loading.set(name, ready);
    }
    return ready;
  }

  // Wrap each collection so that every call waits for its file to be loaded first.
  function collection<T extends Keyed>(name: string): Collection<T> {
    const c = open(name) as unknown as EmbeddedCollection<T>;
    return new Proxy(c, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        if (prop === 'ensureIndex') {
          return (field: string, o: { unique?: boolean; sparse?: boolean } = {}) => {
            if (loading.has(name)) return load(name).then(() => c.ensureIndex(field, o));
            pendingIndexes.set(name, [...(pendingIndexes.get(name) ?? []), { fieldName: field, unique: o.unique ?? false, sparse: o.sparse ?? false }]);
            return Promise.resolve();
          };
        }
        return (...args: unknown[]) => load(name).then(() => (v as (...a: unknown[]) => unknown).apply(target, args));
      },
    });
  }

  return {
    kind: 'embedded',
    collection,
    async ping() {
      await Promise.all(loading.values());
    },
    async close() {
      await Promise.all(loading.values());
      for (const name of loading.keys()) await datastores.get(name)!.compactDatafileAsync().catch(() => undefined);
      for (const c of collections.values()) c.release();
    },
  };
}
