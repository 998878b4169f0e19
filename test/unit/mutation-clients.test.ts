// Registered clients, driven directly over an in-memory store: what a registration is refused for (each problem
// with its message), what a token request is refused for before and after client authentication, and how access
// tokens are bounded, cached and revoked. The suite drove these mostly through the happy path; the mutation run
// (issue 26) showed the refusals unpinned.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createClientService } from '../../src/services/clients/client-service.js';
import { jwksProblems, jwksUrlProblem, ACCESS_TOKEN_SECONDS, type ClientService, type CreateClientOptions } from '../../src/services/clients/records.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import type { DocumentStore } from '../../src/store/port.js';
import { makeKeyPair, signAssertion, tokenForm, type KeyPair } from '../support/smart.js';

const TOKEN_URL = 'https://prauth.test/v1/auth/token';
const SERVED = new Set(['InsurancePlan', 'Claim']);

async function service(o: { cacheSeconds?: number; now?: () => Date; store?: DocumentStore } = {}): Promise<{ clients: ClientService; store: DocumentStore }> {
  const store = o.store ?? (await openEmbeddedStore({}));
  return { store, clients: createClientService({ store, now: o.now ?? (() => new Date()), cacheSeconds: o.cacheSeconds ?? 0, servedResourceTypes: SERVED }) };
}

async function backend(clients: ClientService, key: KeyPair, over: Partial<CreateClientOptions> = {}) {
  const made = await clients.create({ kind: 'backend', name: 'app', jwks: { keys: [key.publicJwk] }, ...over });
  if (!made.ok) throw new Error(made.problems.join('; '));
  return made.record;
}

const problemsOf = async (clients: ClientService, o: CreateClientOptions) => {
  const r = await clients.create(o);
  return r.ok ? [] : r.problems;
};

describe('registered clients: registration refused with every reason', () => {
  it('jwksUrlProblem: https anywhere, plain http on loopback only, and what is wrong otherwise', () => {
    expect(jwksUrlProblem('https://ehr.example.org/jwks.json')).to.equal(null);
    for (const ok of ['http://localhost:8080/jwks', 'http://127.0.0.1/jwks', 'http://[::1]:9/jwks']) expect(jwksUrlProblem(ok), ok).to.equal(null);
    expect(jwksUrlProblem('http://ehr.example.org/jwks')).to.equal('jwks_url must be https (plain http only on localhost, 127.0.0.1 or [::1])');
    expect(jwksUrlProblem('ftp://localhost/jwks')).to.equal('jwks_url must be https (plain http only on localhost, 127.0.0.1 or [::1])');
    expect(jwksUrlProblem(`not a url ${'x'.repeat(100)}`)).to.equal(`jwks_url 'not a url ${'x'.repeat(70)}' is not a URL`);
    expect(jwksUrlProblem(`https://e.org/${'a'.repeat(1986)}`)).to.equal(null); // 2000 characters
    expect(jwksUrlProblem(`https://e.org/${'a'.repeat(1987)}`)).to.equal('jwks_url is longer than 2000 characters');
  });

  it('jwksProblems: the JWKS shape, the number of keys, and each key (object, public only, RSA or EC, kid, importable)', async () => {
    const es = await makeKeyPair('ES384', 'es');
    const rs = await makeKeyPair('RS384', 'rs');
    expect(await jwksProblems({ keys: [es.publicJwk, rs.publicJwk] })).to.deep.equal([]);
    const { alg: _a, ...noAlgEs } = es.publicJwk;
    const { alg: _b, ...noAlgRs } = rs.publicJwk;
    expect(await jwksProblems({ keys: [noAlgEs, noAlgRs] }), 'without alg, EC is read as ES384 and RSA as RS384').to.deep.equal([]);
    for (const bad of [null, 'keys', [], {}, { keys: 'x' }]) expect(await jwksProblems(bad), JSON.stringify(bad)).to.deep.equal(['jwks must be an object with a "keys" array']);
    expect(await jwksProblems({ keys: [] })).to.deep.equal(['jwks must hold from 1 to 20 keys']);
    expect(await jwksProblems({ keys: Array.from({ length: 20 }, (_, i) => ({ ...es.publicJwk, kid: `k${i}` })) })).to.deep.equal([]);
    expect(await jwksProblems({ keys: Array.from({ length: 21 }, () => es.publicJwk) })).to.deep.equal(['jwks must hold from 1 to 20 keys']);
    const problems = await jwksProblems({
      keys: [null, 'k', { ...es.publicJwk, d: 'secret' }, { ...rs.publicJwk, qi: 'x' }, { kty: 'oct', kid: 'o', k: undefined }, { kty: 'OKP', kid: 'x' }, { ...es.publicJwk, kid: '' }, { ...es.publicJwk, kid: 3 }, { kty: 'EC', kid: 'bad', crv: 'P-384', x: 'AA', y: 'AA' }],
    });
    expect(problems.slice(0, 8)).to.deep.equal([
      'jwks.keys[0] is not an object',
      'jwks.keys[1] is not an object',
      'jwks.keys[2] holds private key material: register the public keys only',
      'jwks.keys[3] holds private key material: register the public keys only',
      'jwks.keys[4] holds private key material: register the public keys only',
      'jwks.keys[5].kty must be RSA or EC',
      'jwks.keys[6] needs a kid (JWTs name their key by kid)',
      'jwks.keys[7] needs a kid (JWTs name their key by kid)',
    ]);
    expect(problems[8]).to.match(/^jwks\.keys\[8\] is not a usable public key: /);
    expect(problems).to.have.length(9);
  });

  it('create: each wrong option is one problem, all listed, and nothing is stored', async () => {
    const { clients } = await service();
    const key = await makeKeyPair();
    expect(await problemsOf(clients, { kind: 'robot' as 'backend', jwks: { keys: [key.publicJwk] } })).to.deep.equal(["kind must be 'backend' or 'cds-ehr'"]);
    expect(await problemsOf(clients, { kind: 'backend' })).to.deep.equal(['give exactly one of jwks_url and jwks']);
    expect(await problemsOf(clients, { kind: 'backend', jwksUrl: 'https://e.org/j', jwks: { keys: [key.publicJwk] } })).to.deep.equal(['give exactly one of jwks_url and jwks']);
    expect(await problemsOf(clients, { kind: 'backend', jwksUrl: 'http://e.org/j' })).to.deep.equal(['jwks_url must be https (plain http only on localhost, 127.0.0.1 or [::1])']);
    expect(await problemsOf(clients, { kind: 'backend', jwks: { keys: [] } })).to.deep.equal(['jwks must hold from 1 to 20 keys']);
    expect(await problemsOf(clients, { kind: 'cds-ehr', jwksUrl: 'https://e.org/j' })).to.deep.equal(['a cds-ehr client needs its issuer (the iss of the JWTs it signs)']);
    expect(await problemsOf(clients, { kind: 'cds-ehr', jwksUrl: 'https://e.org/j', issuer: '   ' })).to.deep.equal(['a cds-ehr client needs its issuer (the iss of the JWTs it signs)']);
    expect(await problemsOf(clients, { kind: 'cds-ehr', jwksUrl: 'https://e.org/j', issuer: 'x'.repeat(501) })).to.deep.equal(['issuer is longer than 500 characters']);
    expect(await problemsOf(clients, { kind: 'backend', jwksUrl: 'https://e.org/j', issuer: 'https://ehr' })).to.deep.equal(['--issuer applies to cds-ehr clients only (a backend client signs with iss = its client_id)']);
    expect(await problemsOf(clients, { kind: 'robot' as 'backend', jwksUrl: 'http://e.org/j' })).to.deep.equal(["kind must be 'backend' or 'cds-ehr'", 'jwks_url must be https (plain http only on localhost, 127.0.0.1 or [::1])']);
    expect(await clients.list()).to.deep.equal([]);
  });

  it('create: a cds-ehr issuer is unique among active clients (the issuer trimmed); once revoked it may be registered again', async () => {
    const { clients } = await service();
    const first = await clients.create({ kind: 'cds-ehr', jwksUrl: 'https://e.org/j', issuer: ' https://ehr.example.org ', states: ['TX', 'CA', 'TX'] });
    if (!first.ok) throw new Error(first.problems.join('; '));
    expect(first.record).to.include({ kind: 'cds-ehr', issuer: 'https://ehr.example.org', name: 'unnamed', compare: false, admin: false, jwks: null, jwksUrl: 'https://e.org/j', revokedAt: null });
    expect(first.record.states).to.deep.equal(['CA', 'TX']);
    expect(await problemsOf(clients, { kind: 'cds-ehr', jwksUrl: 'https://e.org/k', issuer: 'https://ehr.example.org' })).to.deep.equal([
      "issuer 'https://ehr.example.org' is already registered to an active client",
    ]);
    await clients.revoke(first.record.id);
    expect((await clients.create({ kind: 'cds-ehr', jwksUrl: 'https://e.org/k', issuer: 'https://ehr.example.org' })).ok).to.equal(true);
  });

  it('list is oldest first; revoke marks once, deletes the tokens and is null for an unknown id', async () => {
    let t = Date.parse('2026-01-01T00:00:00Z');
    const { clients } = await service({ now: () => new Date((t += 1000)) });
    const key = await makeKeyPair();
    const a = await backend(clients, key, { name: 'a' });
    const b = await backend(clients, key, { name: 'b' });
    expect((await clients.list()).map((c) => c.name)).to.deep.equal(['a', 'b']);
    expect(await clients.get(a.id)).to.deep.equal(a);
    const issued = await clients.issueToken(tokenForm(await signAssertion({ clientId: b.id, tokenUrl: TOKEN_URL, key, now: new Date(t) }), 'system/*.rs'), TOKEN_URL);
    if (!issued.ok) throw new Error(issued.description);
    expect(await clients.verifyAccessToken(issued.body.access_token)).to.not.equal(null);
    const revoked = await clients.revoke(b.id);
    const at = revoked?.revokedAt;
    expect(at).to.be.a('string');
    expect(await clients.verifyAccessToken(issued.body.access_token)).to.equal(null);
    expect((await clients.revoke(b.id))?.revokedAt).to.equal(at);
    expect(await clients.revoke('c_nosuch')).to.equal(null);
  });
});

describe('registered clients: token requests refused', () => {
  const refusal = (o: { ok: boolean }) => (o.ok ? 'issued' : (({ status, error, description, authFailure }) => ({ status, error, description, authFailure }))(o as never));

  it('before client authentication: each missing or wrong form field (400, not an authentication failure)', async () => {
    const { clients } = await service();
    const key = await makeKeyPair();
    const c = await backend(clients, key);
    const good = tokenForm(await signAssertion({ clientId: c.id, tokenUrl: TOKEN_URL, key }), 'system/*.rs');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...good, scope: ['a', 'b'] }, 'invalid_request', "parameter 'scope' must be given once, as a string"],
      [{ ...good, grant_type: '' }, 'invalid_request', 'grant_type is required'],
      [{ ...good, grant_type: 'password' }, 'unsupported_grant_type', "grant_type 'password' is not supported; use client_credentials"],
      [{ ...good, client_assertion_type: 'x' }, 'invalid_request', 'client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer'],
      [{ ...good, client_assertion: '' }, 'invalid_request', 'client_assertion is required'],
      [{ ...good, scope: '   ' }, 'invalid_request', 'scope is required (for example system/*.rs)'],
    ];
    for (const [form, error, description] of cases) {
      expect(refusal(await clients.issueToken(form, TOKEN_URL)), description).to.deep.equal({ status: 400, error, description, authFailure: false });
    }
  });

  it('at client authentication: 401 invalid_client, counted as a failed authentication, saying why', async () => {
    const { clients } = await service();
    const key = await makeKeyPair();
    const c = await backend(clients, key);
    const sign = (o: Partial<Parameters<typeof signAssertion>[0]> = {}) => signAssertion({ clientId: c.id, tokenUrl: TOKEN_URL, key, ...o });
    const cases: [Record<string, unknown>, string][] = [
      [tokenForm('not.a.jwt', 'system/*.rs'), 'client_assertion is not a JWT'],
      [tokenForm(await sign({ sub: 'someone-else' }), 'system/*.rs'), 'client_assertion: iss and sub must both be the client_id'],
      [{ ...tokenForm(await sign(), 'system/*.rs'), client_id: 'c_other' }, 'client_id does not match the assertion'],
      [tokenForm(await sign({ iss: 'c_nosuch', sub: 'c_nosuch' }), 'system/*.rs'), 'client_assertion: iss is not an active registered client'],
      [tokenForm(await sign({ iss: 'x'.repeat(101), sub: 'x'.repeat(101) }), 'system/*.rs'), 'client_assertion: iss is not an active registered client'],
      [tokenForm(await sign({ jti: '' }), 'system/*.rs'), 'client_assertion: jti must be a string of 1 to 256 characters'],
      [tokenForm(await sign({ jti: 'j'.repeat(257) }), 'system/*.rs'), 'client_assertion: jti must be a string of 1 to 256 characters'],
      [tokenForm(await sign({ exp: Math.floor(Date.now() / 1000) + 331 + 5 }), 'system/*.rs'), 'client_assertion: exp is more than five minutes ahead'],
      [tokenForm(await sign({ kid: '' }), 'system/*.rs'), 'client_assertion: the header has no kid'],
      [tokenForm(await sign({ jku: 'https://e.org/j' }), 'system/*.rs'), 'client_assertion: jku does not match the JWKS URL registered for this client'],
    ];
    for (const [form, description] of cases) {
      expect(refusal(await clients.issueToken(form, TOKEN_URL)), description).to.deep.equal({ status: 401, error: 'invalid_client', description, authFailure: true });
    }
    const ok = await clients.issueToken({ ...tokenForm(await sign({ jti: 'j'.repeat(256) }), 'system/*.rs'), client_id: c.id }, TOKEN_URL);
    expect(ok.ok, 'a jti of 256 characters and a matching client_id are accepted').to.equal(true);
  });

  it('after client authentication: a cds-ehr client, a subscription without fhir, or no grantable scope is a 400', async () => {
    const { clients } = await service();
    const key = await makeKeyPair();
    const ehr = await clients.create({ kind: 'cds-ehr', issuer: 'https://ehr', jwks: { keys: [key.publicJwk] } });
    if (!ehr.ok) throw new Error('ehr');
    const noFhir = await backend(clients, key, { groups: ['lookup'] });
    const adminNoFhir = await backend(clients, key, { groups: ['lookup'], admin: true });
    const plain = await backend(clients, key);
    const form = async (id: string, scope = 'system/*.rs') => tokenForm(await signAssertion({ clientId: id, tokenUrl: TOKEN_URL, key }), scope);
    expect(refusal(await clients.issueToken(await form(ehr.record.id), TOKEN_URL))).to.deep.equal({ status: 400, error: 'unauthorized_client', description: 'this client is registered for CDS Hooks, not for access tokens', authFailure: false });
    expect(refusal(await clients.issueToken(await form(noFhir.id), TOKEN_URL))).to.deep.equal({ status: 400, error: 'invalid_scope', description: "the client's subscription does not include the fhir endpoint group", authFailure: false });
    expect((await clients.issueToken(await form(adminNoFhir.id), TOKEN_URL)).ok, 'an admin client needs no fhir group').to.equal(true);
    expect(refusal(await clients.issueToken(await form(plain.id, 'patient/*.rs system/Patient.rs'), TOKEN_URL))).to.deep.equal({
      status: 400, error: 'invalid_scope', description: 'none of the requested scopes can be granted: ask for system scopes such as system/*.rs or system/Claim.c', authFailure: false,
    });
    const issued = await clients.issueToken(await form(plain.id, '  system/Claim.c \n system/Patient.rs\tsystem/*.rs  system/Claim.c '), TOKEN_URL);
    expect(issued.ok && issued.body).to.deep.include({ token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS, scope: 'system/Claim.c system/*.rs' });
  });
});

describe('registered clients: access tokens', () => {
  async function issued(o: { cacheSeconds?: number; now?: () => Date } = {}) {
    const s = await service(o);
    const key = await makeKeyPair();
    const c = await backend(s.clients, key, { states: ['TX'] });
    const r = await s.clients.issueToken(tokenForm(await signAssertion({ clientId: c.id, tokenUrl: TOKEN_URL, key, now: o.now?.() }), 'system/*.rs'), TOKEN_URL);
    if (!r.ok) throw new Error(r.description);
    return { ...s, client: c, token: r.body.access_token, key };
  }

  it('when a token is presented, then its principal carries the client, the granted scopes and the subscription', async () => {
    const { clients, client, token } = await issued();
    expect(await clients.verifyAccessToken(token)).to.deep.equal({
      kind: 'client', clientId: client.id, clientKind: 'backend', name: 'app', meterId: client.id, scopes: ['system/*.rs'], via: 'access_token',
      states: new Set(['TX']), programs: null, groups: null, compare: false, admin: false,
    });
  });

  it('when a token is too short, too long or unknown, then null', async () => {
    const { clients } = await issued();
    for (const t of ['', 'a'.repeat(19), 'a'.repeat(20), 'a'.repeat(200), 'a'.repeat(201), randomBytes(32).toString('base64url')]) expect(await clients.verifyAccessToken(t), `length ${t.length}`).to.equal(null);
  });

  it('when the token has lived its 300 s, then null (at 300 s exactly too)', async () => {
    let t = Date.parse('2026-06-01T12:00:00Z');
    const { clients, token } = await issued({ now: () => new Date(t), cacheSeconds: 60 });
    t += 299_000;
    expect(await clients.verifyAccessToken(token)).to.not.equal(null);
    t += 1_000;
    expect(await clients.verifyAccessToken(token), 'a cached principal expires with its token').to.equal(null);
  });

  it('when another instance revokes the client, then a cached token works until the cache time and an uncached one stops at once', async () => {
    const store = await openEmbeddedStore({});
    const { clients: cached } = await service({ store, cacheSeconds: 60 });
    const { clients: uncached } = await service({ store, cacheSeconds: 0 });
    const key = await makeKeyPair();
    const c = await backend(cached, key);
    const r = await cached.issueToken(tokenForm(await signAssertion({ clientId: c.id, tokenUrl: TOKEN_URL, key }), 'system/*.rs'), TOKEN_URL);
    if (!r.ok) throw new Error(r.description);
    expect(await cached.verifyAccessToken(r.body.access_token)).to.not.equal(null);
    expect(await uncached.verifyAccessToken(r.body.access_token)).to.not.equal(null);
    const { clients: other } = await service({ store });
    await other.revoke(c.id);
    expect(await cached.verifyAccessToken(r.body.access_token), 'still cached').to.not.equal(null);
    expect(await uncached.verifyAccessToken(r.body.access_token)).to.equal(null);
  });

  it('when a CDS JWT is not a JWT or names no issuer we could hold, then it is refused saying so', async () => {
    const { clients } = await service();
    expect(await clients.verifyCdsJwt('nope', 'https://prauth.test/cds-services/x')).to.deep.equal({ ok: false, reason: 'The bearer token is not a JWT' });
    const key = await makeKeyPair();
    const { SignJWT } = await import('jose');
    const jwt = (iss: unknown) => new SignJWT({ jti: 'j' } as never).setProtectedHeader({ alg: 'ES384', kid: key.kid }).setIssuer(iss as string).setAudience('a').setExpirationTime('1m').sign(key.privateKey);
    const noIss = await new SignJWT({ jti: 'j' }).setProtectedHeader({ alg: 'ES384', kid: key.kid }).setAudience('a').setExpirationTime('1m').sign(key.privateKey);
    for (const t of [noIss, await jwt(''), await jwt('i'.repeat(501))]) {
      const out = await clients.verifyCdsJwt(t, 'a');
      expect(out.ok).to.equal(false);
      expect((out as { reason: string }).reason).to.equal('The JWT has no iss');
    }
    const unknown = await clients.verifyCdsJwt(await jwt('i'.repeat(500)), 'a');
    expect(unknown, 'an iss of 500 characters is read, and is not registered').to.deep.equal({ ok: false, reason: 'The JWT iss is not a registered CDS client' });
  });
});
