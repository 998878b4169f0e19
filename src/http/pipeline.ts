// The one request pipeline: authenticate -> admit (scope, limits) -> handler -> headers -> write.
// Every route runs through it, exact-path or parameterised (http/dispatch.ts).
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { checkBody, type BodyVerdict } from '../fhir/shape/check-body.js';
import { bodyPolicyOf } from './body-policy.js';
import { ApiError, BodyShapeError, forbidden } from '../domain/api-error.js';
import { authenticate, REALM } from './authenticate.js';
import type { PipelineInput } from './pipeline-input.js';

export type { PipelineInput } from './pipeline-input.js';
import type { AppDeps } from '../api/app-deps.js';
import type { HttpResult, RawBody, RequestContext, RouteDef, ScopeRequest, Surface } from '../api/route.js';
import type { Principal } from '../domain/principal.js';
import { holderWord, isSubscribed } from '../domain/principal.js';
import { grants, scopesFor } from '../domain/smart-scopes.js';

// Security headers: helmet's, captured once and written by the pipeline on every answer.
// Cross-origin reads must work for a CORS API, hence the resource policy.
function captureHelmetHeaders(options: Parameters<typeof helmet>[0]): [string, string][] {
  const headers = new Map<string, string>();
  const fake = {
    setHeader: (k: string, v: string | number) => headers.set(k, String(v)),
    removeHeader: (k: string) => headers.delete(k),
    getHeader: (k: string) => headers.get(k),
  };
  helmet(options)({ headers: {} } as IncomingMessage, fake as unknown as ServerResponse, () => undefined);
  return [...headers.entries()];
}
export const SECURITY_HEADERS: readonly [string, string][] = captureHelmetHeaders({
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  crossOriginEmbedderPolicy: false,
});

/**
 * The pages' headers (explorer, API reference): helmet's, with a CSP that allows only this origin for every kind of
 * resource (images also as data: URLs, which the API reference's stylesheet uses for its icons). No inline script or
 * style, no outside host, no framing. Not upgrade-insecure-requests: `npm start` serves plain HTTP, and a browser
 * told to upgrade would ask for the page's own scripts over HTTPS on a LAN address and get nothing.
 */
export const PAGE_SECURITY_HEADERS: readonly [string, string][] = captureHelmetHeaders({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
});

export const CORS_HEADERS: readonly [string, string][] = [
  ['Access-Control-Allow-Origin', '*'],
  [
    'Access-Control-Expose-Headers',
    'Retry-After, Deprecation, Sunset, Link, RateLimit, RateLimit-Policy, X-Request-Id, WWW-Authenticate, ETag, Last-Modified',
  ],
];
export const PREFLIGHT_HEADERS: readonly [string, string][] = [
  ['Access-Control-Allow-Methods', 'GET, HEAD, POST, OPTIONS'],
  ['Access-Control-Allow-Headers', 'Content-Type, Content-Encoding, Accept, X-Api-Key, X-Demo-Session, X-Request-Id, Authorization, Prefer, If-None-Match, If-Modified-Since'],
  ['Access-Control-Max-Age', '86400'],
];

export const CONTENT_TYPES: Readonly<Record<Surface, string>> = {
  json: 'application/json; charset=utf-8',
  cds: 'application/json; charset=utf-8',
  fhir: 'application/fhir+json; charset=utf-8',
};

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const inbound = headers['x-request-id'];
  return typeof inbound === 'string' && REQUEST_ID.test(inbound) ? inbound : randomUUID();
}

const ISSUE_CODE: Readonly<Record<number, string>> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  405: 'not-supported',
  413: 'too-costly',
  415: 'not-supported',
  422: 'processing',
  429: 'throttled',
};

/**
 * What of an unexpected error may be logged: its class and stack frames. Not its message: a runtime error's
 * message can quote a value of the request (e.g. "Cannot create property 'x' on string '...'").
 */
export function loggableError(err: unknown): { type: string; stack: string } {
  if (!(err instanceof Error)) return { type: typeof err, stack: '' };
  const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
  return { type: err.name, stack: frames.slice(0, 12).join('\n') };
}

/** The RateLimitError fields (spec: limit, window, retry_after_seconds) on a FHIR 429, beside the headers. */
export const RATE_LIMIT_EXTENSION = 'urn:prauth:extension:rate-limit';
function rateLimitExtension(extra: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return {
    url: RATE_LIMIT_EXTENSION,
    extension: [
      { url: 'limit', valueInteger: extra.limit },
      { url: 'window', valueString: extra.window },
      { url: 'retry_after_seconds', valueInteger: extra.retry_after_seconds },
    ],
  };
}

export function renderError(err: unknown, surface: Surface, requestId: string, log: Logger): HttpResult {
  const e =
    err instanceof ApiError
      ? err
      : new ApiError(500, 'internal_error', `Internal server error; quote request id ${requestId} when reporting it`);
  if (!(err instanceof ApiError)) log.error({ reqId: requestId, error: loggableError(err) }, 'unhandled error');
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...e.headers };
  if (surface === 'fhir') {
    if (e instanceof BodyShapeError) {
      return {
        status: e.status,
        headers,
        body: {
          resourceType: 'OperationOutcome',
          issue: [
            ...e.issues.map((i) => ({
              severity: 'error',
              code: 'structure',
              details: { coding: [{ system: 'urn:prauth:error-code', code: e.code }], text: i.message },
              diagnostics: i.message,
              expression: [i.expression],
            })),
            ...e.warnings.map((w) => ({ severity: 'warning', code: 'structure', diagnostics: w.message, expression: [w.expression] })),
          ],
        },
      };
    }
    return {
      status: e.status,
      headers,
      body: {
        resourceType: 'OperationOutcome',
        issue: [
          {
            severity: e.status >= 500 ? 'fatal' : 'error',
            code: ISSUE_CODE[e.status] ?? 'exception',
            details: { coding: [{ system: 'urn:prauth:error-code', code: e.code }], text: e.message },
            diagnostics: e.message,
            ...(e.expression ? { expression: [e.expression] } : {}),
            ...(e.status === 429 ? { extension: [rateLimitExtension(e.extra)] } : {}),
          },
        ],
      },
    };
  }
  // A CDS Hooks 400 about one element names it the way a refused body's elements are named.
  const issues = surface === 'cds' && e.code === 'invalid_body' && e.expression && !('issues' in e.extra) ? { issues: [{ message: e.message, expression: e.expression }] } : {};
  return {
    status: e.status,
    headers,
    body: { error: e.message, code: e.code, ...issues, ...e.extra, ...(e.status >= 500 ? { request_id: requestId } : {}) },
  };
}

function authorizer(principal: Principal | undefined): (scope: ScopeRequest) => void {
  return (scope) => {
    if (!isSubscribed(principal) || principal.admin) return;
    const states = principal.states ? (scope.states ?? []).filter((s) => !principal.states!.has(s)) : [];
    if (states.length) {
      throw forbidden(`State${states.length > 1 ? 's' : ''} ${states.join(', ')} not in this ${holderWord(principal)}'s subscription`, {
        out_of_scope: { states },
      });
    }
    const programs = principal.programs ? (scope.programs ?? []).filter((p) => !principal.programs!.has(p)) : [];
    if (programs.length) {
      throw forbidden(`Program${programs.length > 1 ? 's' : ''} ${programs.join(', ')} not in this ${holderWord(principal)}'s subscription${scope.hint ? `; ${scope.hint}` : ''}`, { out_of_scope: { programs } });
    }
  };
}

/** Accepted-with-warnings bodies are logged by kind and count (never element names or values: both come from the client). */
function logWarnings(log: Logger, reqId: string, route: RouteDef, verdict: BodyVerdict): void {
  const total = Object.values(verdict.counts).reduce((a, b) => a + (b ?? 0), 0);
  if (total) log.info({ reqId, route: route.id, bodyWarnings: verdict.counts, refused: verdict.errors.length > 0 }, 'request body problems accepted as warnings');
}

export async function runRoute(route: RouteDef, input: PipelineInput, deps: AppDeps): Promise<HttpResult> {
  const extraHeaders: Record<string, string> = {};
  let result: HttpResult;
  try {
    if (route.methodAllowed && !route.methodAllowed(input.params)) {
      throw new ApiError(405, 'method_not_allowed', `${route.method} is not allowed at ${input.path.slice(0, 120)}`, {}, { Allow: 'GET' });
    }
    const authenticated = authenticate(route, input, deps);
    const principal = isPromise(authenticated) ? await authenticated : authenticated;
    if (principal && route.group && principal.kind !== 'operator') {
      if (isSubscribed(principal) && !principal.admin && principal.groups && !principal.groups.has(route.group)) {
        throw forbidden(`Endpoint group '${route.group}' is not in this ${holderWord(principal)}'s subscription`, { out_of_scope: { endpoint: route.group } });
      }
      if (route.addOn === 'compare' && isSubscribed(principal) && !principal.compare) {
        throw forbidden('This endpoint needs the Compare add-on on the subscription', { out_of_scope: { add_on: 'compare' } });
      }
      const need = principal.kind === 'client' && principal.scopes ? route.smart?.(input.params) : undefined;
      if (need && principal.kind === 'client' && !grants(principal.scopes!, need)) {
        const needed = scopesFor(need);
        throw new ApiError(403, 'forbidden', `The access token's scopes do not cover this request: it needs ${needed.join(' ')}`, { out_of_scope: { scope: needed } }, {
          'WWW-Authenticate': `Bearer ${REALM}, error="insufficient_scope", scope="${needed.join(' ')}"`,
        });
      }
      Object.assign(extraHeaders, deps.gate.admitNow?.(principal, route.group) ?? (await deps.gate.admit(principal, route.group)));
    }
    const ctx: RequestContext = { ...input, now: deps.now(), principal, authorize: authorizer(principal) };
    // Scope before anything else is checked or read: what the request names (its parameters, path, hints, canonicals
    // in its body), each valid value on its own; outside the subscription is a 403 whatever else is wrong with it.
    if (principal && route.scope) ctx.authorize(route.scope(ctx));
    const shape = bodyPolicyOf(route)?.shape;
    let bodyWarnings: BodyVerdict['warnings'] = [];
    if (shape) {
      const verdict = checkBody(shape.kind, input.body, route.reads?.(input.params), shape.limits);
      logWarnings(deps.log, input.requestId, route, verdict);
      if (verdict.errors.length) throw new BodyShapeError(verdict.errors, verdict.warnings);
      bodyWarnings = verdict.warnings;
    }
    // The body's accepted problems travel to the operation as warnings (its OperationOutcome, where it has one).
    const handled: RequestContext = bodyWarnings.length ? { ...ctx, bodyWarnings } : ctx;
    // A handler that answers at once (a lookup) is not awaited: one promise and one turn fewer per request.
    const answered = route.handle(handled, deps);
    result = isPromise(answered) ? await answered : answered;
    const cache = result.status < 300 || result.status === 304 ? route.cache : 'no-store';
    result.headers = { ...(cache ? { 'Cache-Control': cache } : {}), ...extraHeaders, ...result.headers };
  } catch (err) {
    result = renderError(err, route.surface, input.requestId, deps.log);
    result.headers = { ...extraHeaders, ...result.headers };
  }
  if (route.auth !== 'none') result.headers!.Vary = 'x-api-key, x-demo-session, Authorization';
  if (route.headers) Object.assign(result.headers!, route.headers);
  return result;
}

const isPromise = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as { then?: unknown } | null)?.then === 'function';

const isRaw = (body: unknown): body is RawBody => typeof body === 'object' && body !== null && (typeof (body as RawBody).raw === 'string' || Buffer.isBuffer((body as RawBody).raw));

// Security and CORS headers as one flat list, written with a single writeHead (no per-header setHeader work).
const STATIC_HEADERS: readonly string[] = [...SECURITY_HEADERS, ...CORS_HEADERS].flat();

export function writeResult(res: ServerResponse, method: string, result: HttpResult, surface: Surface, requestId: string): void {
  // 204 and 304 carry no body; a route may name its own Content-Type (Atom, JSON Feed).
  const noBody = result.status === 204 || result.status === 304;
  // Text is written as text: encoding it to a Buffer first (to skip the length count) measured no cheaper.
  const payload = noBody ? '' : isRaw(result.body) ? result.body.raw : JSON.stringify(result.body);
  const headers: string[] = [...STATIC_HEADERS, 'X-Request-Id', requestId];
  if (!noBody) headers.push('Content-Type', result.headers?.['Content-Type'] ?? CONTENT_TYPES[surface], 'Content-Length', String(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length));
  if (result.headers) for (const k in result.headers) if (k !== 'Content-Type') headers.push(k, result.headers[k]!);
  res.writeHead(result.status, headers);
  res.end(method === 'HEAD' ? undefined : payload);
}

export function logAccess(access: Logger, requestId: string, method: string, path: string, status: number, started: bigint): void {
  // Path only: query strings and bodies can carry member context; keys and tokens are never logged.
  access.info({ reqId: requestId, method, path, status, ms: Number(process.hrtime.bigint() - started) / 1e6 }, 'request');
}
