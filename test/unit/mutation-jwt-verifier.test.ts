// The JWT verifier on its own (issue 26: the mutation run left jwt-verifier.ts at 69%): each refusal with its exact
// words (header, signature, claims, lifetime, jti, replay), the key sets it keeps (a registered JWKS URL fetched once
// and reused; a JWKS by value kept per client until `forget`), over a real JWKS server on loopback and real
// jose-signed JWTs.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, type JWTPayload } from 'jose';
import { createJwtVerifier, type JwtExpectation, type JwtVerifier } from '../../src/services/clients/jwt-verifier.js';
import type { ClientRecord } from '../../src/services/clients/records.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import { makeKeyPair, serveJwks, type JwksServer, type KeyPair } from '../support/smart.js';

const NOW = new Date('2026-11-26T12:00:00Z');
const NOW_SEC = Math.floor(NOW.getTime() / 1000);
const AUD = 'https://prauth.test/v1/auth/token';
const WHAT = 'the client assertion';

function record(over: Partial<ClientRecord>): ClientRecord {
  return { id: 'c_1', name: 'app', kind: 'backend', issuer: null, jwksUrl: null, jwks: null, states: [], programs: [], groups: [], compare: false, admin: false, createdAt: NOW.toISOString(), revokedAt: null, ...over };
}

interface Sign {
  key: KeyPair;
  claims?: JWTPayload;
  iss?: string | null;
  sub?: string | null;
  aud?: string;
  exp?: number | null;
  jti?: string | null;
  header?: Record<string, unknown>;
}
async function sign(o: Sign): Promise<string> {
  const payload: JWTPayload = { ...(o.jti === null ? {} : { jti: o.jti ?? `jti-${Math.random()}` }), ...o.claims };
  let jwt = new SignJWT(payload).setProtectedHeader({ alg: o.key.alg, kid: o.key.kid, typ: 'JWT', ...o.header }).setAudience(o.aud ?? AUD);
  if (o.iss !== null) jwt = jwt.setIssuer(o.iss ?? 'c_1');
  if (o.sub !== null) jwt = jwt.setSubject(o.sub ?? 'c_1');
  if (o.exp !== null) jwt = jwt.setExpirationTime(o.exp ?? NOW_SEC + 300);
  return jwt.sign(o.key.privateKey);
}

describe('JWT verifier: refusals in words, key sets kept and dropped', () => {
  let verifier: JwtVerifier;
  let key: KeyPair;
  let other: KeyPair;
  const expectation: JwtExpectation = { issuer: 'c_1', subject: 'c_1', audience: AUD, required: ['exp', 'jti'] };
  beforeEach(async () => {
    verifier = createJwtVerifier({ store: await openEmbeddedStore({}), now: () => NOW });
  });
  before(async () => {
    key = await makeKeyPair('ES384', 'k1');
    other = await makeKeyPair('ES384', 'k2');
  });
  const byValue = (...keys: KeyPair[]) => record({ jwks: { keys: keys.map((k) => k.publicJwk) } as ClientRecord['jwks'] });
  const reason = async (jwt: string, r = byValue(key), e = expectation) => {
    const out = await verifier.verify(jwt, r, e, WHAT);
    return out.ok ? 'ok' : out.reason;
  };

  it('when the JWT is valid, then ok with its payload; used again, a replay', async () => {
    const jwt = await sign({ key, jti: 'once' });
    const first = await verifier.verify(jwt, byValue(key), expectation, WHAT);
    expect(first.ok).to.equal(true);
    expect(first.ok && first.payload.jti).to.equal('once');
    expect(await reason(jwt)).to.equal(`${WHAT}: jti already used (replay)`);
  });

  it('when the header is wrong, then the header is named: not a JWT, alg, kid, jku', async () => {
    expect(await reason('not-a-jwt')).to.equal(`${WHAT} is not a JWT`);
    const rs256 = await makeKeyPair('RS256', 'k3');
    expect(await reason(await sign({ key: rs256 }))).to.equal(`${WHAT}: alg 'RS256' not allowed (use RS384 or ES384)`);
    expect(await reason(await sign({ key, header: { kid: '' } }))).to.equal(`${WHAT}: the header has no kid`);
    expect(await reason(await sign({ key, header: { kid: undefined } }))).to.equal(`${WHAT}: the header has no kid`);
    expect(await reason(await sign({ key, header: { jku: 'https://elsewhere.example/jwks' } }))).to.equal(`${WHAT}: jku does not match the JWKS URL registered for this client`);
  });

  it('when the signature or the key is wrong, then it says which', async () => {
    // Signed by another key under the registered kid: the signature fails.
    const forged = await sign({ key: { ...other, kid: 'k1' } });
    expect(await reason(forged)).to.equal(`${WHAT}: signature verification failed`);
    // A kid the JWKS does not hold.
    expect(await reason(await sign({ key: other }))).to.equal(`${WHAT}: no key in the registered JWKS matches its kid and alg`);
    // Two keys under one kid: jose tries each, so the right one verifies and a third key's signature fails.
    const twin = { ...other, kid: 'k1', publicJwk: { ...other.publicJwk, kid: 'k1' } };
    expect(await reason(await sign({ key }), byValue(key, twin))).to.equal('ok');
    const third = await makeKeyPair('ES384', 'k1');
    expect(await reason(await sign({ key: third }), byValue(key, twin))).to.equal(`${WHAT}: signature verification failed`);
  });

  it('when a claim is wrong, then the claim is named: does not match, is missing, has expired', async () => {
    expect(await reason(await sign({ key, iss: 'someone-else' }))).to.equal(`${WHAT}: claim 'iss' does not match`);
    expect(await reason(await sign({ key, sub: 'someone-else' }))).to.equal(`${WHAT}: claim 'sub' does not match`);
    expect(await reason(await sign({ key, aud: 'https://elsewhere.example' }))).to.equal(`${WHAT}: claim 'aud' does not match`);
    expect(await reason(await sign({ key, iss: null }))).to.equal(`${WHAT}: claim 'iss' is missing`);
    expect(await reason(await sign({ key, jti: null }))).to.equal(`${WHAT}: claim 'jti' is missing`);
    expect(await reason(await sign({ key, exp: null }))).to.equal(`${WHAT}: claim 'exp' is missing`);
    expect(await reason(await sign({ key, exp: NOW_SEC - 31 }))).to.equal(`${WHAT} has expired`);
    // Within the 30 s tolerance an exp just past is still good.
    expect(await reason(await sign({ key, exp: NOW_SEC - 29 }))).to.equal('ok');
    // nbf in the future beyond the tolerance: a claim check jose reports as invalid timing, not a match failure.
    expect(await reason(await sign({ key, claims: { nbf: NOW_SEC + 120 } }))).to.equal(`${WHAT}: claim 'nbf' does not match`);
    // Without a subject expectation, sub is not checked.
    expect(await reason(await sign({ key, sub: 'anyone' }), byValue(key), { ...expectation, subject: undefined } as unknown as JwtExpectation)).to.equal('ok');
  });

  it('when exp is more than five minutes ahead (beyond the 30 s tolerance), then refused; at the bound, accepted', async () => {
    expect(await reason(await sign({ key, exp: NOW_SEC + 331 }))).to.equal(`${WHAT}: exp is more than five minutes ahead`);
    expect(await reason(await sign({ key, exp: NOW_SEC + 330 }))).to.equal('ok');
  });

  it('when the jti is empty, not a string or over 256 characters, then refused; 256 is accepted', async () => {
    const e = { ...expectation, required: ['exp'] };
    expect(await reason(await sign({ key, jti: null }), byValue(key), e)).to.equal(`${WHAT}: jti must be a string of 1 to 256 characters`);
    expect(await reason(await sign({ key, jti: '' }), byValue(key), e)).to.equal(`${WHAT}: jti must be a string of 1 to 256 characters`);
    expect(await reason(await sign({ key, jti: null, claims: { jti: 42 as unknown as string } }), byValue(key), e)).to.equal(`${WHAT}: jti must be a string of 1 to 256 characters`);
    expect(await reason(await sign({ key, jti: 'j'.repeat(257) }))).to.equal(`${WHAT}: jti must be a string of 1 to 256 characters`);
    expect(await reason(await sign({ key, jti: 'j'.repeat(256) }))).to.equal('ok');
  });

  it('when the same jti comes from two clients, then each is a first use (the replay record is per client)', async () => {
    expect(await reason(await sign({ key, jti: 'shared' }), byValue(key))).to.equal('ok');
    expect(await reason(await sign({ key, jti: 'shared', iss: 'c_2', sub: 'c_2' }), { ...byValue(key), id: 'c_2' }, { ...expectation, issuer: 'c_2', subject: 'c_2' })).to.equal('ok');
  });

  it('when a JWKS is registered by value, then it is kept per client until forget; after forget the new set is read', async () => {
    const r = byValue(key);
    expect(await reason(await sign({ key }), r)).to.equal('ok');
    const rotated = { ...r, jwks: { keys: [other.publicJwk] } as ClientRecord['jwks'] };
    // The set read first is still the one used.
    expect(await reason(await sign({ key: other }), rotated)).to.equal(`${WHAT}: no key in the registered JWKS matches its kid and alg`);
    verifier.forget('c_1');
    expect(await reason(await sign({ key: other }), rotated)).to.equal('ok');
    // Another client's set is its own.
    expect(await reason(await sign({ key, iss: 'c_2', sub: 'c_2' }), { ...byValue(key), id: 'c_2' }, { ...expectation, issuer: 'c_2', subject: 'c_2' })).to.equal('ok');
  });

  it('purgeExpired deletes only the jtis expired before the time given, so a purged jti could be used again', async () => {
    const jwt = await sign({ key, jti: 'old', exp: NOW_SEC + 60 });
    expect(await reason(jwt)).to.equal('ok');
    await verifier.purgeExpired(new Date((NOW_SEC + 59) * 1000));
    expect(await reason(jwt)).to.equal(`${WHAT}: jti already used (replay)`);
    await verifier.purgeExpired(new Date((NOW_SEC + 61) * 1000));
    expect(await reason(jwt)).to.equal('ok');
  });

  describe('a JWKS URL', () => {
    let jwks: JwksServer;
    let broken: Server;
    let brokenUrl: string;
    before(async () => {
      jwks = await serveJwks();
      broken = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys": "not a list"}'));
      await new Promise<void>((r) => broken.listen(0, '127.0.0.1', () => r()));
      brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/jwks.json`;
    });
    after(async () => {
      await jwks.close();
      await new Promise<void>((r) => broken.close(() => r()));
    });

    it('when two JWTs are verified against one URL, then the set is fetched once and reused (also for a jku equal to it)', async () => {
      const url = jwks.publish(key);
      const r = record({ jwksUrl: url });
      expect(await reason(await sign({ key }), r)).to.equal('ok');
      expect(await reason(await sign({ key, header: { jku: url } }), r)).to.equal('ok');
      expect(jwks.fetches(url)).to.equal(1);
      // Another client registering the same URL shares the fetched set.
      expect(await reason(await sign({ key, iss: 'c_9', sub: 'c_9' }), record({ id: 'c_9', jwksUrl: url }), { ...expectation, issuer: 'c_9', subject: 'c_9' })).to.equal('ok');
      expect(jwks.fetches(url)).to.equal(1);
    });

    it('when the URL serves something that is not a JWKS, then it says the registered JWKS could not be fetched or read', async () => {
      expect(await reason(await sign({ key }), record({ jwksUrl: brokenUrl }))).to.equal(`${WHAT}: the registered JWKS could not be fetched or read`);
    });
  });
});
