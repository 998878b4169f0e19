// The service's own pages: the coverage explorer (GET / and /explorer), the API reference (GET /docs) and their
// assets (/assets/...), built into dist/pages by `npm run build` (scripts/pages/build.ts) from pages/. Read once when
// the app is built and served from memory with validators (ETag, 304) and a CSP that allows only this origin. They
// are not API endpoints, so they are not in the route table or the OpenAPI document.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { PAGE_SECURITY_HEADERS } from './pipeline.js';
import { projectRootOf } from '../domain/project-root.js';

export interface PageFile {
  body: Buffer;
  type: string;
  etag: string;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/** Where `npm run build` writes the pages: dist/pages under the project root (found from this module, in src/ or dist/src/). */
export function pagesDir(): string | undefined {
  const root = projectRootOf(import.meta.url);
  return root ? join(root, 'dist', 'pages') : undefined;
}

function read(path: string): PageFile {
  const body = readFileSync(path);
  const type = TYPES[extname(path)] ?? (path.endsWith('LICENSE') || path.endsWith('NOTICE') ? 'text/plain; charset=utf-8' : 'application/octet-stream');
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

// Read once per process and directory: every app built in this process (tests build hundreds) shares the bytes.
const loaded = new Map<string, ReadonlyMap<string, PageFile>>();

/** URL path -> file. Empty when the pages were not built (the paths then answer the JSON 404 like any unknown path). */
export function loadPages(dir: string | undefined = pagesDir()): ReadonlyMap<string, PageFile> {
  const hit = dir === undefined ? undefined : loaded.get(dir);
  if (hit) return hit;
  const pages = new Map<string, PageFile>();
  if (!dir || !existsSync(join(dir, 'explorer.html'))) return pages;
  loaded.set(dir, pages);
  const explorer = read(join(dir, 'explorer.html'));
  pages.set('/', explorer);
  pages.set('/explorer', explorer);
  pages.set('/docs', read(join(dir, 'docs.html')));
  const assets = join(dir, 'assets');
  for (const file of walk(assets)) pages.set(`/assets/${relative(assets, file).split(sep).join('/')}`, read(file));
  return pages;
}

const HEADERS: readonly string[] = PAGE_SECURITY_HEADERS.flat();

/** Writes a page (GET or HEAD): 304 when the client's validator matches; revalidated on every use (no-cache). */
export function servePage(req: IncomingMessage, res: ServerResponse, file: PageFile, requestId: string): void {
  const common = [...HEADERS, 'X-Request-Id', requestId, 'ETag', file.etag, 'Cache-Control', 'no-cache'];
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string' && inm.split(',').some((t) => t.trim() === file.etag)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  res.writeHead(200, [...common, 'Content-Type', file.type, 'Content-Length', String(file.body.length)]);
  res.end(req.method === 'HEAD' ? undefined : file.body);
}
