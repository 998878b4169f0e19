// buildApp(deps): the request handler, never listening by itself (tests drive it in-process).
// Every request enters one handler: CORS preflight, the pages (explorer, API reference; http/static-pages.ts), then
// the route table. Exact paths are found in a Map (no router walk); parameterised paths are matched by Express's
// router. Either way the route runs through the one dispatch (http/dispatch.ts: body, 415, read errors) and the one
// pipeline (http/pipeline.ts: auth, scope, limits, handler, headers), so no two routes can answer differently.
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type Request, type Response } from 'express';
import { ApiError } from './domain/api-error.js';
import type { AppDeps } from './api/app-deps.js';
import type { RouteDef } from './api/route.js';
import { CORS_HEADERS, PREFLIGHT_HEADERS, SECURITY_HEADERS, logAccess, requestIdOf } from './http/pipeline.js';
import { createDispatcher, surfaceFinder, type RequestAt } from './http/dispatch.js';
import { allRoutes } from './http/routes/index.js';
import { loadPages, servePage } from './http/static-pages.js';
import { accessLoggerOf } from './logger.js';

export interface BuiltApp {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** The router of the parameterised routes (reached through `handler`). */
  express: Express;
  routes: readonly RouteDef[];
}

type WithAt = IncomingMessage & { at?: RequestAt };

export function buildApp(deps: AppDeps, routes: readonly RouteDef[] = allRoutes(deps)): BuiltApp {
  const { dispatch, fail } = createDispatcher(deps, surfaceFinder(routes));
  const exact = new Map<string, RouteDef>();
  const methodsByPath = new Map<string, Set<string>>();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);
  for (const r of routes) {
    if (r.path.includes(':')) {
      const method = r.method.toLowerCase() as 'get' | 'post' | 'delete';
      app[method](r.path, (req: Request, res: Response) => dispatch(r, req.params as Record<string, string>, req, res, (req as WithAt).at!));
      continue;
    }
    exact.set(`${r.method} ${r.path}`, r);
    const m = methodsByPath.get(r.path) ?? new Set<string>();
    m.add(r.method);
    if (r.method === 'GET') m.add('HEAD');
    methodsByPath.set(r.path, m);
  }
  /** 405 naming the methods the address has (RFC 9110 15.5.6), for fixed and parameterised paths alike. */
  const methodNotAllowed = (req: IncomingMessage, res: ServerResponse, at: RequestAt, allowed: ReadonlySet<string>): void => {
    const err = new ApiError(405, 'method_not_allowed', `${at.method} is not allowed on ${at.path.slice(0, 120)}; use ${[...allowed].join(', ')}`);
    fail(err, req, res, at, { Allow: [...allowed, 'OPTIONS'].join(', ') });
  };
  // What the router does not match: a path some route's template matches under another method is a 405, as for the
  // fixed paths below; any other path a 404, rendered for its surface.
  const templated = routes
    .filter((r) => r.path.includes(':'))
    .map((r) => ({ route: r, pattern: new RegExp(`^${r.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_]+)/g, '(?<$1>[^/]+)')}$`) }));
  app.use((req: Request, res: Response) => {
    const at = (req as WithAt).at!;
    const allowed = new Set<string>();
    for (const { route, pattern } of templated) {
      const m = pattern.exec(at.path);
      // A route that refuses these parameters under its own method (POST /Claim/{id} without a $) does not count.
      if (!m || (route.methodAllowed && !route.methodAllowed({ ...m.groups }))) continue;
      allowed.add(route.method);
      if (route.method === 'GET') allowed.add('HEAD');
    }
    if (allowed.size && !allowed.has(at.method)) return methodNotAllowed(req, res, at, allowed);
    fail(new ApiError(404, 'not_found', `No such endpoint: ${at.method} ${at.path}`), req, res, at);
  });

  const pages = loadPages();
  const access = accessLoggerOf(deps.log);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const started = process.hrtime.bigint();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const at: RequestAt = {
      requestId: requestIdOf(req.headers),
      method: req.method ?? 'GET',
      path: q === -1 ? rawUrl : rawUrl.slice(0, q),
      rawQuery: q === -1 ? '' : rawUrl.slice(q + 1),
    };
    res.once('finish', () => logAccess(access, at.requestId, at.method, at.path, res.statusCode, started));

    if (at.method === 'OPTIONS') {
      for (const [k, v] of CORS_HEADERS) res.setHeader(k, v);
      for (const [k, v] of PREFLIGHT_HEADERS) res.setHeader(k, v);
      for (const [k, v] of SECURITY_HEADERS) res.setHeader(k, v);
      res.statusCode = 204;
      res.end();
      return;
    }
    const page = at.method === 'GET' || at.method === 'HEAD' ? pages.get(at.path) : undefined;
    if (page) return servePage(req, res, page, at.requestId);
    const route = exact.get(`${at.method === 'HEAD' ? 'GET' : at.method} ${at.path}`);
    if (route) return dispatch(route, {}, req, res, at);
    // A fixed path asked with a method none of its routes has (exact.get above found none).
    const allowed = methodsByPath.get(at.path);
    if (allowed && !allowed.has(at.method)) return methodNotAllowed(req, res, at, allowed);
    (req as WithAt).at = at;
    app(req as Request, res as Response);
  };

  return { handler, express: app, routes };
}
