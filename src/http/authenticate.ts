// Credentials, one resolution for every route: x-api-key; on FHIR routes a SMART bearer access token; on CDS Hooks
// services a bearer JWT signed by a registered EHR; x-demo-session where the route allows it; the operator token on
// admin routes. Failed attempts are throttled per client address (services/auth-throttle.ts); every 401 carries a
// challenge.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError, forbidden, unauthorized } from '../domain/api-error.js';
import { publicBaseOf } from './base-url.js';
import type { AppDeps } from '../api/app-deps.js';
import type { RouteDef } from '../api/route.js';
import type { Principal } from '../domain/principal.js';
import { tooManyRequests } from '../services/access-gate.js';
import { UUID_V4 } from '../services/keys.js';
import type { PipelineInput } from './pipeline-input.js';

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

const BEARER = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;
export const REALM = 'realm="prauth"';

/** RFC 6750 3.1: a refused bearer token is `invalid_token`; a request with no credentials gets the bare challenge. */
function invalidToken(message: string): ApiError {
  return new ApiError(401, 'unauthorized', message, {}, { 'WWW-Authenticate': `Bearer ${REALM}, error="invalid_token", error_description="${message.replace(/["\\]/g, '')}"` });
}

/**
 * The one credential resolution. x-api-key on every keyed route; on FHIR routes a bearer access token from
 * /v1/auth/token; on CDS Hooks services a bearer JWT signed by a registered EHR (aud = this service's URL);
 * x-demo-session where the route allows it; the operator token on admin routes.
 */
async function resolveCredentials(route: RouteDef, input: PipelineInput, deps: AppDeps): Promise<Principal | undefined> {
  const { headers } = input;
  const bearer = BEARER.exec(headerValue(headers, 'authorization') ?? '')?.[1];
  if (route.auth === 'admin' && bearer && deps.operatorToken && safeEqual(bearer, deps.operatorToken)) return { kind: 'operator' };
  const key = headerValue(headers, 'x-api-key');
  if (key) {
    const principal = await deps.keys.verify(key.trim());
    if (!principal) throw unauthorized('Invalid or revoked API key');
    if (route.auth === 'admin' && !principal.admin) throw forbidden('This endpoint needs an admin key');
    return principal;
  }
  if (bearer && route.auth !== 'admin' && route.surface === 'fhir') {
    const principal = await deps.clients.verifyAccessToken(bearer);
    if (!principal) throw invalidToken('The access token is invalid, expired or revoked');
    return principal;
  }
  if (bearer && route.auth !== 'admin' && route.surface === 'cds') {
    const out = await deps.clients.verifyCdsJwt(bearer, `${publicBaseOf(headers, deps.config)}${input.path}`);
    if (!out.ok) throw unauthorized(out.reason);
    return out.principal;
  }
  if (route.auth === 'key_or_demo') {
    const session = headerValue(headers, 'x-demo-session');
    if (session) {
      const demo = UUID_V4.test(session) ? await deps.demo.verify(session) : null;
      if (!demo) throw unauthorized('Invalid or expired demo session');
      return demo;
    }
    throw unauthorized('Missing credentials: send x-api-key, or x-demo-session for demo access');
  }
  if (route.surface === 'fhir') throw unauthorized('Missing credentials: send a bearer access token (Authorization header) or an x-api-key');
  if (route.surface === 'cds') throw unauthorized('Missing credentials: send a bearer JWT signed by your registered EHR, or an x-api-key');
  throw unauthorized('Missing API key: send it in the x-api-key header');
}

/** Credentials resolved, with failed attempts throttled per client address (429 past the budget). */
export function authenticate(route: RouteDef, input: PipelineInput, deps: AppDeps): Principal | undefined | Promise<Principal | undefined> {
  if (route.auth === 'none') return undefined;
  return knownKey(route, input, deps) ?? resolveAndThrottle(route, input, deps);
}

/**
 * The usual call, answered without waiting: an API key this process verified within the key cache time, on a route
 * that is not an operator's. Anything else goes the whole way (resolveAndThrottle), which answers such a call the same.
 */
function knownKey(route: RouteDef, input: PipelineInput, deps: AppDeps): Principal | undefined {
  if (route.auth === 'admin' || !deps.keys.verifyCached) return undefined;
  const key = headerValue(input.headers, 'x-api-key');
  return key ? deps.keys.verifyCached(key.trim()) : undefined;
}

/**
 * Credentials checked, failures counted per client address. Valid credentials always pass (a blocked address is one
 * whose failures ran past the budget, and behind a shared proxy or NAT it holds other clients too); past the budget
 * every further failure from the address is a 429 instead of a 401, so guessing stays slow.
 */
async function resolveAndThrottle(route: RouteDef, input: PipelineInput, deps: AppDeps): Promise<Principal | undefined> {
  try {
    return await resolveCredentials(route, input, deps);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    const over = await deps.authThrottle.failure(input.clientAddress, deps.now());
    if (over) throw tooManyRequests('auth_failure', over, 'failed authentications from this address');
    if (!err.headers['WWW-Authenticate']) throw new ApiError(401, err.code, err.message, err.extra, { 'WWW-Authenticate': challengeOf(route, input) });
    throw err;
  }
}

/**
 * The challenge of a 401 (RFC 9110 15.5.2 requires one). FHIR and CDS routes, whose standard clients send bearer
 * credentials: `Bearer` (RFC 6750), with `error="invalid_token"` only when a bearer credential was sent, since a bad
 * x-api-key is not a bad token. Other routes: `ApiKey`, naming the header the key goes in.
 */
function challengeOf(route: RouteDef, input: PipelineInput): string {
  if (route.surface !== 'fhir' && route.surface !== 'cds') return `ApiKey ${REALM}, header="x-api-key"`;
  const bearerSent = BEARER.test(headerValue(input.headers, 'authorization') ?? '');
  return `Bearer ${REALM}${bearerSent ? ', error="invalid_token"' : ''}`;
}

