// The document-store port. Repositories above it speak MongoDB's query dialect (the subset nedb also reads:
// equality, $in, $gt/$gte/$lt/$lte, $ne, $exists, dotted paths). Adapters return plain objects: no `_id`, no driver types.

export type Filter = Readonly<Record<string, unknown>>;
export type SortSpec = Readonly<Record<string, 1 | -1>>;

export interface FindOptions {
  sort?: SortSpec;
  limit?: number;
  skip?: number;
}

/** Every stored document has a natural key `id` (a string or an integer). */
export interface Keyed {
  id: string | number;
}

export interface Collection<T extends Keyed> {
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  findOne(filter: Filter): Promise<T | null>;
  /** Inserts a new document; rejects with DuplicateKeyError when the id exists. */
  insert(doc: T): Promise<void>;
  /** Replaces the document with the same id, or inserts it. Bulk form for ingest. */
  upsertMany(docs: readonly T[]): Promise<void>;
  /** Sets fields on every matching document; returns how many matched. */
  update(filter: Filter, set: Readonly<Partial<T>>): Promise<number>;
  /** Atomically adds `by` to a numeric field of the document with this id (created with `seed` when missing). */
  increment(id: T['id'], field: string, by: number, seed: Readonly<Partial<T>>): Promise<number>;
  delete(filter: Filter): Promise<number>;
  count(filter?: Filter): Promise<number>;
  ensureIndex(field: string, options?: { unique?: boolean; sparse?: boolean }): Promise<void>;
}

export interface DocumentStore {
  readonly kind: 'embedded' | 'mongo';
  collection<T extends Keyed>(name: string): Collection<T>;
  /** Checks the store answers (used by /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  constructor(readonly collection: string, readonly key: string | number) {
    super(`duplicate key ${String(key)} in ${collection}`);
    this.name = 'DuplicateKeyError';
  }
}
