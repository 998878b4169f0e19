// Registered clients: SMART Backend Services clients (client_credentials with a private_key_jwt assertion) and
// CDS Hooks EHRs (a signed JWT on each hook call). A client is a subscription exactly like an API key (states,
// programs, endpoint groups, compare add-on, admin) and becomes a ClientPrincipal that passes the same access gate.
// This file: the record, the service's contract and the registration checks. The registry (client-service.ts),
// the token endpoint (token-endpoint.ts) and JWT verification (jwt-verifier.ts) implement it.
import { importJWK, type JSONWebKeySet, type JWK } from 'jose';
import type { EndpointGroup } from '../../domain/endpoint-groups.js';
import { subscriptionOf, type ClientKind, type ClientPrincipal } from '../../domain/principal.js';
import type { Program } from '../../domain/vocabulary.js';
import type { DocumentStore } from '../../store/port.js';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const SIGNING_ALGS = ['RS384', 'ES384'] as const;
/** SMART recommends five-minute access tokens. */
export const ACCESS_TOKEN_SECONDS = 300;

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

export function toPrincipal(r: ClientRecord, scopes: readonly string[] | null, via: ClientPrincipal['via']): ClientPrincipal {
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
