// The checks every signed JWT from a registered client passes (a SMART client assertion, a CDS Hooks JWT): header,
// signature against the client's JWKS (by URL, fetched and cached by jose, or registered by value), claims,
// lifetime, and a jti recorded in the store until the JWT expires, so a replay is refused on every instance.
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { COLLECTIONS } from '../../store/collections.js';
import { DuplicateKeyError, type DocumentStore } from '../../store/port.js';
import { SIGNING_ALGS, type ClientRecord } from './records.js';

/** An assertion's or CDS JWT's exp may be at most this far ahead (SMART: "no more than five minutes"). */
const MAX_JWT_LIFETIME_SECONDS = 300;
/** Clock skew allowed on exp, iat and nbf. */
const CLOCK_TOLERANCE_SECONDS = 30;

interface JtiDoc {
  /** `${clientId}|${jti}` */
  id: string;
  expiresAt: string;
}

export interface JwtExpectation {
  issuer: string;
  subject?: string;
  audience: string;
  required: string[];
}

export interface JwtVerifier {
  verify(jwt: string, r: ClientRecord, expect: JwtExpectation, what: string): Promise<{ ok: true; payload: JWTPayload } | { ok: false; reason: string }>;
  /** Drops the key set registered by value for a client (revoked). */
  forget(clientId: string): void;
  /** Deletes recorded jtis expired before `now` (housekeeping). */
  purgeExpired(now: Date): Promise<unknown>;
}

/**
 * A jose failure in words a client developer can act on (never the key or the token). Several keys under one kid
 * need no words of their own: jwtVerify tries each, so the JWT verifies or its signature fails.
 */
function describeJoseError(err: unknown, what: string): string {
  if (err instanceof joseErrors.JWTExpired) return `${what} has expired`;
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `${what}: claim '${err.claim}' ${err.reason === 'check_failed' ? 'does not match' : err.reason === 'missing' ? 'is missing' : 'is invalid'}`;
  if (err instanceof joseErrors.JWKSNoMatchingKey) return `${what}: no key in the registered JWKS matches its kid and alg`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return `${what}: signature verification failed`;
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return `${what}: alg not allowed (use RS384 or ES384)`;
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid) return `${what}: the registered JWKS could not be fetched or read`;
  if (err instanceof joseErrors.JOSEError) return `${what} is not a valid signed JWT (${err.code})`;
  return `${what} could not be verified`;
}

export function createJwtVerifier(deps: { store: DocumentStore; now: () => Date }): JwtVerifier {
  const jtis = deps.store.collection<JtiDoc>(COLLECTIONS.jwtIds);
  const remoteSets = new Map<string, JWTVerifyGetKey>();
  const localSets = new Map<string, JWTVerifyGetKey>();

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

  return {
    async verify(jwt, r, expect, what) {
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
    },
    forget: (clientId) => void localSets.delete(clientId),
    purgeExpired: (now) => jtis.delete({ expiresAt: { $lt: now.toISOString() } }),
  };
}
