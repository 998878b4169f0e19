// buildApp(deps): the request handler, never listening by itself (tests drive it in-process).
// Exact-path routes are dispatched from a Map before Express (the "static" fast path: no router walk, no
// prototype swaps, precomputed bytes); routes with path parameters or bodies go through Express. Both run
// http/pipeline.ts, so headers, auth, limits and error bodies are the same whichever way a request goes. The pages
// (explorer, API reference, their assets) are files served from memory before either (http/static-pages.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import typeis from 'type-is';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { ApiError, badRequest } from './domain/api-error.js';
import {
  CORS_HEADERS,
  PREFLIGHT_HEADERS,
  SECURITY_HEADERS,
  logAccess,
  renderError,
  requestIdOf,
  runRoute,
  writeResult,
} from './http/pipeline.js';
import type { AppDeps, RouteDef, Surface } from './api/route.js';
import { allRoutes } from './http/routes/index.js';
import { loadPages, servePage } from './http/static-pages.js';
import { FHIR_DECLS } from './api/registry.js';
import { accessLoggerOf } from './logger.js';

export interface BuiltApp {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  express: Express;
  routes: readonly RouteDef[];
}

type WithId = IncomingMessage & { requestId?: string };

const FHIR_PREFIXES = [
  '/v1/metadata', '/v1/formulary', '/v1/dtr', '/v1/Claim', '/v1/Questionnaire',
  ...FHIR_DECLS.flatMap((d) => (d.kind === 'path' ? [d.path.split('/:')[0]!] : [`/v1/${d.resourceType}`])),
];
export function surfaceForPath(path: string): Surface {
  if (FHIR_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return 'fhir';
  if (path.startsWith('/v1/cds-services')) return 'cds';
  return 'json';
}

const JSON_TYPES = ['application/json', 'application/fhir+json', 'application/*+json'];
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** Inline ingest bodies have their own, larger limit (and go through Express). */
const INGEST_PATH = '/v1/admin/ingest';

/** A body of another type than the route reads is a 415; no body at all (curl -X POST) is left to the route. */
function unsupportedBody(r: RouteDef, req: IncomingMessage): ApiError | undefined {
  if (r.method !== 'POST' || req.headers['content-length'] === '0') return undefined;
  const accepted = r.bodyType === 'form' ? [FORM_TYPE] : JSON_TYPES;
  if (typeis(req, accepted) !== false) return undefined;
  return new ApiError(415, 'unsupported_media_type', `Send the body as ${r.bodyType === 'form' ? FORM_TYPE : r.surface === 'fhir' ? 'application/fhir+json' : 'application/json'}`);
}

/** What a body-parser failure answers. */
function bodyReadError(err: unknown, bodyLimit: string | number): unknown {
  const e = err as { type?: string; status?: number };
  if (e.type === 'entity.parse.failed') return badRequest('Malformed JSON body', 'malformed_json');
  if (e.type === 'entity.too.large') return new ApiError(413, 'payload_too_large', `Body larger than the ${bodyLimit} limit`);
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return new ApiError(415, 'unsupported_media_type', 'Unsupported body encoding or charset');
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new ApiError(e.status, 'invalid_body', 'The request body could not be read');
  return err;
}

export function buildApp(deps: AppDeps, routes: readonly RouteDef[] = allRoutes(deps)): BuiltApp {
  const fast = new Map<string, RouteDef>();
  const methodsByPath = new Map<string, Set<string>>();
  for (const r of routes) {
    if (!r.path.includes(':')) {
      fast.set(`${r.method} ${r.path}`, r);
      const m = methodsByPath.get(r.path) ?? new Set<string>();
      m.add(r.method);
      if (r.method === 'GET') m.add('HEAD');
      methodsByPath.set(r.path, m);
    }
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);
  // Inline ingest bodies (the CLI sends a file's records) get their own, larger limit; the parser below then skips.
  app.use(INGEST_PATH, express.json({ type: JSON_TYPES, limit: deps.config.ingestBodyLimit, strict: true }));
  const jsonParser = express.json({ type: JSON_TYPES, limit: deps.config.bodyLimit, strict: true });
  app.use(jsonParser);
  app.use(express.text({ type: FORM_TYPE, limit: deps.config.bodyLimit }));

  for (const r of routes) {
    if (!r.path.includes(':') && r.method === 'GET') continue; // served by the fast path only
    const method = r.method.toLowerCase() as 'get' | 'post' | 'delete';
    app[method](r.path, async (req: Request, res: Response) => {
      const requestId = (req as WithId).requestId ?? requestIdOf(req.headers);
      const unsupported = unsupportedBody(r, req);
      if (unsupported) {
        writeResult(res, req.method, renderError(unsupported, r.surface, requestId, deps.log), r.surface, requestId);
        return;
      }
      const url = new URL(req.originalUrl, 'http://x');
      const result = await runRoute(
        r,
        {
          method: req.method,
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          params: req.params as Record<string, string>,
          body: req.body,
          requestId,
          clientAddress: req.socket.remoteAddress ?? 'unknown',
        },
        deps,
      );
      writeResult(res, req.method, result, r.surface, requestId);
    });
  }

  // Unknown paths, and body-parser failures, rendered for the surface the path belongs to.
  app.use((req: Request, res: Response) => {
    const requestId = (req as WithId).requestId ?? requestIdOf(req.headers);
    const surface = surfaceForPath(req.path);
    writeResult(res, req.method, renderError(new ApiError(404, 'not_found', `No such endpoint: ${req.method} ${req.path}`), surface, requestId, deps.log), surface, requestId);
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const requestId = (req as WithId).requestId ?? requestIdOf(req.headers);
    const surface = surfaceForPath(req.path);
    writeResult(res, req.method, renderError(bodyReadError(err, deps.config.bodyLimit), surface, requestId, deps.log), surface, requestId);
  });

  const pages = loadPages();
  const access = accessLoggerOf(deps.log);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req.headers);
    (req as WithId).requestId = requestId;
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const method = req.method ?? 'GET';
    res.once('finish', () => logAccess(access, requestId, method, path, res.statusCode, started));

    if (method === 'OPTIONS') {
      for (const [k, v] of CORS_HEADERS) res.setHeader(k, v);
      for (const [k, v] of PREFLIGHT_HEADERS) res.setHeader(k, v);
      for (const [k, v] of SECURITY_HEADERS) res.setHeader(k, v);
      res.statusCode = 204;
      res.end();
      return;
    }
    const page = method === 'GET' || method === 'HEAD' ? pages.get(path) : undefined;
    if (page) {
      servePage(req, res, page, requestId);
      return;
    }
    const route = fast.get(`${method === 'HEAD' ? 'GET' : method} ${path}`);
    if (route && (route.method === 'GET')) {
      const query = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
      const clientAddress = req.socket.remoteAddress ?? 'unknown';
      runRoute(route, { method, path, query, headers: req.headers, params: {}, body: undefined, requestId, clientAddress }, deps)
        .then((result) => writeResult(res, method, result, route.surface, requestId))
        .catch((err: unknown) => writeResult(res, method, renderError(err, route.surface, requestId, deps.log), route.surface, requestId));
      return;
    }
    // Exact-path POSTs with JSON bodies (CDS hooks, $submit, ask...) skip the Express router as well: the same JSON
    // parser, the same 415 and body-error answers, then the pipeline.
    if (route && route.method === 'POST' && route.bodyType !== 'form' && path !== INGEST_PATH) {
      const unsupported = unsupportedBody(route, req);
      if (unsupported) {
        writeResult(res, method, renderError(unsupported, route.surface, requestId, deps.log), route.surface, requestId);
        return;
      }
      jsonParser(req as Request, res as Response, (err?: unknown) => {
        if (err) {
          writeResult(res, method, renderError(bodyReadError(err, deps.config.bodyLimit), route.surface, requestId, deps.log), route.surface, requestId);
          return;
        }
        const query = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
        const clientAddress = req.socket.remoteAddress ?? 'unknown';
        runRoute(route, { method, path, query, headers: req.headers, params: {}, body: (req as { body?: unknown }).body, requestId, clientAddress }, deps)
          .then((result) => writeResult(res, method, result, route.surface, requestId))
          .catch((e: unknown) => writeResult(res, method, renderError(e, route.surface, requestId, deps.log), route.surface, requestId));
      });
      return;
    }
    const allowed = methodsByPath.get(path);
    if (allowed && !allowed.has(method) && !routes.some((r) => r.path === path && r.method === method)) {
      const surface = surfaceForPath(path);
      const result = renderError(new ApiError(405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${[...allowed].join(', ')}`), surface, requestId, deps.log);
      result.headers = { ...result.headers, Allow: [...allowed, 'OPTIONS'].join(', ') };
      writeResult(res, method, result, surface, requestId);
      return;
    }
    app(req as Request, res as Response);
  };

  return { handler, express: app, routes };
}
