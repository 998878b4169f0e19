// SMART Backend Services and CDS Hooks JWTs as real clients do them: real key pairs (RS384, ES384), a JWKS served
// over HTTP on loopback, a registered client, a private_key_jwt assertion posted form-encoded to /v1/auth/token, and
// CDS Hooks JWTs signed the way the Inferno CRD test kit signs them (ES384 or RS384, kid and jku in the header,
// iss = the EHR's base URL, aud = the CDS service URL, exp 5 minutes, iat, jti).
//
//   const jwks = await serveJwks();                       // one loopback JWKS server for the suite
//   const srv = await listen(t);                          // the app on a loopback port
//   const { token } = await smartToken(t, { serverUrl: srv.url, jwks, scope: 'system/*.rs system/Claim.c' });
//   await request(t.app.handler).get('/v1/formulary/TX/part_d').set('authorization', `Bearer ${token}`);
//
//   const ehr = await registerCdsEhr(t, jwks);            // a cds-ehr client with its own key set
//   const jwt = await ehr.sign(`${base}/v1/cds-services/service-coverage-requirements`);
//
// In process (supertest on t.app.handler, nothing listening; keys registered by value):
//   const headers = await bearerHeaders(t, { scope: 'system/Claim.c', states: ['TX'] });
//   await request(t.app.handler).post('/v1/Claim/$submit').set(headers).set('content-type', 'application/fhir+json').send(...);
//   await request(t.app.handler).post('/v1/cds-services/service-coverage-requirements').set(await cdsHeaders(t, 'service-coverage-requirements')).send(...);
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import request from 'supertest';
import type { Program } from '../../src/domain/vocabulary.js';
import type { EndpointGroup } from '../../src/domain/endpoint-groups.js';
import { CLIENT_ASSERTION_TYPE, type ClientRecord } from '../../src/services/clients/records.js';
import type { TestApp } from './test-app.js';

export type Alg = 'RS384' | 'ES384';

export interface KeyPair {
  alg: Alg | 'RS256' | 'ES256';
  kid: string;
  privateKey: CryptoKey;
  /** The public JWK as it goes in a JWKS (kid, alg, use). */
  publicJwk: JWK;
}

/** A key pair for one JWS alg (RS256/ES256 exist for negative tests: the service accepts RS384 and ES384 only). */
export async function makeKeyPair(alg: KeyPair['alg'] = 'ES384', kid: string = randomUUID()): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export interface JwksServer {
  /** Serves a new JWKS holding these public keys and returns its URL (http://127.0.0.1:PORT/<n>/jwks.json).
   * One set per client, as in practice: jose caches a fetched set, so a key added later to a set already fetched
   * is only seen after its cooldown. */
  publish(...keys: KeyPair[]): string;
  /** How many times sets were fetched (all, or the one at `url`). */
  fetches(url?: string): number;
  close(): Promise<void>;
}

/** JWKS documents served over HTTP on loopback (a client's `jwks_url`, and the `jku` of its JWTs). */
export async function serveJwks(): Promise<JwksServer> {
  const sets = new Map<string, { keys: JWK[]; fetches: number }>();
  const server: Server = createServer((req, res) => {
    const set = sets.get(req.url ?? '');
    if (!set) {
      res.writeHead(404).end();
      return;
    }
    set.fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: set.keys }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    publish(...keys) {
      const path = `/${sets.size + 1}/jwks.json`;
      sets.set(path, { keys: keys.map((k) => k.publicJwk), fetches: 0 });
      return `${base}${path}`;
    },
    fetches: (url) => (url ? (sets.get(new URL(url).pathname)?.fetches ?? 0) : [...sets.values()].reduce((n, s) => n + s.fetches, 0)),
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

export interface Subscription {
  name?: string;
  states?: string[];
  programs?: Program[];
  groups?: EndpointGroup[];
  compare?: boolean;
  admin?: boolean;
}

const subscriptionOf = (o: Subscription): Subscription => {
  const { name, states, programs, groups, compare, admin } = o;
  return JSON.parse(JSON.stringify({ name, states, programs, groups, compare, admin })) as Subscription;
};

/** Registers a backend client whose keys are served at a JWKS URL (from `JwksServer.publish`) or given by value. */
export async function registerBackendClient(t: TestApp, jwks: string | { keys: JWK[] }, sub: Subscription = {}): Promise<ClientRecord> {
  const out = await t.deps.clients.create({ kind: 'backend', ...(typeof jwks === 'string' ? { jwksUrl: jwks } : { jwks }), ...subscriptionOf(sub) });
  if (!out.ok) throw new Error(`client registration refused: ${out.problems.join('; ')}`);
  return out.record;
}

export interface AssertionOptions {
  clientId: string;
  tokenUrl: string;
  key: KeyPair;
  /** Overrides for negative tests. */
  iss?: string;
  sub?: string;
  aud?: string;
  /** Seconds since the epoch; default now + 300. */
  exp?: number;
  jti?: string;
  alg?: string;
  kid?: string;
  jku?: string;
  now?: Date;
}

/** A private_key_jwt client assertion (SMART App Launch 2.x backend services; the Inferno SMART kit's shape). */
export async function signAssertion(o: AssertionOptions): Promise<string> {
  const nowSec = Math.floor((o.now ?? new Date()).getTime() / 1000);
  return new SignJWT({ jti: o.jti ?? randomBytes(32).toString('hex') } as JWTPayload)
    .setProtectedHeader({ alg: o.alg ?? o.key.alg, kid: o.kid ?? o.key.kid, typ: 'JWT', ...(o.jku ? { jku: o.jku } : {}) })
    .setIssuer(o.iss ?? o.clientId)
    .setSubject(o.sub ?? o.clientId)
    .setAudience(o.aud ?? o.tokenUrl)
    .setExpirationTime(o.exp ?? nowSec + 300)
    .sign(o.key.privateKey);
}

/** POSTs a token request form-encoded, as an OAuth client library does. */
export async function postTokenRequest(serverUrl: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(`${serverUrl}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

export const tokenForm = (assertion: string, scope: string): Record<string, string> => ({
  grant_type: 'client_credentials',
  scope,
  client_assertion_type: CLIENT_ASSERTION_TYPE,
  client_assertion: assertion,
});

export interface SmartTokenOptions extends Subscription {
  /** Where the app listens (the token request goes there). */
  serverUrl: string;
  /** The public base the server believes it has (PUBLIC_BASE_URL); default serverUrl. */
  publicBase?: string;
  jwks: JwksServer;
  scope?: string;
  alg?: Alg;
}

/** Key pair + registration + assertion + token request: an access token for a new backend client. */
export async function smartToken(t: TestApp, o: SmartTokenOptions): Promise<{ token: string; client: ClientRecord; key: KeyPair; scope: string }> {
  const key = await makeKeyPair(o.alg ?? 'ES384');
  const client = await registerBackendClient(t, o.jwks.publish(key), o);
  const assertion = await signAssertion({ clientId: client.id, tokenUrl: `${o.publicBase ?? o.serverUrl}/v1/auth/token`, key });
  const res = await postTokenRequest(o.serverUrl, tokenForm(assertion, o.scope ?? 'system/*.rs system/Claim.c'));
  if (res.status !== 200) throw new Error(`token request refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.access_token as string, client, key, scope: res.body.scope as string };
}

export interface CdsJwtOptions {
  /** The CDS service URL: `${base}/v1/cds-services/${id}`. */
  aud: string;
  iss: string;
  key: KeyPair;
  jku?: string;
  exp?: number;
  iat?: number;
  jti?: string;
  alg?: string;
  now?: Date;
}

/** A CDS Hooks JWT as the Inferno CRD kit signs it: header {alg, typ: JWT, kid, jku}, payload {iss, aud, exp, iat, jti}. */
export async function signCdsJwt(o: CdsJwtOptions): Promise<string> {
  const nowSec = Math.floor((o.now ?? new Date()).getTime() / 1000);
  return new SignJWT({ jti: o.jti ?? randomBytes(32).toString('hex') } as JWTPayload)
    .setProtectedHeader({ alg: o.alg ?? o.key.alg, typ: 'JWT', kid: o.key.kid, ...(o.jku ? { jku: o.jku } : {}) })
    .setIssuer(o.iss)
    .setAudience(o.aud)
    .setIssuedAt(o.iat ?? nowSec)
    .setExpirationTime(o.exp ?? nowSec + 300)
    .sign(o.key.privateKey);
}

export interface CdsEhr {
  client: ClientRecord;
  key: KeyPair;
  issuer: string;
  jwksUrl: string;
  /** A fresh JWT for one call to the service at `aud` (jku = the registered JWKS URL, as the CRD kit sends it). */
  sign(aud: string, overrides?: Partial<CdsJwtOptions>): Promise<string>;
}

/** Registers a cds-ehr client with a new key, its JWKS served by `jwks`. */
export async function registerCdsEhr(t: TestApp, jwks: JwksServer, o: Subscription & { alg?: Alg; issuer?: string } = {}): Promise<CdsEhr> {
  const key = await makeKeyPair(o.alg ?? 'ES384');
  const jwksUrl = jwks.publish(key);
  const issuer = o.issuer ?? `http://ehr-${randomBytes(4).toString('hex')}.test/custom/crd_client`;
  const out = await t.deps.clients.create({ kind: 'cds-ehr', issuer, jwksUrl, ...subscriptionOf(o) });
  if (!out.ok) throw new Error(`client registration refused: ${out.problems.join('; ')}`);
  return { client: out.record, key, issuer, jwksUrl, sign: (aud, overrides = {}) => signCdsJwt({ aud, iss: issuer, key, jku: jwksUrl, ...overrides }) };
}

/** Listens on loopback port 0 and returns the base URL (close it after). */
export async function listen(t: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(t.app.handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** The Host in-process requests send when PUBLIC_BASE_URL is not set, so that the signed audience is predictable. */
export const TEST_HOST = 'prauth.test';
const inProcessBase = (t: TestApp): string => t.deps.config.publicBaseUrl ?? `http://${TEST_HOST}`;

/**
 * In process: registers a backend client (JWKS by value), posts the token request through supertest and returns
 * the headers for the calls that follow ({authorization, host}).
 */
export async function bearerHeaders(t: TestApp, o: Subscription & { scope?: string; alg?: Alg } = {}): Promise<Record<string, string>> {
  const key = await makeKeyPair(o.alg ?? 'ES384');
  const client = await registerBackendClient(t, { keys: [key.publicJwk] }, o);
  const assertion = await signAssertion({ clientId: client.id, tokenUrl: `${inProcessBase(t)}/v1/auth/token`, key, now: t.deps.now() });
  const res = await request(t.app.handler).post('/v1/auth/token').set('host', TEST_HOST).type('form').send(tokenForm(assertion, o.scope ?? 'system/*.rs system/Claim.c'));
  if (res.status !== 200) throw new Error(`token request refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { authorization: `Bearer ${res.body.access_token as string}`, host: TEST_HOST };
}

/** In process: a new cds-ehr client (JWKS by value) and the headers of one signed call to the CDS service `serviceId`. */
export async function cdsHeaders(t: TestApp, serviceId: string, o: Subscription & { alg?: Alg } = {}): Promise<Record<string, string>> {
  const key = await makeKeyPair(o.alg ?? 'ES384');
  const issuer = `http://ehr-${randomBytes(4).toString('hex')}.test`;
  const out = await t.deps.clients.create({ kind: 'cds-ehr', issuer, jwks: { keys: [key.publicJwk] }, ...subscriptionOf(o) });
  if (!out.ok) throw new Error(`client registration refused: ${out.problems.join('; ')}`);
  const jwt = await signCdsJwt({ aud: `${inProcessBase(t)}/v1/cds-services/${serviceId}`, iss: issuer, key, now: t.deps.now() });
  return { authorization: `Bearer ${jwt}`, host: TEST_HOST };
}
