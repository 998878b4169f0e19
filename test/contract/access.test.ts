import { expect } from 'chai';
import autocannon from 'autocannon';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { buildApp } from '../../src/app.js';
import { allRoutes } from '../../src/http/routes/index.js';
import type { RouteDef } from '../../src/api/route.js';
import { createKeyService } from '../../src/services/keys.js';
import { createRateLimits } from '../../src/services/rate-limits.js';
import { parseLimits } from '../../src/domain/limits.js';
import { toUsageReport } from '../../src/services/usage.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import { openMongoStore } from '../../src/store/mongo/mongo-store.js';
import { jurisdiction, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

const LOOKUP = '/v1/pauth-lookup?state=TX&program=chip&drug=hepatitis_c';
const corpus = [jurisdiction('TX'), rule({ state: 'TX', program: 'chip', code: 'hepatitis_c' })];
// 10:59:00 UTC: the hourly window ends in 60 s.
const fixedNow = () => new Date('2026-11-21T10:59:00.000Z');

async function listen(t: TestApp): Promise<{ server: Server; url: string }> {
  const server = createServer(t.app.handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function blast(url: string, key: string, amount: number): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const instance = autocannon({ url, connections: 20, amount, headers: { 'x-api-key': key } }) as unknown as autocannon.Instance & Promise<autocannon.Result>;
  instance.on('response', (_client: unknown, status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
  await instance;
  return statuses;
}

describe('access control: rate limits, demo sessions, usage, revocation', () => {
  describe('rate limits', () => {
    let t: TestApp;
    let srv: { server: Server; url: string };
    before(async () => {
      t = await makeTestApp(corpus, { env: { RATE_LIMITS: 'lookup=200,compare=3' }, now: fixedNow });
      srv = await listen(t);
    });
    after(() => srv.server.close());

    it('when limit + N lookups arrive concurrently, then exactly N are refused with 429', async () => {
      const key = await t.key();
      const statuses = await blast(`${srv.url}${LOOKUP}`, key, 230);
      expect(Object.fromEntries(statuses)).to.deep.equal({ 200: 200, 429: 30 });
    });

    it('when refused, then Retry-After is whole seconds to the window end and equals retry_after_seconds', async () => {
      const key = await t.key();
      for (let i = 0; i < 200; i++) await request(t.app.handler).get(LOOKUP).set('x-api-key', key);
      const res = await request(t.app.handler).get(LOOKUP).set('x-api-key', key);
      expect(res.status).to.equal(429);
      expectOpenApi(t.app.routes, res);
      expect(res.headers['retry-after']).to.equal('60');
      expect(res.body).to.deep.equal({
        error: 'Rate limit exceeded: 200 requests per hour for the lookup endpoints on this key; retry after 60 s',
        code: 'rate_limited',
        limit: 200,
        window: '1h',
        retry_after_seconds: 60,
      });
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers['ratelimit-policy']).to.equal('"lookup";q=200;w=3600');
      expect(res.headers.ratelimit).to.equal('"lookup";r=0;t=60');
    });

    it('when admitted, then the IETF RateLimit headers tell what is left', async () => {
      const key = await t.key();
      const res = await request(t.app.handler).get(LOOKUP).set('x-api-key', key);
      expect(res.status).to.equal(200);
      expect(res.headers['ratelimit-policy']).to.equal('"lookup";q=200;w=3600');
      expect(res.headers.ratelimit).to.equal('"lookup";r=199;t=60');
    });

    it('when the deprecated alias is used, then it shares the lookup budget', async () => {
      const key = await t.key();
      for (let i = 0; i < 100; i++) await request(t.app.handler).get(LOOKUP).set('x-api-key', key);
      for (let i = 0; i < 100; i++) await request(t.app.handler).get(LOOKUP.replace('pauth-lookup', 'pa-lookup')).set('x-api-key', key);
      expect((await request(t.app.handler).get(LOOKUP.replace('pauth-lookup', 'pa-lookup')).set('x-api-key', key)).status).to.equal(429);
      expect((await request(t.app.handler).get(LOOKUP).set('x-api-key', key)).status).to.equal(429);
    });

    it('when one key is exhausted, then other keys are not affected; admin keys bypass limits', async () => {
      const a = await t.key();
      const b = await t.key();
      const admin = await t.key({ admin: true });
      await blast(`${srv.url}${LOOKUP}`, a, 210);
      expect((await request(t.app.handler).get(LOOKUP).set('x-api-key', b)).status).to.equal(200);
      const statuses = await blast(`${srv.url}${LOOKUP}`, admin, 250);
      expect(Object.fromEntries(statuses)).to.deep.equal({ 200: 250 });
      const res = await request(t.app.handler).get(LOOKUP).set('x-api-key', admin);
      expect(res.headers['ratelimit-policy']).to.equal(undefined);
    });

    it('when RATE_LIMITS is malformed, then the config error names the entry', () => {
      expect(parseLimits('lookup=10,nope=3,compare=x').problems).to.have.length(2);
      expect(parseLimits('lookup=10').limits.lookup).to.equal(10);
      expect(parseLimits(undefined).limits).to.include({ lookup: 10000, compare: 2000 });
    });

    it('when MongoDB is unreachable, then the in-memory insurance limiter keeps counting: no error, no false 429', async () => {
      const client = new MongoClient('mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=200&connectTimeoutMS=200');
      const warnings: unknown[] = [];
      const limits = createRateLimits({ limits: parseLimits('lookup=3').limits, mongo: { client, dbName: 'x' }, onStoreError: (e) => warnings.push(e) });
      const now = fixedNow();
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await limits.consume('k:1', 'lookup', now));
      expect(decisions.map((d) => d.allowed)).to.deep.equal([true, true, true, false]);
      await client.close();
    });
  });

  describe('two instances on MongoDB', () => {
    const uri = process.env.MONGODB_URI;
    it('when two service instances share one MongoDB, then they share one limit (needs MONGODB_URI)', async function () {
      if (!uri) this.skip();
      const dbName = `prauth_limits_${process.pid}_${Date.now()}`;
      const storeA = await openMongoStore(uri!, dbName);
      const storeB = await openMongoStore(uri!, dbName);
      try {
        const env = { RATE_LIMITS: 'lookup=100', MONGODB_URI: uri!, MONGODB_DB: dbName };
        const a = await makeTestApp(corpus, { env, now: fixedNow, store: storeA });
        const b = await makeTestApp([], { env, now: fixedNow, store: storeB });
        const key = await a.key();
        const [sa, sb] = [await listen(a), await listen(b)];
        const [ra, rb] = await Promise.all([blast(`${sa.url}${LOOKUP}`, key, 60), blast(`${sb.url}${LOOKUP}`, key, 60)]);
        sa.server.close();
        sb.server.close();
        expect((ra.get(429) ?? 0) + (rb.get(429) ?? 0)).to.equal(20);
      } finally {
        await storeA.db.dropDatabase();
        await storeA.close();
        await storeB.close();
      }
    });
  });

  describe('demo sessions', () => {
    let t: TestApp;
    let clock = fixedNow();
    const demoRoute: RouteDef = {
      id: 'demo-probe',
      method: 'GET',
      path: '/v1/demo-probe',
      auth: 'key_or_demo',
      group: 'action_plan',
      surface: 'json',
      handle: (ctx) => ({ status: 200, body: { principal: ctx.principal?.kind } }),
      openapi: { summary: 'probe', tags: [], responses: {} },
    };
    let handler: TestApp['app']['handler'];
    before(async () => {
      t = await makeTestApp(corpus, { now: () => clock, env: { RATE_LIMITS: 'demo_issue=2,demo_session=3' } });
      handler = buildApp(t.deps, [...allRoutes(t.deps), demoRoute]).handler;
    });

    it('when a demo session is issued, then it opens action-plan style routes only, until it expires', async () => {
      const issued = await request(handler).post('/v1/demo-sessions');
      expect(issued.status).to.equal(201);
      expectOpenApi(t.app.routes, issued, 'POST');
      expect(issued.body.expires_at).to.equal('2026-11-21T11:59:00.000Z');
      const sid = issued.body.session_id as string;
      const ok = await request(handler).get('/v1/demo-probe').set('x-demo-session', sid);
      expect(ok.status).to.equal(200);
      expect(ok.body).to.deep.equal({ principal: 'demo' });
      expect(ok.headers['ratelimit-policy']).to.equal('"demo_session";q=3;w=3600');
      const onLookup = await request(handler).get(LOOKUP).set('x-demo-session', sid);
      expect(onLookup.status).to.equal(401);
      expect(onLookup.body.error).to.match(/Missing API key/);
      await request(handler).get('/v1/demo-probe').set('x-demo-session', sid);
      await request(handler).get('/v1/demo-probe').set('x-demo-session', sid);
      const limited = await request(handler).get('/v1/demo-probe').set('x-demo-session', sid);
      expect(limited.status).to.equal(429);
      expect(limited.body.limit).to.equal(3);
      clock = new Date('2026-11-21T12:00:00.000Z');
      const expired = await request(handler).get('/v1/demo-probe').set('x-demo-session', sid);
      expect(expired.status).to.equal(401);
      expect(expired.body.error).to.equal('Invalid or expired demo session');
      clock = fixedNow();
    });

    it('when the session id is unknown or not a UUID, or nothing is sent, then 401', async () => {
      for (const sid of ['0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b', 'nope']) {
        const res = await request(handler).get('/v1/demo-probe').set('x-demo-session', sid);
        expect(res.status).to.equal(401);
      }
      const none = await request(handler).get('/v1/demo-probe');
      expect(none.status).to.equal(401);
      expect(none.body.error).to.match(/x-api-key, or x-demo-session/);
    });

    it('when one address asks for too many sessions, then 429 with Retry-After', async () => {
      const res = await request(handler).post('/v1/demo-sessions');
      expect(res.status).to.equal(201); // the second of two allowed this hour
      const refused = await request(handler).post('/v1/demo-sessions');
      expect(refused.status).to.equal(429);
      expectOpenApi(t.app.routes, refused, 'POST');
      expect(refused.headers['retry-after']).to.equal('60');
    });
  });

  describe('usage metering', () => {
    it('when a key makes calls, then admitted calls are counted per month and refused ones are not', async () => {
      const t = await makeTestApp(corpus, { env: { RATE_LIMITS: 'lookup=5' }, now: fixedNow });
      const { key, record } = await t.deps.keys.create({ name: 'metered' });
      const admin = await t.key({ admin: true });
      for (let i = 0; i < 7; i++) await request(t.app.handler).get(LOOKUP).set('x-api-key', key);
      const res = await request(t.app.handler).get(`/v1/admin/keys/${record.id}/usage`).set('x-api-key', admin);
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      expect(res.body).to.deep.equal({
        key_id: record.id,
        included_per_month: 5000,
        months: [{ month: '2026-11', calls: 5, included: 5000, overage: 0 }],
      });
      const nonAdmin = await request(t.app.handler).get(`/v1/admin/keys/${record.id}/usage`).set('x-api-key', key);
      expect(nonAdmin.status).to.equal(403);
      const unknown = await request(t.app.handler).get('/v1/admin/keys/k_nothing/usage').set('x-api-key', admin);
      expect(unknown.status).to.equal(404);
    });

    it('when a month goes past the included 5,000 calls, then the overage is counted, not refused', () => {
      const r = toUsageReport('k_1', [
        { id: 'k_1|2026-10', keyId: 'k_1', month: '2026-10', calls: 6200 },
        { id: 'k_1|2026-11', keyId: 'k_1', month: '2026-11', calls: 10 },
      ]);
      expect(r.months).to.deep.equal([
        { month: '2026-11', calls: 10, included: 5000, overage: 0 },
        { month: '2026-10', calls: 6200, included: 5000, overage: 1200 },
      ]);
    });
  });

  describe('revocation across instances', () => {
    it('when a key is revoked on one instance, then another instance refuses it within KEY_CACHE_SECONDS', async () => {
      const store = await openEmbeddedStore({});
      const now = () => new Date();
      const a = createKeyService({ store, now, cacheSeconds: 1 });
      const b = createKeyService({ store, now, cacheSeconds: 1 });
      const { key, record } = await a.create({});
      expect(await b.verify(key)).to.not.equal(null); // now cached on b
      await a.revoke(record.id);
      expect(await a.verify(key)).to.equal(null); // at once where it was revoked
      await new Promise((r) => setTimeout(r, 1100));
      expect(await b.verify(key)).to.equal(null);
    });
  });
});
