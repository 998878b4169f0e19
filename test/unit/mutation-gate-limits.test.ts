// The access gate and the rate limits, driven directly (no Express): the exact decisions, counts, headers and
// refusals each principal gets. Written for the mutation run (issue 26, `npm run mutate`): each case pins a value
// a plausible slip would change (an off-by-one window, a swapped policy name, a refused call billed, a limit that
// falls back to the wrong default).
import { expect } from 'chai';
import type { MongoClient } from 'mongodb';
import type { KeyPrincipal, ClientPrincipal, DemoPrincipal } from '../../src/domain/principal.js';
import { ApiError } from '../../src/domain/api-error.js';
import { createAccessGate, rateLimitHeaders, tooManyRequests } from '../../src/services/access-gate.js';
import { createRateLimits } from '../../src/services/rate-limits.js';
import { DEFAULT_LIMITS, parseLimits, WINDOW_SECONDS, type LimitGroup } from '../../src/domain/limits.js';
import { createUsageMeter } from '../../src/services/usage.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';

const AT = new Date('2026-03-04T10:59:30.000Z'); // 30 s before the top of the hour
const limitsWith = (over: Partial<Record<LimitGroup, number>>) => ({ ...parseLimits('').limits, ...over });

const key = (over: Partial<KeyPrincipal> = {}): KeyPrincipal => ({
  kind: 'key', keyId: 'k_1', meterId: 'k_1', name: 'one', states: null, programs: null, groups: null, compare: false, admin: false, ...over,
});
const client = (over: Partial<ClientPrincipal> = {}): ClientPrincipal => ({
  kind: 'client', clientId: 'c_1', clientKind: 'backend', name: 'app', meterId: 'c_1', scopes: [], via: 'access_token',
  states: null, programs: null, groups: null, compare: false, admin: false, ...over,
});
const demo: DemoPrincipal = { kind: 'demo', sessionId: 's_1', expiresAt: '2026-03-04T12:00:00.000Z' };

async function gate(limits: Partial<Record<LimitGroup, number>>) {
  const store = await openEmbeddedStore({});
  const usage = createUsageMeter(store);
  const rl = createRateLimits({ limits: limitsWith(limits), onStoreError: () => { throw new Error('no store here'); } });
  return { g: createAccessGate({ limits: rl, usage, now: () => AT }), usage, rl };
}
const callsOf = async (usage: ReturnType<typeof createUsageMeter>, id: string) => (await usage.report(id)).months.map((m) => [m.month, m.calls]);

describe('rate limits: fixed clock-hour windows per subject and group', () => {
  it('when a subject calls three times under a limit of 2, then remaining goes 1, 0 and the third is refused, reset at the top of the hour', async () => {
    const rl = createRateLimits({ limits: limitsWith({ lookup: 2 }), onStoreError: () => undefined });
    const a = await rl.consume('k:a', 'lookup', AT);
    const b = await rl.consume('k:a', 'lookup', AT);
    const c = await rl.consume('k:a', 'lookup', AT);
    expect([a, b, c]).to.deep.equal([
      { allowed: true, limit: 2, remaining: 1, resetSeconds: 30 },
      { allowed: true, limit: 2, remaining: 0, resetSeconds: 30 },
      { allowed: false, limit: 2, remaining: 0, resetSeconds: 30 },
    ]);
  });

  it('when the hour turns, then the count starts again (a new window), and a full hour is left at its first second', async () => {
    const rl = createRateLimits({ limits: limitsWith({ lookup: 1 }), onStoreError: () => undefined });
    expect((await rl.consume('k:a', 'lookup', AT)).allowed).to.equal(true);
    expect((await rl.consume('k:a', 'lookup', AT)).allowed).to.equal(false);
    const next = new Date('2026-03-04T11:00:00.000Z');
    expect(await rl.consume('k:a', 'lookup', next)).to.deep.equal({ allowed: true, limit: 1, remaining: 0, resetSeconds: WINDOW_SECONDS });
    expect(await rl.consume('k:a', 'lookup', new Date('2026-03-04T11:59:59.999Z'))).to.deep.equal({ allowed: false, limit: 1, remaining: 0, resetSeconds: 1 });
  });

  it('when two subjects or two groups are counted, then each has its own count', async () => {
    const rl = createRateLimits({ limits: limitsWith({ lookup: 1, compare: 1 }), onStoreError: () => undefined });
    expect((await rl.consume('k:a', 'lookup', AT)).allowed).to.equal(true);
    expect((await rl.consume('k:b', 'lookup', AT)).allowed).to.equal(true);
    expect((await rl.consume('k:a', 'compare', AT)).allowed).to.equal(true);
    expect((await rl.consume('k:a', 'lookup', AT)).allowed).to.equal(false);
  });

  it('when the shared store cannot count at all (no insurance answered), then the call is allowed with the full limit and the error reported, never a 429', async () => {
    const errors: unknown[] = [];
    const down = { db: () => { throw new Error('store down'); } } as unknown as MongoClient;
    const rl = createRateLimits({ limits: limitsWith({ lookup: 1 }), mongo: { client: down, dbName: 'x' }, onStoreError: (e) => errors.push(e) });
    for (let i = 0; i < 3; i++) expect(await rl.consume('k:a', 'lookup', AT)).to.deep.equal({ allowed: true, limit: 1, remaining: 1, resetSeconds: 30 });
    expect(errors.map(String)).to.deep.equal(['Error: store down', 'Error: store down', 'Error: store down']);
  });

  it('limitOf is the configured limit, 1000 for a group the configuration lacks', () => {
    const rl = createRateLimits({ limits: { lookup: 7 } as Record<LimitGroup, number>, onStoreError: () => undefined });
    expect(rl.limitOf('lookup')).to.equal(7);
    expect(rl.limitOf('compare')).to.equal(1000);
  });

  it('when a group has no configured limit, then it is counted against 1000', async () => {
    const rl = createRateLimits({ limits: {} as Record<LimitGroup, number>, onStoreError: () => undefined });
    expect(await rl.consume('k:a', 'ask', AT)).to.deep.equal({ allowed: true, limit: 1000, remaining: 999, resetSeconds: 30 });
  });

  it('parseLimits: the defaults (spec 8: lookup 10,000/h, compare 2,000/h) and the extra groups', () => {
    const { limits, problems } = parseLimits(undefined);
    expect(problems).to.deep.equal([]);
    expect(limits).to.deep.equal({ ...DEFAULT_LIMITS, demo_session: 30, demo_issue: 10, auth_failure: 100, notify_address: 20, notify_contact: 5 });
    expect(DEFAULT_LIMITS).to.deep.equal({ lookup: 10_000, compare: 2_000, compare_payers: 2_000, action_plan: 1_000, fhir: 5_000, cds: 5_000, ask: 1_000, explore: 5_000, admin: 1_000 });
  });

  it('parseLimits: entries override (spaces and empty parts ignored); each bad entry is one problem naming it', () => {
    const { limits, problems } = parseLimits(' lookup=5 ,, compare=123456789 ');
    expect(limits.lookup).to.equal(5);
    expect(limits.compare).to.equal(123456789);
    expect(problems).to.deep.equal([]);
    const bad = parseLimits('lookup=1234567890,nosuch=3,lookup=x,fhir=4,=2,lookup=-1,xlookup=2,lookup=2x');
    expect(bad.limits.fhir).to.equal(4);
    expect(bad.limits.lookup).to.equal(10_000);
    expect(bad.problems.map((p) => /'([^']*)'/.exec(p)![1])).to.deep.equal(['lookup=1234567890', 'nosuch=3', 'lookup=x', '=2', 'lookup=-1', 'xlookup=2', 'lookup=2x']);
    expect(bad.problems[0]).to.equal(
      "RATE_LIMITS entry 'lookup=1234567890' must be group=N (N up to 9 digits) with a group among lookup, compare, compare_payers, action_plan, fhir, cds, ask, explore, admin, demo_session, demo_issue, auth_failure, notify_address, notify_contact",
    );
  });
});

describe('the access gate: who is limited, counted and billed', () => {
  it('rateLimitHeaders: the IETF structured fields with policy, quota, window, remaining and reset', () => {
    expect(rateLimitHeaders('lookup', { allowed: true, limit: 10, remaining: 4, resetSeconds: 17 })).to.deep.equal({
      'RateLimit-Policy': '"lookup";q=10;w=3600',
      RateLimit: '"lookup";r=4;t=17',
    });
  });

  it('tooManyRequests: a 429 rate_limited with Retry-After, the limit in its body and the wording singular for a limit of 1', () => {
    const e = tooManyRequests('compare', { allowed: false, limit: 1, remaining: 0, resetSeconds: 42 }, 'this demo session');
    expect(e).to.be.instanceOf(ApiError);
    expect(e.status).to.equal(429);
    expect(e.code).to.equal('rate_limited');
    expect(e.message).to.equal('Rate limit exceeded: 1 request per hour for this demo session; retry after 42 s');
    expect(e.extra).to.deep.equal({ limit: 1, window: '1h', retry_after_seconds: 42 });
    expect(e.headers).to.deep.equal({ 'Retry-After': '42', 'RateLimit-Policy': '"compare";q=1;w=3600', RateLimit: '"compare";r=0;t=42' });
    expect(tooManyRequests('x', { allowed: false, limit: 2, remaining: 0, resetSeconds: 1 }, 'y').message).to.equal('Rate limit exceeded: 2 requests per hour for y; retry after 1 s');
  });

  it('when a key calls within its limit, then it gets the group headers and each call is billed under its id', async () => {
    const { g, usage } = await gate({ lookup: 2 });
    expect(await g.admit(key(), 'lookup')).to.deep.equal({ 'RateLimit-Policy': '"lookup";q=2;w=3600', RateLimit: '"lookup";r=1;t=30' });
    expect(await g.admit(key(), 'lookup')).to.deep.equal({ 'RateLimit-Policy': '"lookup";q=2;w=3600', RateLimit: '"lookup";r=0;t=30' });
    expect(await callsOf(usage, 'k_1')).to.deep.equal([['2026-03', 2]]);
  });

  it('when a key is over its limit, then a 429 naming the group and "key", and the refused call is not billed', async () => {
    const { g, usage } = await gate({ fhir: 1 });
    await g.admit(key(), 'fhir');
    const err = await g.admit(key(), 'fhir').then(() => null, (e: unknown) => e as ApiError);
    expect(err?.status).to.equal(429);
    expect(err?.message).to.equal('Rate limit exceeded: 1 request per hour for the fhir endpoints on this key; retry after 30 s');
    expect(err?.headers?.['RateLimit-Policy']).to.equal('"fhir";q=1;w=3600');
    expect(await callsOf(usage, 'k_1')).to.deep.equal([['2026-03', 1]]);
  });

  it('when a registered client is over its limit, then the message says "client" and it is counted under its client id, apart from keys', async () => {
    const { g, usage } = await gate({ cds: 1 });
    await g.admit(client(), 'cds');
    await g.admit(key({ meterId: 'k_other' }), 'cds'); // another subscription: its own count
    const err = await g.admit(client(), 'cds').then(() => null, (e: unknown) => e as ApiError);
    expect(err?.message).to.equal('Rate limit exceeded: 1 request per hour for the cds endpoints on this client; retry after 30 s');
    expect(await callsOf(usage, 'c_1')).to.deep.equal([['2026-03', 1]]);
    expect(await callsOf(usage, 'k_other')).to.deep.equal([['2026-03', 1]]);
  });

  it('when an admin key calls past any limit, then no limit applies and no headers are sent, but every call is billed', async () => {
    const { g, usage } = await gate({ admin: 1, lookup: 1 });
    for (let i = 0; i < 3; i++) expect(await g.admit(key({ admin: true }), 'lookup')).to.deep.equal({});
    expect(await callsOf(usage, 'k_1')).to.deep.equal([['2026-03', 3]]);
  });

  it('admitNow answers at once only where nothing is counted: the operator (not billed) and an admin key (billed); anyone else is left to admit', async () => {
    const { g, usage } = await gate({ lookup: 1, demo_session: 1 });
    expect(g.admitNow!({ kind: 'operator' }, 'lookup')).to.deep.equal({});
    for (let i = 0; i < 2; i++) expect(g.admitNow!(key({ admin: true }), 'lookup')).to.deep.equal({});
    expect(await callsOf(usage, 'k_1')).to.deep.equal([['2026-03', 2]]);
    expect(g.admitNow!(key(), 'lookup')).to.equal(undefined);
    expect(g.admitNow!(client(), 'lookup')).to.equal(undefined);
    expect(g.admitNow!(demo, 'lookup')).to.equal(undefined);
    // Nothing was counted against the limit of 1 by those calls: admit still lets the key's first call through.
    expect((await g.admit(key(), 'lookup')).RateLimit).to.equal('"lookup";r=0;t=30');
    expect(await callsOf(usage, 'k_1')).to.deep.equal([['2026-03', 3]]);
  });

  it('when the local operator calls, then nothing is limited or billed', async () => {
    const { g, usage } = await gate({ lookup: 1, demo_session: 1 });
    for (let i = 0; i < 3; i++) expect(await g.admit({ kind: 'operator' }, 'lookup')).to.deep.equal({});
    expect(await callsOf(usage, 'undefined')).to.deep.equal([]);
  });

  it('when a demo session calls, then it is limited per session under demo_session (whatever the group), and not billed', async () => {
    const { g, usage } = await gate({ demo_session: 2, lookup: 1 });
    expect(await g.admit(demo, 'lookup')).to.deep.equal({ 'RateLimit-Policy': '"demo_session";q=2;w=3600', RateLimit: '"demo_session";r=1;t=30' });
    expect(await g.admit(demo, 'compare')).to.deep.equal({ 'RateLimit-Policy': '"demo_session";q=2;w=3600', RateLimit: '"demo_session";r=0;t=30' });
    const err = await g.admit(demo, 'lookup').then(() => null, (e: unknown) => e as ApiError);
    expect(err?.message).to.equal('Rate limit exceeded: 2 requests per hour for this demo session; retry after 30 s');
    expect(err?.headers?.RateLimit).to.equal('"demo_session";r=0;t=30');
    expect(await g.admit({ ...demo, sessionId: 's_2' }, 'lookup')).to.have.property('RateLimit', '"demo_session";r=1;t=30');
    expect(await callsOf(usage, 's_1')).to.deep.equal([]);
  });
});
