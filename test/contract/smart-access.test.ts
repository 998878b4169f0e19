// Standards-based access, driven as the public test kits drive it: real key pairs (RS384, ES384), JWKS served over
// HTTP on loopback, form-encoded token requests over real HTTP, bearer tokens on the FHIR surfaces, CDS Hooks calls
// signed like the Inferno CRD kit signs them.
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { SignJWT } from 'jose';
import { createLogger } from '../../src/logger.js';
import request from 'supertest';
import { example, fhirCorpus } from '../support/fhir-corpus.js';
import { expectValidFhir } from '../support/fhir-validate.js';
import { expectOpenApi } from '../support/openapi.js';
import {
  bearerHeaders,
  cdsHeaders,
  listen,
  makeKeyPair,
  postTokenRequest,
  registerBackendClient,
  registerCdsEhr,
  serveJwks,
  signAssertion,
  signCdsJwt,
  smartToken,
  tokenForm,
  type JwksServer,
} from '../support/smart.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FORMULARY = '/v1/formulary/TX/part_d';
const DTR = '/v1/dtr/questionnaire/TX/part_d/glp1_weight_loss';
const CDS = '/v1/cds-services/service-coverage-requirements';

describe('SMART Backend Services, bearer tokens and signed CDS Hooks JWTs', () => {
  let t: TestApp;
  let srv: { url: string; close(): Promise<void> };
  let jwks: JwksServer;
  let clock = new Date();
  const tokenUrl = () => `${srv.url}/v1/auth/token`;

  before(async () => {
    t = await makeTestApp(fhirCorpus(), { now: () => clock });
    srv = await listen(t);
    jwks = await serveJwks();
  });
  after(async () => {
    await srv.close();
    await jwks.close();
  });
  beforeEach(() => {
    clock = new Date();
  });

  const get = (path: string, token?: string) => fetch(`${srv.url}${path}`, { headers: { accept: 'application/fhir+json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${srv.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/fhir+json', ...headers }, body: JSON.stringify(body) });

  describe('discovery', () => {
    it('when a client reads .well-known/smart-configuration, then it names the token endpoint, private_key_jwt, RS384/ES384 and the system scopes', async () => {
      const res = await request(srv.url).get('/v1/.well-known/smart-configuration');
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      expect(res.body).to.deep.equal({
        token_endpoint: tokenUrl(),
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
        scopes_supported: [
          'system/Basic.rs',
          'system/Claim.c',
          'system/Claim.rs',
          'system/ClaimResponse.rs',
          'system/InsurancePlan.rs',
          'system/Library.rs',
          'system/Location.rs',
          'system/MedicationKnowledge.rs',
          'system/Questionnaire.rs',
          'system/Subscription.c',
          'system/Subscription.rs',
          'system/ValueSet.rs',
          'system/*.rs',
          'system/*.cruds',
          'system/*.read',
        ],
        capabilities: ['client-confidential-asymmetric', 'permission-v2', 'permission-v1'],
      });
    });

    it('when the CapabilityStatement is read, then rest.security names SMART-on-FHIR with the oauth-uris token extension', async () => {
      const res = await get('/v1/metadata');
      const cs = (await res.json()) as Any;
      expectValidFhir(cs);
      const security = cs.rest[0].security;
      expect(security.service[0].coding).to.deep.equal([{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR', display: 'SMART-on-FHIR' }]);
      expect(security.extension).to.deep.equal([
        { url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris', extension: [{ url: 'token', valueUri: tokenUrl() }] },
      ]);
      expect(security.description).to.contain('SMART Backend Services');
    });
  });

  describe('token issued and used', () => {
    for (const alg of ['RS384', 'ES384'] as const) {
      it(`when a backend client signs its assertion with ${alg}, then it gets a bearer token that works on formulary, DTR and PAS`, async () => {
        const { token, scope, client } = await smartToken(t, { serverUrl: srv.url, jwks, alg, scope: 'system/*.rs system/Claim.c' });
        expect(scope).to.equal('system/*.rs system/Claim.c');
        expect(jwks.fetches(client.jwksUrl!), 'the JWKS is fetched from its URL').to.equal(1);

        const formulary = await get(FORMULARY, token);
        expect(formulary.status).to.equal(200);
        const bundle = (await formulary.json()) as Any;
        expect(bundle.resourceType).to.equal('Bundle');
        expect(bundle.entry.map((e: Any) => e.resource.resourceType)).to.include('InsurancePlan');

        const dtr = await get(DTR, token);
        expect(dtr.status).to.equal(200);
        expect(((await dtr.json()) as Any).resourceType).to.equal('Questionnaire');

        const pas = await post('/v1/Claim/$submit', example('pas-2.2.1-claim-submit-request-bundle.json'), { authorization: `Bearer ${token}` });
        expect(pas.status).to.equal(200);
        const answer = (await pas.json()) as Any;
        expect(answer.entry[0].resource.resourceType).to.equal('ClaimResponse');
        expect(pas.headers.get('ratelimit-policy')).to.equal('"fhir";q=5000;w=3600');
      });
    }

    it('when the token response arrives, then it is exactly access_token, token_type bearer, expires_in 300 and the granted scope, never cached', async () => {
      const key = await makeKeyPair('ES384');
      const client = await registerBackendClient(t, jwks.publish(key));
      const assertion = await signAssertion({ clientId: client.id, tokenUrl: tokenUrl(), key });
      const res = await request(srv.url).post('/v1/auth/token').type('form').send(tokenForm(assertion, 'system/*.read launch openid system/Patient.rs'));
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res, 'POST');
      expect(Object.keys(res.body).sort()).to.deep.equal(['access_token', 'expires_in', 'scope', 'token_type']);
      expect(res.body).to.include({ token_type: 'bearer', expires_in: 300, scope: 'system/*.read' });
      expect(res.body.access_token).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers.pragma).to.equal('no-cache');
      expect((await get(FORMULARY, res.body.access_token)).status, 'v1 system/*.read covers the formulary').to.equal(200);
    });

    it('when a client is registered with its JWKS by value, then its assertions verify against the stored keys', async () => {
      const key = await makeKeyPair('RS384');
      const client = await registerBackendClient(t, { keys: [key.publicJwk] });
      const res = await postTokenRequest(srv.url, tokenForm(await signAssertion({ clientId: client.id, tokenUrl: tokenUrl(), key }), 'system/Questionnaire.rs'));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect((await get(DTR, res.body.access_token as string)).status).to.equal(200);
    });
  });

  describe('assertions refused with the OAuth error (RFC 6749 5.2, SMART: invalid_client)', () => {
    let key: Awaited<ReturnType<typeof makeKeyPair>>;
    let rsa: Awaited<ReturnType<typeof makeKeyPair>>;
    let clientId: string;
    let rsaClientId: string;
    let jwksUrl: string;
    before(async () => {
      key = await makeKeyPair('ES384');
      rsa = await makeKeyPair('RS256');
      jwksUrl = jwks.publish(key);
      clientId = (await registerBackendClient(t, jwksUrl)).id;
      rsaClientId = (await registerBackendClient(t, { keys: [rsa.publicJwk] })).id;
    });

    const refuse = async (assertion: string, description: RegExp) => {
      const res = await request(srv.url).post('/v1/auth/token').type('form').send(tokenForm(assertion, 'system/*.rs'));
      expect(res.status, JSON.stringify(res.body)).to.equal(401);
      expectOpenApi(t.app.routes, res, 'POST');
      expect(res.body.error).to.equal('invalid_client');
      expect(res.body.error_description).to.match(description);
      expect(res.headers['cache-control']).to.equal('no-store');
    };

    it('when the assertion has expired, then invalid_client', async () => {
      const exp = Math.floor(clock.getTime() / 1000) - 120;
      await refuse(await signAssertion({ clientId, tokenUrl: tokenUrl(), key, exp }), /has expired/);
    });
    it('when exp is more than five minutes ahead, then invalid_client', async () => {
      const exp = Math.floor(clock.getTime() / 1000) + 3600;
      await refuse(await signAssertion({ clientId, tokenUrl: tokenUrl(), key, exp }), /more than five minutes/);
    });
    it('when aud is another token URL, then invalid_client', async () => {
      await refuse(await signAssertion({ clientId, tokenUrl: 'https://elsewhere.example/token', key }), /claim 'aud'/);
    });
    it('when iss is not a registered client, or iss and sub differ, then invalid_client', async () => {
      await refuse(await signAssertion({ clientId: 'c_000000000000000000000000', tokenUrl: tokenUrl(), key }), /not an active registered client/);
      await refuse(await signAssertion({ clientId, sub: 'someone-else', tokenUrl: tokenUrl(), key }), /iss and sub/);
    });
    it('when the same assertion (same jti) is presented twice, then the second is refused as a replay', async () => {
      const assertion = await signAssertion({ clientId, tokenUrl: tokenUrl(), key });
      expect((await postTokenRequest(srv.url, tokenForm(assertion, 'system/*.rs'))).status).to.equal(200);
      await refuse(assertion, /replay/);
      const sameJti = await signAssertion({ clientId, tokenUrl: tokenUrl(), key, jti: 'fixed-jti-1' });
      expect((await postTokenRequest(srv.url, tokenForm(sameJti, 'system/*.rs'))).status).to.equal(200);
      await refuse(await signAssertion({ clientId, tokenUrl: tokenUrl(), key, jti: 'fixed-jti-1' }), /replay/);
    });
    it('when the alg is not RS384 or ES384 (RS256 with a registered RS256 key), then invalid_client', async () => {
      await refuse(await signAssertion({ clientId: rsaClientId, tokenUrl: tokenUrl(), key: rsa }), /alg 'RS256' not allowed/);
    });
    it('when the kid is not in the registered JWKS, or missing, then invalid_client', async () => {
      await refuse(await signAssertion({ clientId, tokenUrl: tokenUrl(), key, kid: 'no-such-kid' }), /no key in the registered JWKS/);
      const noKid = await new SignJWT({ jti: 'no-kid' }).setProtectedHeader({ alg: 'ES384' }).setIssuer(clientId).setSubject(clientId).setAudience(tokenUrl()).setExpirationTime('5m').sign(key.privateKey);
      await refuse(noKid, /no kid/);
    });
    it('when the assertion is signed by a key the client did not register, then invalid_client', async () => {
      const stranger = await makeKeyPair('ES384', key.kid); // same kid, different key
      await refuse(await signAssertion({ clientId, tokenUrl: tokenUrl(), key: stranger }), /signature verification failed/);
    });
    it('when the payload is tampered with after signing, then invalid_client', async () => {
      const [h, p, s] = (await signAssertion({ clientId, tokenUrl: tokenUrl(), key })).split('.');
      const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
      claims.exp += 60;
      await refuse(`${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`, /signature verification failed/);
    });
    it('when jku names another JWKS than the registered one, then invalid_client', async () => {
      await refuse(await signAssertion({ clientId, tokenUrl: tokenUrl(), key, jku: 'http://127.0.0.1:9/evil.json' }), /jku does not match/);
      const ok = await postTokenRequest(srv.url, tokenForm(await signAssertion({ clientId, tokenUrl: tokenUrl(), key, jku: jwksUrl }), 'system/*.rs'));
      expect(ok.status, 'jku equal to the registered URL is accepted').to.equal(200);
    });
    it('when the client is revoked, then its assertions are refused and its tokens stop working', async () => {
      const { token, client, key: k } = await smartToken(t, { serverUrl: srv.url, jwks });
      expect((await get(FORMULARY, token)).status).to.equal(200);
      const revoked = await request(srv.url).post(`/v1/admin/clients/${client.id}/revoke`).set('x-api-key', await t.key({ admin: true }));
      expect(revoked.status).to.equal(200);
      expectOpenApi(t.app.routes, revoked, 'POST');
      expect(revoked.body.client.revokedAt).to.be.a('string');
      const after = await get(FORMULARY, token);
      expect(after.status).to.equal(401);
      expect(after.headers.get('www-authenticate')).to.contain('error="invalid_token"');
      await refuse(await signAssertion({ clientId: client.id, tokenUrl: tokenUrl(), key: k }), /not an active registered client/);
    });
  });

  describe('token requests refused before client authentication', () => {
    let assertion: () => Promise<string>;
    before(async () => {
      const key = await makeKeyPair('ES384');
      const { id } = await registerBackendClient(t, jwks.publish(key));
      assertion = () => signAssertion({ clientId: id, tokenUrl: tokenUrl(), key });
    });

    const cases: [string, (a: string) => Record<string, string>, number, string][] = [
      ['grant_type is not client_credentials', (a) => ({ ...tokenForm(a, 'system/*.rs'), grant_type: 'password' }), 400, 'unsupported_grant_type'],
      ['client_assertion_type is wrong', (a) => ({ ...tokenForm(a, 'system/*.rs'), client_assertion_type: 'not_an_assertion_type' }), 400, 'invalid_request'],
      ['scope is missing', (a) => ({ grant_type: 'client_credentials', client_assertion_type: tokenForm(a, '').client_assertion_type!, client_assertion: a }), 400, 'invalid_request'],
      ['no requested scope can be granted', (a) => tokenForm(a, 'patient/*.read user/Claim.c system/Appointment.rs'), 400, 'invalid_scope'],
    ];
    for (const [when, form, status, error] of cases) {
      it(`when ${when}, then ${status} ${error}`, async () => {
        const res = await request(srv.url).post('/v1/auth/token').type('form').send(form(await assertion()));
        expect(res.status).to.equal(status);
        expectOpenApi(t.app.routes, res, 'POST');
        expect(res.body.error).to.equal(error);
        expect(res.body.error_description).to.be.a('string').and.not.equal('');
      });
    }

    it('when a parameter is repeated, or the body is JSON, then invalid_request / 415', async () => {
      const a = await assertion();
      const repeated = `${new URLSearchParams(tokenForm(a, 'system/*.rs')).toString()}&scope=system/Claim.c`;
      const res = await request(srv.url).post('/v1/auth/token').type('form').send(repeated);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'invalid_request', error_description: "parameter 'scope' must be given once, as a string" });
      const json = await request(srv.url).post('/v1/auth/token').send(tokenForm(a, 'system/*.rs'));
      expect(json.status).to.equal(415);
      expect(json.body.error).to.contain('application/x-www-form-urlencoded');
    });

    it('when a cds-ehr client or a client without the fhir group asks for a token, then unauthorized_client / invalid_scope', async () => {
      const ehr = await registerCdsEhr(t, jwks);
      const asEhr = await postTokenRequest(srv.url, tokenForm(await signAssertion({ clientId: ehr.client.id, tokenUrl: tokenUrl(), key: ehr.key }), 'system/*.rs'));
      expect(asEhr.status).to.equal(400);
      expect(asEhr.body.error).to.equal('unauthorized_client');
      const key = await makeKeyPair('ES384');
      const lookupOnly = await registerBackendClient(t, jwks.publish(key), { groups: ['lookup'] });
      const res = await postTokenRequest(srv.url, tokenForm(await signAssertion({ clientId: lookupOnly.id, tokenUrl: tokenUrl(), key }), 'system/*.rs'));
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'invalid_scope', error_description: "the client's subscription does not include the fhir endpoint group" });
    });
  });

  describe('bearer tokens on the FHIR endpoints', () => {
    it('when the token is unknown or malformed, then 401 OperationOutcome with WWW-Authenticate: Bearer error="invalid_token"', async () => {
      for (const token of ['x'.repeat(43), 'not-a-token']) {
        const res = await request(srv.url).get(FORMULARY).set('authorization', `Bearer ${token}`);
        expect(res.status).to.equal(401);
        expectOpenApi(t.app.routes, res);
        expect(res.headers['www-authenticate']).to.match(/^Bearer realm="prauth", error="invalid_token"/);
        expect(res.body.resourceType).to.equal('OperationOutcome');
        expect(res.body.issue[0].code).to.equal('login');
        expectValidFhir(res.body);
      }
      const none = await request(srv.url).get(FORMULARY);
      expect(none.status).to.equal(401);
      expect(none.headers['www-authenticate']).to.equal('Bearer realm="prauth"');
      // A bad API key is not a bad token: the challenge says where credentials go, without invalid_token.
      const badKey = await request(srv.url).get(FORMULARY).set('x-api-key', 'k_wrong');
      expect(badKey.status).to.equal(401);
      expect(badKey.headers['www-authenticate']).to.equal('Bearer realm="prauth"');
      // Every 401 carries a challenge (RFC 9110 15.5.2): the JSON endpoints name the API key header, CDS Hooks the bearer JWT.
      const json = await request(srv.url).get('/v1/pauth-lookup?state=TX&program=part_d&drug=hepatitis_c');
      expect(json.status).to.equal(401);
      expect(json.headers['www-authenticate']).to.equal('ApiKey realm="prauth", header="x-api-key"');
      const cds = await request(srv.url).post('/v1/cds-services/service-coverage-requirements').send({});
      expect(cds.status).to.equal(401);
      expect(cds.headers['www-authenticate']).to.equal('Bearer realm="prauth"');
      expect(none.body.issue[0].diagnostics).to.contain('bearer access token');
    });

    it('when the token has expired (300 s), then 401 invalid_token', async () => {
      const { token } = await smartToken(t, { serverUrl: srv.url, jwks });
      expect((await get(FORMULARY, token)).status).to.equal(200);
      clock = new Date(clock.getTime() + 301_000);
      const res = await get(FORMULARY, token);
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.contain('error="invalid_token"');
      expect(((await res.json()) as Any).issue[0].diagnostics).to.equal('The access token is invalid, expired or revoked');
    });

    it('when the token scopes do not cover the request, then 403 insufficient_scope naming the scope needed, before any data', async () => {
      const { token, scope } = await smartToken(t, { serverUrl: srv.url, jwks, scope: 'system/Questionnaire.rs' });
      expect(scope).to.equal('system/Questionnaire.rs');
      expect((await get(DTR, token)).status).to.equal(200);
      const pas = await request(srv.url).post('/v1/Claim/$submit').set('authorization', `Bearer ${token}`).set('content-type', 'application/fhir+json').send(JSON.stringify(example('pas-2.2.1-claim-submit-request-bundle.json')));
      expect(pas.status).to.equal(403);
      expectOpenApi(t.app.routes, pas, 'POST');
      expect(pas.headers['www-authenticate']).to.equal('Bearer realm="prauth", error="insufficient_scope", scope="system/Claim.c"');
      expect(pas.body.issue[0].diagnostics).to.equal("The access token's scopes do not cover this request: it needs system/Claim.c");
      expect(pas.body.issue[0].code).to.equal('forbidden');
      expectValidFhir(pas.body);
      const gap = await get('/v1/formulary/OK/part_d', token); // a scope gap for a key: the token learns nothing
      const served = await get(FORMULARY, token);
      expect([gap.status, served.status]).to.deep.equal([403, 403]);
    });

    it("when the client's subscription leaves out a state, then 403 as for a key, whatever the token scopes", async () => {
      const { token } = await smartToken(t, { serverUrl: srv.url, jwks, states: ['OK'] });
      const res = await get(FORMULARY, token);
      expect(res.status).to.equal(403);
      const body = (await res.json()) as Any;
      expect(body.issue[0].diagnostics).to.equal("State TX not in this client's subscription");
    });

    it('when a token is sent to a JSON endpoint, then it is not a credential there (x-api-key only)', async () => {
      const { token } = await smartToken(t, { serverUrl: srv.url, jwks });
      const res = await request(srv.url).get('/v1/pauth-lookup?state=TX&program=part_d&drug=glp1_weight_loss').set('authorization', `Bearer ${token}`);
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('unauthorized');
    });

    it('when an x-api-key is sent, then every FHIR path behaves as before (and Vary names all three credentials)', async () => {
      const key = await t.key({ name: 'fhir-key' });
      const res = await request(srv.url).get(FORMULARY).set('x-api-key', key);
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      expect(res.headers.vary).to.equal('x-api-key, x-demo-session, Authorization');
      const bad = await request(srv.url).get(FORMULARY).set('x-api-key', '00000000-0000-4000-8000-000000000000');
      expect(bad.status).to.equal(401);
      expect(bad.body.issue[0].diagnostics).to.equal('Invalid or revoked API key');
    });
  });

  describe('CDS Hooks calls signed by a registered EHR', () => {
    const aud = () => `${srv.url}${CDS}`;
    const call = (jwt: string | null, body: unknown = example('crd-2.2-order-sign-hook-request.json'), path = CDS) =>
      request(srv.url).post(path).set('content-type', 'application/json').set(jwt ? { authorization: `Bearer ${jwt}` } : {}).send(JSON.stringify(body));

    it('when the call is signed like the CRD kit (ES384, kid, jku, aud = service URL), then it is answered as an x-api-key call is', async () => {
      const ehr = await registerCdsEhr(t, jwks);
      const signed = await call(await ehr.sign(aud()));
      expect(signed.status, JSON.stringify(signed.body)).to.equal(200);
      expectOpenApi(t.app.routes, signed, 'POST');
      const keyed = await request(srv.url).post(CDS).set('x-api-key', await t.key()).send(example('crd-2.2-order-sign-hook-request.json'));
      expect(signed.body.systemActions).to.deep.equal(keyed.body.systemActions);
      expect(signed.body.systemActions.length).to.be.greaterThan(0);
      expect(signed.headers.ratelimit).to.match(/^"cds";r=\d+;t=\d+$/);
    });

    it('when the EHR signs RS384 without jku, then the registered JWKS URL is used', async () => {
      const ehr = await registerCdsEhr(t, jwks, { alg: 'RS384' });
      const res = await call(await ehr.sign(aud(), { jku: undefined }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    });

    it('when the same call is unsigned, expired, tampered, replayed or for another audience, then 401 saying why', async () => {
      const ehr = await registerCdsEhr(t, jwks);
      const nowSec = Math.floor(clock.getTime() / 1000);
      const valid = await ehr.sign(aud());
      expect((await call(valid)).status).to.equal(200);
      const [h, p, s] = (await ehr.sign(aud())).split('.');
      const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
      claims.iss = 'http://someone-else.test';
      const cases: [string, string | null, string][] = [
        ['unsigned', null, 'Missing credentials'],
        ['expired', await ehr.sign(aud(), { iat: nowSec - 400, exp: nowSec - 100 }), 'The JWT has expired'],
        ['tampered', `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), exp: nowSec + 200 })).toString('base64url')}.${s}`, 'signature verification failed'],
        ['tampered issuer', `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`, 'not a registered CDS client'],
        ['replayed', valid, 'replay'],
        ['for the order-select service', await ehr.sign(`${srv.url}/v1/cds-services/service-coverage-requirements-select`), "claim 'aud'"],
        ['from an unknown key', await signCdsJwt({ aud: aud(), iss: ehr.issuer, key: await makeKeyPair('ES384'), jku: ehr.jwksUrl }), 'no key in the registered JWKS'],
        ['with a foreign jku', await ehr.sign(aud(), { jku: 'https://attacker.example/jwks.json' }), 'jku does not match'],
        ['without iat', await new SignJWT({ jti: 'no-iat' }).setProtectedHeader({ alg: 'ES384', kid: ehr.key.kid, jku: ehr.jwksUrl }).setIssuer(ehr.issuer).setAudience(aud()).setExpirationTime('5m').sign(ehr.key.privateKey), "claim 'iat'"],
      ];
      for (const [what, jwt, message] of cases) {
        const res = await call(jwt);
        expect(res.status, what).to.equal(401);
        expectOpenApi(t.app.routes, res, 'POST');
        expect(res.body.code, what).to.equal('unauthorized');
        expect(res.body.error, what).to.contain(message);
      }
    });

    it("when the EHR's subscription leaves out the patient's state, then 403 like a key", async () => {
      const ehr = await registerCdsEhr(t, jwks, { states: ['TX'] }); // the example patient lives in OK
      const res = await call(await ehr.sign(aud()));
      expect(res.status).to.equal(403);
      expect(res.body.error).to.equal("State OK not in this client's subscription");
    });

    it('when the EHR is revoked, then its JWTs are refused; discovery stays public', async () => {
      const ehr = await registerCdsEhr(t, jwks);
      await t.deps.clients.revoke(ehr.client.id);
      const res = await call(await ehr.sign(aud()));
      expect(res.status).to.equal(401);
      expect((await request(srv.url).get('/v1/cds-services')).status).to.equal(200);
    });
  });
});

describe('registered clients: limits, usage and failed-authentication throttling', () => {
  let jwks: JwksServer;
  before(async () => {
    jwks = await serveJwks();
  });
  after(() => jwks.close());

  it("when a client's token exceeds its fhir limit, then 429 with the RateLimitError fields, and its usage is counted like a key's", async () => {
    const t = await makeTestApp(fhirCorpus(), { env: { RATE_LIMITS: 'fhir=2' } });
    const srv = await listen(t);
    try {
      const { token, client } = await smartToken(t, { serverUrl: srv.url, jwks });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await request(srv.url).get(FORMULARY).set('authorization', `Bearer ${token}`)).status);
      expect(statuses).to.deep.equal([200, 200, 429]);
      const admin = await t.key({ admin: true });
      const usage = await request(srv.url).get(`/v1/admin/clients/${client.id}/usage`).set('x-api-key', admin);
      expect(usage.status).to.equal(200);
      expect(usage.body.months[0].calls).to.equal(2);
      expect(usage.body.key_id).to.equal(client.id);
    } finally {
      await srv.close();
    }
  });

  it('when an address keeps failing authentication, then past the budget its failures get 429 (RateLimitError), while good credentials from it still pass', async () => {
    const t = await makeTestApp(fhirCorpus(), { env: { RATE_LIMITS: 'auth_failure=3' } });
    const srv = await listen(t);
    try {
      const key = await makeKeyPair('ES384');
      const client = await registerBackendClient(t, jwks.publish(key));
      const bad = () => signAssertion({ clientId: client.id, tokenUrl: `${srv.url}/v1/auth/token`, key, kid: 'wrong' });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await postTokenRequest(srv.url, tokenForm(await bad(), 'system/*.rs'))).status);
      expect(statuses).to.deep.equal([401, 401, 401]);
      const over = await request(srv.url).post('/v1/auth/token').type('form').send(tokenForm(await bad(), 'system/*.rs'));
      expect(over.status).to.equal(429);
      expectOpenApi(t.app.routes, over, 'POST');
      expect(over.body).to.include({ code: 'rate_limited', limit: 3, window: '1h' });
      expect(over.body.retry_after_seconds).to.equal(Number(over.headers['retry-after']));
      // Every further failure from the address: 429 on keyed, admin and FHIR routes too.
      const badKey = await request(srv.url).get('/v1/pauth-lookup?state=TX&program=part_d&drug=glp1_weight_loss').set('x-api-key', 'k_not-a-key');
      expect(badKey.status).to.equal(429);
      expect(badKey.body).to.include({ code: 'rate_limited', limit: 3, window: '1h' });
      const badAdmin = await request(srv.url).get('/v1/admin/clients').set('x-api-key', 'k_not-an-admin-key');
      expect(badAdmin.status).to.equal(429);
      expectOpenApi(t.app.routes, badAdmin); // every credentialed route declares this 429
      const badFhir = await request(srv.url).get(FORMULARY).set('authorization', 'Bearer not-a-token');
      expect(badFhir.status).to.equal(429);
      expectOpenApi(t.app.routes, badFhir);
      expect(badFhir.body.issue[0].code).to.equal('throttled');
      // Good credentials from the same address pass: behind a shared proxy or NAT it holds other clients too.
      const good = await postTokenRequest(srv.url, tokenForm(await signAssertion({ clientId: client.id, tokenUrl: `${srv.url}/v1/auth/token`, key }), 'system/*.rs'));
      expect(good.status, 'a valid assertion still gets its token').to.equal(200);
      const keyed = await request(srv.url).get('/v1/pauth-lookup?state=TX&program=part_d&drug=glp1_weight_loss').set('x-api-key', await t.key());
      expect(keyed.status, JSON.stringify(keyed.body)).to.not.equal(429);
      expect(keyed.status).to.be.oneOf([200, 404]);
      const adminCall = await request(srv.url).get('/v1/admin/clients').set('x-api-key', await t.key({ admin: true }));
      expect(adminCall.status, 'the operator can still act (revoke a key) from a throttled address').to.equal(200);
      expect((await request(srv.url).get('/v1/metadata')).status, 'public endpoints are not throttled').to.equal(200);
    } finally {
      await srv.close();
    }
  });

  it('when the service sits behind a proxy named in TRUST_PROXY, then failures are counted per forwarded client address, and a client cannot pick its own address', async () => {
    const t = await makeTestApp(fhirCorpus(), { env: { RATE_LIMITS: 'auth_failure=2', TRUST_PROXY: 'loopback' } });
    const srv = await listen(t);
    try {
      const lookup = (xff: string) => request(srv.url).get('/v1/pauth-lookup?state=TX&program=part_d&drug=glp1_weight_loss').set('x-api-key', 'k_wrong').set('x-forwarded-for', xff);
      // Client A (203.0.113.7) spends its budget; client B (198.51.100.9), behind the same proxy, is untouched.
      expect([(await lookup('203.0.113.7')).status, (await lookup('203.0.113.7')).status, (await lookup('203.0.113.7')).status]).to.deep.equal([401, 401, 429]);
      expect((await lookup('198.51.100.9')).status).to.equal(401);
      // A client that sends its own X-Forwarded-For: the proxy appends the real address, and the rightmost untrusted entry counts.
      expect((await lookup('198.51.100.9, 203.0.113.7')).status, 'A spoofing B is still A').to.equal(429);
      expect((await lookup('203.0.113.7, 198.51.100.9')).status).to.equal(401);
    } finally {
      await srv.close();
    }
  });
});

describe('registered clients: nothing secret reaches the log', () => {
  it('when assertions, tokens and CDS JWTs are presented (good and bad), then none of them, nor a key, is logged', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const t = await makeTestApp(fhirCorpus(), { extend: (deps) => void (deps.log = createLogger('debug', stream)) });
    const srv = await listen(t);
    const jwks = await serveJwks();
    try {
      const { token, client, key } = await smartToken(t, { serverUrl: srv.url, jwks });
      const assertion = await signAssertion({ clientId: client.id, tokenUrl: `${srv.url}/v1/auth/token`, key, kid: 'wrong' });
      await postTokenRequest(srv.url, tokenForm(assertion, 'system/*.rs'));
      await request(srv.url).get(FORMULARY).set('authorization', `Bearer ${token}`);
      await request(srv.url).get(FORMULARY).set('authorization', 'Bearer not-a-real-token-but-a-secret');
      const ehr = await registerCdsEhr(t, jwks);
      const jwt = await ehr.sign(`${srv.url}${CDS}`);
      await request(srv.url).post(CDS).set('authorization', `Bearer ${jwt}`).send(example('crd-2.2-order-sign-hook-request.json'));
      const logged = lines.join('');
      expect(lines.length).to.be.greaterThan(4);
      for (const secret of [token, assertion, assertion.split('.')[2]!, 'not-a-real-token-but-a-secret', jwt, jwt.split('.')[2]!]) expect(logged).to.not.contain(secret);
      expect(logged).to.contain('"path":"/v1/auth/token"');
    } finally {
      await srv.close();
      await jwks.close();
    }
  });
});

describe('test helpers in process (supertest, nothing listening)', () => {
  it('when bearerHeaders and cdsHeaders are used, then formulary, PAS and CRD calls are admitted with and without PUBLIC_BASE_URL', async () => {
    for (const env of [{}, { PUBLIC_BASE_URL: 'https://prauth.example.org' }] as Record<string, string>[]) {
      const t = await makeTestApp(fhirCorpus(), { env });
      const headers = await bearerHeaders(t, { scope: 'system/*.rs system/Claim.c' });
      expect((await request(t.app.handler).get(FORMULARY).set(headers)).status).to.equal(200);
      const pas = await request(t.app.handler).post('/v1/Claim/$submit').set(headers).set('content-type', 'application/fhir+json').send(JSON.stringify(example('pas-2.2.1-claim-submit-request-bundle.json')));
      expect(pas.status).to.equal(200);
      const crd = await request(t.app.handler).post(CDS).set(await cdsHeaders(t, 'service-coverage-requirements')).send(example('crd-2.2-order-sign-hook-request.json'));
      expect(crd.status, JSON.stringify(crd.body)).to.equal(200);
      expect(crd.body.systemActions.length).to.be.greaterThan(0);
    }
  });
});
