// One dispatch for every route, exact path or parameterised: the body read by the route's own parser (415 for a type
// the route does not read, 413/400 for what cannot be read, mapped once here), then the pipeline (http/pipeline.ts),
// then the write. Also where an address's surface (JSON, FHIR, CDS) is told for answers no route gives: unknown
// paths, 405s and the start-up 503, derived from the route table itself.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import typeis from 'type-is';
import express from 'express';
import { ApiError, badRequest } from '../domain/api-error.js';
import type { AppDeps } from '../api/app-deps.js';
import type { HttpResult, RouteDef, Surface } from '../api/route.js';
import { renderError, requestIdOf, runRoute, writeResult } from './pipeline.js';
import { jsonBodyReader, type BodyReader } from './json-body.js';
import { bodyPolicyOf, FORM_TYPE, JSON_TYPES, type BodyPolicy } from './body-policy.js';
import { clientAddressOf } from '../domain/client-address.js';

/** A body of another type than the route reads is a 415; no body at all (curl -X POST) is left to the route. */
function unsupportedBody(policy: BodyPolicy | undefined, req: IncomingMessage): ApiError | undefined {
  if (!policy || req.headers['content-length'] === '0') return undefined;
  if (typeis(req, policy.accepts) !== false) return undefined;
  return new ApiError(415, 'unsupported_media_type', `Send the body as ${policy.send}`);
}

/** What a body-reader failure answers. */
function bodyReadError(err: unknown, bodyLimit: string | number): unknown {
  const e = err as { type?: string; status?: number };
  if (e.type === 'entity.parse.failed') return badRequest('Malformed JSON body', 'malformed_json');
  if (e.type === 'entity.too.large') return new ApiError(413, 'payload_too_large', `Body larger than the ${bodyLimit} limit`);
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return new ApiError(415, 'unsupported_media_type', 'Unsupported body encoding or charset');
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new ApiError(e.status, 'invalid_body', 'The request body could not be read');
  return err;
}

export interface Dispatcher {
  /** Runs `route` for this request (path parameters already matched) and writes its answer. */
  dispatch(route: RouteDef, params: Readonly<Record<string, string>>, req: IncomingMessage, res: ServerResponse, at: RequestAt): void;
  /** Writes an error for an address no route answered (404, 405), rendered for the address's surface. */
  fail(err: unknown, req: IncomingMessage, res: ServerResponse, at: RequestAt, headers?: Record<string, string>): void;
}

/** What the entry point read of the request line once. */
export interface RequestAt {
  requestId: string;
  method: string;
  path: string;
  rawQuery: string;
}

export function createDispatcher(deps: AppDeps, surfaceOf: (path: string) => Surface): Dispatcher {
  // Each reader's size limit, named once: the reader enforces it and its 413 names it.
  const limits: Record<BodyPolicy['reader'], string> = { json: deps.config.bodyLimit, records: deps.config.ingestBodyLimit, form: deps.config.bodyLimit };
  const readers: Record<BodyPolicy['reader'], BodyReader> = {
    json: jsonBodyReader(limits.json, express.json({ type: JSON_TYPES, limit: limits.json, strict: true }) as unknown as BodyReader),
    records: express.json({ type: JSON_TYPES, limit: limits.records, strict: true }) as unknown as BodyReader,
    form: express.text({ type: FORM_TYPE, limit: limits.form }) as unknown as BodyReader,
  };
  const write = (res: ServerResponse, at: RequestAt, result: HttpResult, surface: Surface): void => writeResult(res, at.method, result, surface, at.requestId);

  // Per-address limits see the client behind a trusted reverse proxy (TRUST_PROXY), else the socket's peer.
  const addressOf = clientAddressOf(deps.config.trustProxy.list);
  return {
    dispatch(route, params, req, res, at) {
      const failed = (err: unknown): void => write(res, at, renderError(err, route.surface, at.requestId, deps.log), route.surface);
      const policy = bodyPolicyOf(route);
      const unsupported = unsupportedBody(policy, req);
      if (unsupported) return failed(unsupported);
      const run = (): void => {
        const input = {
          method: at.method,
          path: at.path,
          query: new URLSearchParams(at.rawQuery),
          headers: req.headers,
          params,
          body: (req as { body?: unknown }).body,
          requestId: at.requestId,
          clientAddress: addressOf(req.socket.remoteAddress, req.headers),
        };
        runRoute(route, input, deps).then((result) => write(res, at, result, route.surface), failed);
      };
      if (!policy) return run();
      readers[policy.reader](req, res, (err) => (err ? failed(bodyReadError(err, limits[policy.reader])) : run()));
    },
    fail(err, _req, res, at, headers) {
      const surface = surfaceOf(at.path);
      const result = renderError(err, surface, at.requestId, deps.log);
      if (headers) result.headers = { ...result.headers, ...headers };
      write(res, at, result, surface);
    },
  };
}

/**
 * The surface of any address, from the route table: the surface of the routes sharing the longest leading path
 * segments with it (at least /v1/<name>), when they agree; JSON otherwise. So /v1/Claim/unknown answers as FHIR,
 * /v1/cds-services/unknown as CDS, /v1/unknown as JSON.
 */
export function surfaceFinder(routes: readonly RouteDef[]): (path: string) => Surface {
  const segs = (p: string): string[] => p.split('/').filter(Boolean);
  const table = routes.map((r) => ({ segs: segs(r.path), surface: r.surface }));
  return (path) => {
    const want = segs(path);
    let best = 1;
    let found = new Set<Surface>();
    for (const r of table) {
      let n = 0;
      while (n < want.length && n < r.segs.length && (r.segs[n] === want[n] || r.segs[n]!.startsWith(':'))) n++;
      if (n > best) { best = n; found = new Set([r.surface]); } else if (n === best && n > 1) found.add(r.surface);
    }
    return found.size === 1 ? [...found][0]! : 'json';
  };
}

/** The answer while the service starts (the port is bound first): 503 with Retry-After, in the address's surface. */
export function startingUp(routes: readonly RouteDef[], log: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  const surfaceOf = surfaceFinder(routes);
  return (req, res) => {
    const surface = surfaceOf((req.url ?? '/').split('?')[0]!);
    const requestId = requestIdOf(req.headers);
    const err = new ApiError(503, 'service_unavailable', 'The service is starting; retry in a second', {}, { 'Retry-After': '1' });
    writeResult(res, req.method ?? 'GET', renderError(err, surface, requestId, log), surface, requestId);
  };
}
