// Opening a data file fast. nedb reads its file line by line through a stream, awaiting a promise per line, parses
// each line with a JSON reviver (for its {$$date} encoding, which our documents never use), and then rewrites the
// whole file (its compaction at load). Here: one read, a plain JSON.parse per line (the reviver only for a line that
// has a $$date), and no rewrite; superseded lines are dropped when the store closes (close() compacts), and are
// harmless meanwhile (the last line of an id wins). Same result, same corruption threshold as nedb's own load.
// Writing (appendThrough): nedb's lines, appended through a descriptor kept open instead of a file opened and closed
// per write.
import { open, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';

type Doc = Record<string, unknown> & { _id?: string; $$deleted?: boolean; $$indexCreated?: { fieldName?: string }; $$indexRemoved?: unknown };
type Loaded = { data: Doc[]; indexes: Record<string, unknown> };
interface Persistence {
  filename: string;
  inMemoryOnly: boolean;
  corruptAlertThreshold: number;
  afterSerialization(line: string): string | Promise<string>;
  persistNewStateAsync(docs: Doc[]): Promise<void>;
  treatRawStreamAsync(stream: Readable): Promise<Loaded>;
  persistCachedDatabaseAsync(): Promise<void>;
}

const model = createRequire(import.meta.url)('@seald-io/nedb/lib/model.js') as { deserialize(raw: string): Doc; serialize(doc: Doc): string };
const parse = (line: string): Doc => (line.includes('"$$date"') ? model.deserialize(line) : (JSON.parse(line) as Doc));

function treat(raw: string, threshold: number): Loaded {
  const byId = new Map<string, Doc>();
  const indexes: Record<string, unknown> = {};
  let lines = 0;
  let corrupt = 0;
  for (const line of raw.split('\n')) {
    if (line === '') continue;
    lines++;
    try {
      const doc = parse(line);
      if (doc._id) {
        if (doc.$$deleted === true) byId.delete(doc._id);
        else byId.set(doc._id, doc);
      } else if (doc.$$indexCreated && doc.$$indexCreated.fieldName != null) indexes[doc.$$indexCreated.fieldName] = doc.$$indexCreated;
      else if (typeof doc.$$indexRemoved === 'string') delete indexes[doc.$$indexRemoved];
    } catch {
      corrupt++;
    }
  }
  if (lines > 0 && corrupt / lines > threshold) {
    throw new Error(`${Math.floor((100 * corrupt) / lines)}% of the data file is corrupt, more than the threshold (${Math.floor(100 * threshold)}%): refusing to open it`);
  }
  return { data: [...byId.values()], indexes };
}

/**
 * The file's text without a torn last line. A process killed in the middle of an append leaves a line without its
 * newline; that write was never acknowledged (a write resolves only after its whole line is appended and fsync'd),
 * but the next append would be glued onto it and lost with it on the following load. So the torn tail is cut off,
 * durably, before anything is appended.
 */
async function dropTornTail(filename: string): Promise<string> {
  const raw = await readFile(filename);
  if (raw.length === 0 || raw[raw.length - 1] === 0x0a) return raw.toString('utf8');
  const keep = raw.lastIndexOf(0x0a) + 1;
  const handle = await open(filename, 'r+');
  try {
    await handle.truncate(keep);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return raw.subarray(0, keep).toString('utf8');
}

/** Loads a datastore from its file as described above. */
export async function loadDatastore(db: { persistence: unknown; loadDatabaseAsync(): Promise<void> }): Promise<void> {
  const p = db.persistence as Persistence;
  const { treatRawStreamAsync, persistCachedDatabaseAsync } = p;
  p.treatRawStreamAsync = async (stream) => {
    stream.destroy();
    return treat(await dropTornTail(p.filename), p.corruptAlertThreshold);
  };
  p.persistCachedDatabaseAsync = () => Promise.resolve();
  try {
    await db.loadDatabaseAsync();
  } finally {
    Object.assign(p, { treatRawStreamAsync, persistCachedDatabaseAsync });
  }
}

/** Appends the lines of every write to the datastore's file through `file` (nedb's own lines, in its order). */
export function appendThrough(db: { persistence: unknown }, file: { append(text: string): Promise<void> }): void {
  const p = db.persistence as Persistence;
  p.persistNewStateAsync = async (docs) => {
    if (p.inMemoryOnly) return;
    let lines = '';
    for (const doc of docs) lines += `${await p.afterSerialization(model.serialize(doc))}\n`;
    if (lines) await file.append(lines);
  };
}
