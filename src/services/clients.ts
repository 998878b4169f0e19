// Registered clients: SMART Backend Services clients (client_credentials with a private_key_jwt assertion) and
// CDS Hooks EHRs (a signed JWT on each hook call). A client is a subscription exactly like an API key (states,
// programs, endpoint groups, compare add-on, admin) and becomes a ClientPrincipal that passes the same access gate.
//
// Keys come from a JWKS URL (fetched and cached by jose's createRemoteJWKSet) or from a JWKS stored with the
// client. Access tokens are opaque random strings stored only as a SHA-256 hash with the client id, the granted
// scopes and the expiry, so every instance honours them, and revoking the client deletes them (docs/access.md
// says why opaque rather than signed). Assertion and CDS JWT ids (jti) are recorded in the store until the JWT
// expires: a replay is refused on every instance.
import { createHash, randomBytes } from 'node:crypto';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors as joseErrors,
  importJWK,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { EndpointGroup } from '../domain/endpoint-groups.js';
import { subscriptionOf, type ClientKind, type ClientPrincipal } from '../domain/principal.js';
import { grantable } from '../domain/smart-scopes.js';
import type { Program } from '../domain/vocabulary.js';
import { COLLECTIONS } from '../store/collections.js';
import { DuplicateKeyError, type DocumentStore } from '../store/port.js';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const SIGNING_ALGS = ['RS384', 'ES384'] as const;
/** SMART recommends five-minute access tokens. */
export const ACCESS_TOKEN_SECONDS = 300;
/** An assertion's or CDS JWT's exp may be at most this far ahead (SMART: "no more than five minutes"). */
const MAX_JWT_LIFETIME_SECONDS = 300;
/** Clock skew allowed on exp, iat and nbf. */
const CLOCK_TOLERANCE_SECONDS = 30;

export interface ClientRecord {
  /** The client_id (a backend client's assertions carry it as iss and sub). */
  id: string;
  name: string;
  kind: ClientKind;
  /** A cds-ehr client's JWT issuer (`iss`); null for backend clients. */
  issuer: string | null;
  jwksUrl: string | null;
  /** A JWKS registered by value (public keys only). */
  jwks: JSONWebKeySet | null;
  states: string[];
  programs: Program[];
  groups: EndpointGroup[];
  compare: boolean;
  admin: boolean;
  createdAt: string;
  revokedAt: string | null;
}

export interface CreateClientOptions {
  name?: string;
  kind: ClientKind;
  issuer?: string;
  jwksUrl?: string;
  jwks?: unknown;
  states?: string[];
  programs?: Program[];
  groups?: EndpointGroup[];
  compare?: boolean;
  admin?: boolean;
}

interface AccessTokenDoc {
  /** SHA-256 of the token (hex): the token itself is never stored. */
  id: string;
  clientId: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string;
}

interface JtiDoc {
  /** `${clientId}|${jti}` */
  id: string;
  expiresAt: string;
}

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  scope: string;
}

export type TokenOutcome =
  | { ok: true; body: TokenResponse }
  | { ok: false; status: 400 | 401; error: OAuthErrorCode; description: string; /** counts as a failed authentication */ authFailure: boolean };

export type CdsJwtOutcome = { ok: true; principal: ClientPrincipal } | { ok: false; reason: string };

export interface ClientService {
  create(options: CreateClientOptions): Promise<{ ok: true; record: ClientRecord } | { ok: false; problems: string[] }>;
  list(): Promise<ClientRecord[]>;
  get(id: string): Promise<ClientRecord | null>;
  /** Marks the client revoked and deletes its access tokens. */
  revoke(id: string): Promise<ClientRecord | null>;
  /** POST /v1/auth/token: a form already parsed; `tokenUrl` is this endpoint's public address (the assertion's aud). */
  issueToken(form: Readonly<Record<string, unknown>>, tokenUrl: string): Promise<TokenOutcome>;
  /** The principal for a bearer access token, or null when unknown, expired or its client revoked. */
  verifyAccessToken(token: string): Promise<ClientPrincipal | null>;
  /** A CDS Hooks JWT for the service at `audience` (its full URL). */
  verifyCdsJwt(jwt: string, audience: string): Promise<CdsJwtOutcome>;
}

export interface ClientServiceDeps {
  store: DocumentStore;
  now: () => Date;
  cacheSeconds: number;
  /** FHIR resource types the server serves: a token's scopes are limited to these (or `*`). */
  servedResourceTypes: ReadonlySet<string>;
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

/** https anywhere; plain http only on a loopback host (tests, a local EHR simulator). */
export function jwksUrlProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `jwks_url '${raw.slice(0, 80)}' is not a URL`;
  }
  if (raw.length > 2000) return 'jwks_url is longer than 2000 characters';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && LOOPBACK.has(u.hostname)) return null;
  return 'jwks_url must be https (plain http only on localhost, 127.0.0.1 or [::1])';
}

/** A JWKS of public RSA or EC keys, each importable, none carrying private members. */
export async function jwksProblems(jwks: unknown): Promise<string[]> {
  if (typeof jwks !== 'object' || jwks === null || !Array.isArray((jwks as JSONWebKeySet).keys)) return ['jwks must be an object with a "keys" array'];
  const keys = (jwks as JSONWebKeySet).keys;
  if (keys.length === 0 || keys.length > 20) return ['jwks must hold from 1 to 20 keys'];
  const problems: string[] = [];
  for (const [i, k] of keys.entries()) {
    if (typeof k !== 'object' || k === null) {
      problems.push(`jwks.keys[${i}] is not an object`);
      continue;
    }
    if (PRIVATE_MEMBERS.some((m) => m in k)) {
      problems.push(`jwks.keys[${i}] holds private key material: register the public keys only`);
      continue;
    }
    if (k.kty !== 'RSA' && k.kty !== 'EC') {
      problems.push(`jwks.keys[${i}].kty must be RSA or EC`);
      continue;
    }
    if (typeof k.kid !== 'string' || !k.kid) problems.push(`jwks.keys[${i}] needs a kid (JWTs name their key by kid)`);
    try {
      await importJWK(k as JWK, k.alg ?? (k.kty === 'EC' ? 'ES384' : 'RS384'));
    } catch (err) {
      problems.push(`jwks.keys[${i}] is not a usable public key: ${(err as Error).message}`);
    }
  }
  return problems;
}

function toPrincipal(r: ClientRecord, scopes: readonly string[] | null, via: ClientPrincipal['via']): ClientPrincipal {
  return {
    kind: 'client',
    clientId: r.id,
    clientKind: r.kind,
    name: r.name,
    meterId: r.id,
    ...subscriptionOf(r),
    scopes,
    via,
  };
}

/** A jose failure in words a client developer can act on (never the key or the token). */
function describeJoseError(err: unknown, what: string): string {
  if (err instanceof joseErrors.JWTExpired) return `${what} has expired`;
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `${what}: claim '${err.claim}' ${err.reason === 'check_failed' ? 'does not match' : err.reason === 'missing' ? 'is missing' : 'is invalid'}`;
  if (err instanceof joseErrors.JWKSNoMatchingKey) return `${what}: no key in the registered JWKS matches its kid and alg`;
  if (err instanceof joseErrors.JWKSMultipleMatchingKeys) return `${what}: several keys match; set a distinct kid`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return `${what}: signature verification failed`;
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return `${what}: alg not allowed (use RS384 or ES384)`;
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid) return `${what}: the registered JWKS could not be fetched or read`;
  if (err instanceof joseErrors.JOSEError) return `${what} is not a valid signed JWT (${err.code})`;
  return `${what} could not be verified`;
}

export function createClientService(deps: ClientServiceDeps): ClientService {
  const clients = deps.store.collection<ClientRecord>(COLLECTIONS.clients);
  const tokens = deps.store.collection<AccessTokenDoc>(COLLECTIONS.accessTokens);
  const jtis = deps.store.collection<JtiDoc>(COLLECTIONS.jwtIds);
  const remoteSets = new Map<string, JWTVerifyGetKey>();
  const localSets = new Map<string, JWTVerifyGetKey>();
  const MAX_CACHE = 10_000;
  const tokenCache = new Map<string, { principal: ClientPrincipal | null; expiresAt: number; until: number }>();
  const clientCache = new Map<string, { record: ClientRecord | null; until: number }>();
  const issuerCache = new Map<string, { record: ClientRecord | null; until: number }>();
  let lastPurge = 0;

  /** A store read, cached for KEY_CACHE_SECONDS like keys (so a revocation elsewhere is seen within that time). */
  const cachedLookup = async (cache: Map<string, { record: ClientRecord | null; until: number }>, k: string, load: () => Promise<ClientRecord | null>): Promise<ClientRecord | null> => {
    const t = Date.now();
    const hit = cache.get(k);
    if (hit && hit.until > t) return hit.record;
    const record = await load();
    if (deps.cacheSeconds > 0) {
      if (cache.size >= MAX_CACHE) cache.clear();
      cache.set(k, { record, until: t + deps.cacheSeconds * 1000 });
    }
    return record;
  };
  const cached = (id: string): Promise<ClientRecord | null> => cachedLookup(clientCache, id, () => clients.findOne({ id }));
  const activeEhr = (issuer: string): Promise<ClientRecord | null> =>
    cachedLookup(issuerCache, issuer, () => clients.findOne({ kind: 'cds-ehr', issuer, revokedAt: null }));

  const keySetOf = (r: ClientRecord): JWTVerifyGetKey => {
    if (r.jwksUrl) {
      let set = remoteSets.get(r.jwksUrl);
      if (!set) {
        set = createRemoteJWKSet(new URL(r.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
        remoteSets.set(r.jwksUrl, set);
      }
      return set;
    }
    let set = localSets.get(r.id);
    if (!set) {
      set = createLocalJWKSet(r.jwks!);
      localSets.set(r.id, set);
    }
    return set;
  };

  /** Header checks jose does not do for us: kid present, jku (when sent) equal to the registered JWKS URL. */
  const headerProblem = (jwt: string, r: ClientRecord, what: string): string | null => {
    let header;
    try {
      header = decodeProtectedHeader(jwt);
    } catch {
      return `${what} is not a JWT`;
    }
    if (!SIGNING_ALGS.includes(header.alg as (typeof SIGNING_ALGS)[number])) return `${what}: alg '${String(header.alg).slice(0, 20)}' not allowed (use RS384 or ES384)`;
    if (typeof header.kid !== 'string' || !header.kid) return `${what}: the header has no kid`;
    if (header.jku !== undefined && header.jku !== r.jwksUrl) return `${what}: jku does not match the JWKS URL registered for this client`;
    return null;
  };

  /** Records a JWT id until its expiry; false when it was seen before (a replay). */
  const firstUse = async (clientId: string, jti: string, exp: number): Promise<boolean> => {
    try {
      await jtis.insert({ id: `${clientId}|${jti}`, expiresAt: new Date(exp * 1000).toISOString() });
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  };

  const purgeExpired = (now: Date): void => {
    if (now.getTime() - lastPurge < 60_000) return;
    lastPurge = now.getTime();
    const before = { expiresAt: { $lt: now.toISOString() } };
    // Housekeeping only: a failure leaves expired rows that are refused anyway.
    void Promise.all([tokens.delete(before), jtis.delete(before)]).catch(() => undefined);
  };

  /** The common checks of a signed JWT from a registered client: header, signature, claims, lifetime, jti. */
  const verifyJwt = async (
    jwt: string,
    r: ClientRecord,
    expect: { issuer: string; subject?: string; audience: string; required: string[] },
    what: string,
  ): Promise<{ ok: true; payload: JWTPayload } | { ok: false; reason: string }> => {
    const problem = headerProblem(jwt, r, what);
    if (problem) return { ok: false, reason: problem };
    const now = deps.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(jwt, keySetOf(r), {
        algorithms: [...SIGNING_ALGS],
        issuer: expect.issuer,
        ...(expect.subject ? { subject: expect.subject } : {}),
        audience: expect.audience,
        requiredClaims: expect.required,
        currentDate: now,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (err) {
      return { ok: false, reason: describeJoseError(err, what) };
    }
    const nowSec = Math.floor(now.getTime() / 1000);
    if (payload.exp! > nowSec + MAX_JWT_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS) return { ok: false, reason: `${what}: exp is more than five minutes ahead` };
    if (typeof payload.jti !== 'string' || !payload.jti || payload.jti.length > 256) return { ok: false, reason: `${what}: jti must be a string of 1 to 256 characters` };
    if (!(await firstUse(r.id, payload.jti, payload.exp!))) return { ok: false, reason: `${what}: jti already used (replay)` };
    return { ok: true, payload };
  };

  const fail = (status: 400 | 401, error: OAuthErrorCode, description: string, authFailure = false): TokenOutcome => ({ ok: false, status, error, description, authFailure });

  return {
    async create(o) {
      const problems: string[] = [];
      if (o.kind !== 'backend' && o.kind !== 'cds-ehr') problems.push("kind must be 'backend' or 'cds-ehr'");
      if (!!o.jwksUrl === (o.jwks !== undefined)) problems.push('give exactly one of jwks_url and jwks');
      if (o.jwksUrl) {
        const p = jwksUrlProblem(o.jwksUrl);
        if (p) problems.push(p);
      }
      if (o.jwks !== undefined) problems.push(...(await jwksProblems(o.jwks)));
      const issuer = o.issuer?.trim() || null;
      if (o.kind === 'cds-ehr') {
        if (!issuer) problems.push('a cds-ehr client needs its issuer (the iss of the JWTs it signs)');
        else if (issuer.length > 500) problems.push('issuer is longer than 500 characters');
        else if (await clients.findOne({ kind: 'cds-ehr', issuer, revokedAt: null })) problems.push(`issuer '${issuer.slice(0, 80)}' is already registered to an active client`);
      } else if (issuer) problems.push('--issuer applies to cds-ehr clients only (a backend client signs with iss = its client_id)');
      if (problems.length) return { ok: false, problems };
      const record: ClientRecord = {
        id: `c_${randomBytes(12).toString('hex')}`,
        name: o.name ?? 'unnamed',
        kind: o.kind,
        issuer: o.kind === 'cds-ehr' ? issuer : null,
        jwksUrl: o.jwksUrl ?? null,
        jwks: o.jwks !== undefined ? { keys: (o.jwks as JSONWebKeySet).keys.map((k) => ({ ...k })) } : null,
        states: [...new Set(o.states ?? [])].sort(),
        programs: [...new Set(o.programs ?? [])].sort() as Program[],
        groups: [...new Set(o.groups ?? [])].sort() as EndpointGroup[],
        compare: o.compare ?? false,
        admin: o.admin ?? false,
        createdAt: deps.now().toISOString(),
        revokedAt: null,
      };
      await clients.insert(record);
      if (record.issuer) issuerCache.delete(record.issuer); // a refusal cached before the registration
      clientCache.delete(record.id);
      return { ok: true, record };
    },

    async list() {
      return clients.find({}, { sort: { createdAt: 1 } });
    },

    get: (id) => clients.findOne({ id }),

    async revoke(id) {
      const r = await clients.findOne({ id });
      if (!r) return null;
      if (!r.revokedAt) {
        r.revokedAt = deps.now().toISOString();
        await clients.update({ id }, { revokedAt: r.revokedAt });
      }
      await tokens.delete({ clientId: id });
      tokenCache.clear();
      clientCache.clear();
      issuerCache.clear();
      localSets.delete(id);
      return r;
    },

    async issueToken(form, tokenUrl) {
      for (const [k, v] of Object.entries(form)) {
        if (typeof v !== 'string') return fail(400, 'invalid_request', `parameter '${k.slice(0, 40)}' must be given once, as a string`);
      }
      const f = form as Readonly<Record<string, string | undefined>>;
      if (!f.grant_type) return fail(400, 'invalid_request', 'grant_type is required');
      if (f.grant_type !== 'client_credentials') return fail(400, 'unsupported_grant_type', `grant_type '${f.grant_type.slice(0, 60)}' is not supported; use client_credentials`);
      if (f.client_assertion_type !== CLIENT_ASSERTION_TYPE) return fail(400, 'invalid_request', `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`);
      if (!f.client_assertion) return fail(400, 'invalid_request', 'client_assertion is required');
      if (!f.scope?.trim()) return fail(400, 'invalid_request', 'scope is required (for example system/*.rs)');

      let claimed: JWTPayload;
      try {
        claimed = decodeJwt(f.client_assertion);
      } catch {
        return fail(401, 'invalid_client', 'client_assertion is not a JWT', true);
      }
      if (typeof claimed.iss !== 'string' || claimed.iss !== claimed.sub) return fail(401, 'invalid_client', 'client_assertion: iss and sub must both be the client_id', true);
      if (f.client_id !== undefined && f.client_id !== claimed.iss) return fail(401, 'invalid_client', 'client_id does not match the assertion', true);
      const r = claimed.iss.length <= 100 ? await clients.findOne({ id: claimed.iss }) : null;
      if (!r || r.revokedAt) return fail(401, 'invalid_client', 'client_assertion: iss is not an active registered client', true);
      const checked = await verifyJwt(f.client_assertion, r, { issuer: r.id, subject: r.id, audience: tokenUrl, required: ['iss', 'sub', 'aud', 'exp', 'jti'] }, 'client_assertion');
      if (!checked.ok) return fail(401, 'invalid_client', checked.reason, true);
      if (r.kind !== 'backend') return fail(400, 'unauthorized_client', 'this client is registered for CDS Hooks, not for access tokens');
      if (!r.admin && r.groups.length && !r.groups.includes('fhir')) return fail(400, 'invalid_scope', "the client's subscription does not include the fhir endpoint group");

      const granted = grantable(f.scope.trim().split(/\s+/), deps.servedResourceTypes);
      if (!granted.length) return fail(400, 'invalid_scope', 'none of the requested scopes can be granted: ask for system scopes such as system/*.rs or system/Claim.c');
      const token = randomBytes(32).toString('base64url');
      const now = deps.now();
      await tokens.insert({
        id: sha256(token),
        clientId: r.id,
        scopes: granted,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000).toISOString(),
      });
      purgeExpired(now);
      return { ok: true, body: { access_token: token, token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS, scope: granted.join(' ') } };
    },

    async verifyAccessToken(token) {
      if (token.length < 20 || token.length > 200) return null;
      const id = sha256(token);
      const t = Date.now();
      let hit = tokenCache.get(id);
      if (!hit || hit.until <= t) {
        const doc = await tokens.findOne({ id });
        const r = doc ? await cached(doc.clientId) : null;
        hit = {
          principal: doc && r && !r.revokedAt ? toPrincipal(r, doc.scopes, 'access_token') : null,
          expiresAt: doc ? Date.parse(doc.expiresAt) : 0,
          until: t + deps.cacheSeconds * 1000,
        };
        if (deps.cacheSeconds > 0) {
          if (tokenCache.size >= MAX_CACHE) tokenCache.clear();
          tokenCache.set(id, hit);
        }
      }
      return hit.principal && hit.expiresAt > deps.now().getTime() ? hit.principal : null;
    },

    async verifyCdsJwt(jwt, audience) {
      let claimed: JWTPayload;
      try {
        claimed = decodeJwt(jwt);
      } catch {
        return { ok: false, reason: 'The bearer token is not a JWT' };
      }
      if (typeof claimed.iss !== 'string' || !claimed.iss || claimed.iss.length > 500) return { ok: false, reason: 'The JWT has no iss' };
      const r = await activeEhr(claimed.iss);
      if (!r) return { ok: false, reason: 'The JWT iss is not a registered CDS client' };
      const checked = await verifyJwt(jwt, r, { issuer: r.issuer!, audience, required: ['iss', 'aud', 'exp', 'iat', 'jti'] }, 'The JWT');
      if (!checked.ok) return checked;
      return { ok: true, principal: toPrincipal(r, null, 'cds_jwt') };
    },
  };
}
