// Records sent inline (POST /v1/admin/ingest {"records": [...]}, what the CLI sends) go through the same ingest runs
// as files: written one per line to a private temporary file (0600 in a 0700 directory), so line n is record n.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function withRecordsFile<R>(source: { records: readonly unknown[]; name?: string }, fn: (path: string) => Promise<R>): Promise<R> {
  const dir = await mkdtemp(join(tmpdir(), 'prauth-records-'));
  const name = (source.name ?? 'request').replace(/\.(ndjson|jsonl|json)$/, '');
  const path = join(dir, `${name}.ndjson`);
  try {
    await writeFile(path, source.records.map((r) => JSON.stringify(r) ?? 'null').join('\n'), { mode: 0o600 });
    return await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
