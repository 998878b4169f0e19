// Reads ingest sources: a file (.ndjson / .jsonl: one record a line; .json: one record or an array) or a
// directory (its corpus.json `files` order when present, else every .ndjson/.jsonl/.json file by name).
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

export interface SourceRecord {
  file: string;
  /** 1-based line for NDJSON; 1-based record index for a JSON array. */
  line: number;
  value?: unknown;
  parseError?: string;
}

const DATA_EXT = new Set(['.ndjson', '.jsonl', '.json']);

async function listFiles(path: string): Promise<string[]> {
  const st = await stat(path);
  if (!st.isDirectory()) return [path];
  const names = await readdir(path);
  if (names.includes('corpus.json')) {
    const manifest = JSON.parse(await readFile(join(path, 'corpus.json'), 'utf8')) as { files?: unknown };
    if (Array.isArray(manifest.files) && manifest.files.every((f) => typeof f === 'string')) {
      return (manifest.files as string[]).map((f) => join(path, f));
    }
  }
  return names
    .filter((n) => DATA_EXT.has(extname(n)) && n !== 'corpus.json' && n !== 'package.json')
    .sort()
    .map((n) => join(path, n));
}

/**
 * A parse error without the text it failed on: V8's messages quote the input ("Unexpected token 'r', \"root:x:0:0\"
 * is not valid JSON"), and a report must never echo file content. The position is kept when the message has one.
 */
function malformed(err: unknown): string {
  const m = /position (\d+)/.exec((err as Error).message ?? '');
  return m ? `malformed JSON at position ${m[1]}` : 'malformed JSON';
}

export async function readSources(path: string): Promise<{ files: string[]; records: SourceRecord[] }> {
  const files = await listFiles(path);
  const records: SourceRecord[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    const name = basename(file);
    if (extname(file) === '.json') {
      try {
        const parsed = JSON.parse(text) as unknown;
        const items = Array.isArray(parsed) ? parsed : [parsed];
        items.forEach((value, i) => records.push({ file: name, line: i + 1, value }));
      } catch (err) {
        records.push({ file: name, line: 1, parseError: malformed(err) });
      }
      continue;
    }
    const lines = text.split('\n');
    lines.forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith('//')) return;
      try {
        records.push({ file: name, line: i + 1, value: JSON.parse(line) });
      } catch (err) {
        records.push({ file: name, line: i + 1, parseError: malformed(err) });
      }
    });
  }
  return { files, records };
}
