// POST /v1/auth/token (SMART Backend Services: client_credentials with a private_key_jwt assertion) and the
// bearer tokens it issues. Access tokens are opaque random strings stored only as a SHA-256 hash with the client id,
// the granted scopes and the expiry, so every instance honours them and revoking the client deletes them
// (docs/access.md says why opaque rather than signed).
import { randomBytes } from 'node:crypto';
import { decodeJwt, type JWTPayload } from 'jose';
import type { ClientPrincipal } from '../../domain/principal.js';
import { grantable } from '../../domain/smart-scopes.js';
import { sha256Hex } from '../../domain/hash.js';
import { createTtlCache } from '../../domain/ttl-cache.js';
import { COLLECTIONS } from '../../store/collections.js';
import type { DocumentStore } from '../../store/port.js';
import type { JwtVerifier } from './jwt-verifier.js';
import { ACCESS_TOKEN_SECONDS, CLIENT_ASSERTION_TYPE, toPrincipal, type ClientRecord, type OAuthErrorCode, type TokenOutcome } from './records.js';

interface AccessTokenDoc {
  /** SHA-256 of the token (hex): the token itself is never stored. */
  id: string;
  clientId: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string;
}

export interface TokenEndpoint {
  issueToken(form: Readonly<Record<string, unknown>>, tokenUrl: string): Promise<TokenOutcome>;
  verifyAccessToken(token: string): Promise<ClientPrincipal | null>;
  /** Deletes a revoked client's tokens and forgets every cached token answer. */
  revokeTokens(clientId: string): Promise<void>;
}

export interface TokenEndpointDeps {
  store: DocumentStore;
  now: () => Date;
  cacheSeconds: number;
  servedResourceTypes: ReadonlySet<string>;
  verifier: JwtVerifier;
  /** A client by id, through the registry's cache. */
  cachedClient(id: string): Promise<ClientRecord | null>;
}

const fail = (status: 400 | 401, error: OAuthErrorCode, description: string, authFailure = false): TokenOutcome => ({ ok: false, status, error, description, authFailure });

export function createTokenEndpoint(deps: TokenEndpointDeps): TokenEndpoint {
  const clients = deps.store.collection<ClientRecord>(COLLECTIONS.clients);
  const tokens = deps.store.collection<AccessTokenDoc>(COLLECTIONS.accessTokens);
  const answers = createTtlCache<{ principal: ClientPrincipal | null; expiresAt: number }>({ seconds: deps.cacheSeconds, now: deps.now });
  let lastPurge = 0;

  const purgeExpired = (now: Date): void => {
    if (now.getTime() - lastPurge < 60_000) return;
    lastPurge = now.getTime();
    // Housekeeping only: a failure leaves expired rows that are refused anyway.
    void Promise.all([tokens.delete({ expiresAt: { $lt: now.toISOString() } }), deps.verifier.purgeExpired(now)]).catch(() => undefined);
  };

  return {
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
      const checked = await deps.verifier.verify(f.client_assertion, r, { issuer: r.id, subject: r.id, audience: tokenUrl, required: ['iss', 'sub', 'aud', 'exp', 'jti'] }, 'client_assertion');
      if (!checked.ok) return fail(401, 'invalid_client', checked.reason, true);
      if (r.kind !== 'backend') return fail(400, 'unauthorized_client', 'this client is registered for CDS Hooks, not for access tokens');
      if (!r.admin && r.groups.length && !r.groups.includes('fhir')) return fail(400, 'invalid_scope', "the client's subscription does not include the fhir endpoint group");

      const granted = grantable(f.scope.trim().split(/\s+/), deps.servedResourceTypes);
      if (!granted.length) return fail(400, 'invalid_scope', 'none of the requested scopes can be granted: ask for system scopes such as system/*.rs or system/Claim.c');
      const token = randomBytes(32).toString('base64url');
      const now = deps.now();
      await tokens.insert({
        id: sha256Hex(token),
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
      const id = sha256Hex(token);
      const hit = await answers.get(id, async () => {
        const doc = await tokens.findOne({ id });
        const r = doc ? await deps.cachedClient(doc.clientId) : null;
        return { principal: doc && r && !r.revokedAt ? toPrincipal(r, doc.scopes, 'access_token') : null, expiresAt: doc ? Date.parse(doc.expiresAt) : 0 };
      });
      return hit.principal && hit.expiresAt > deps.now().getTime() ? hit.principal : null;
    },

    async revokeTokens(clientId) {
      await tokens.delete({ clientId });
      answers.clear();
    },
  };
}
