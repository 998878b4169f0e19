// Property-based fuzzing (fast-check) of every body-taking endpoint and every query parser, taken from the route
// table so a new route is fuzzed without being listed: whatever arrives, the answer is a 4xx or a 2xx, never a 5xx,
// within a time bound, and memory stays bounded.
import { expect } from 'chai';
import fc from 'fast-check';
import request from 'supertest';
import { loadFhirDefinitions } from '../../src/fhir/shape/fhir-shape.js';
import type { RouteDef } from '../../src/api/route.js';
import { example, fhirCorpus } from '../support/fhir-corpus.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The heap after a full collection (gc exposed for this measurement only). */
function retainedHeap(): number {
  setFlagsFromString('--expose_gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

type Json = unknown;
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const PER_REQUEST_MS = 5_000;

/** Every path (as keys) of a JSON value, to mutate one place of a valid example at a time. */
function paths(v: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}
function replaceAt(v: Json, path: (string | number)[], value: Json): Json {
  if (!path.length) return value;
  const copy = (Array.isArray(v) ? [...v] : { ...(v as object) }) as Record<string | number, Json>;
  copy[path[0]!] = replaceAt(copy[path[0]!], path.slice(1), value);
  return copy;
}

const EXAMPLES: Record<string, () => Json> = {
  'fhir-claim-operation': () => example('pas-2.2.1-claim-submit-request-bundle.json'),
  'fhir-questionnaire-operation': () => example('dtr-2.x-questionnaire-package-input-parameters.json'),
  'cds-service-coverage-requirements': () => example('crd-2.2-order-sign-hook-request.json'),
  'cds-service-coverage-requirements-select': () => ({ ...(example('crd-2.2-order-sign-hook-request.json') as object), hook: 'order-select' }),
};

const pathFor = (r: RouteDef): string =>
  r.path
    .replace(':op', r.id === 'fhir-claim-operation' ? '$submit' : r.id === 'fhir-questionnaire-operation' ? '$questionnaire-package' : '$x')
    .replace(':state', 'TX')
    .replace(':program', 'part_d')
    .replace(':drug', 'hepatitis_c')
    .replace(':id', 'some-id');

const PARAM_NAMES = ['state', 'states', 'program', 'drug', 'drug_class', 'service', 'category', 'service_category', 'code', 'denied', 'denial_basis', 'denial_days_ago', 'urgency', 'drug_cost_usd', 'has_alternative', '_count', 'x'];
const queryArb = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...PARAM_NAMES), fc.string({ maxLength: 12 })),
    fc.oneof(fc.constantFrom('TX', 'tx', 'TX,CA', 'part_d', 'ma', 'hepatitis_c', '70553', 'E0431', 'true', '12', '', ' '), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 })),
  ),
  { maxLength: 8 },
);
const toQuery = (pairs: [string, string][]): string => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

describe('property fuzz: no input gives a 5xx or hangs (every body and every query parser in the route table)', function () {
  this.timeout(600_000);
  let t: TestApp;
  let key: string;
  let admin: string;
  const failures: string[] = [];

  let heapBefore = 0;
  before(async () => {
    t = await makeTestApp(fhirCorpus(), { env: { PUBLIC_BASE_URL: 'https://prauth.test', RATE_LIMITS: 'lookup=1000000,compare=1000000,compare_payers=1000000,action_plan=1000000,fhir=1000000,cds=1000000' } });
    key = await t.key({ compare: true });
    admin = await t.key({ admin: true });
    loadFhirDefinitions(); // a one-time warm-up, not a hang
    heapBefore = retainedHeap();
  });

  const on = async (r: RouteDef, run: () => Promise<void>): Promise<void> => {
    try {
      await run();
    } catch (err) {
      throw new Error(`${r.method} ${r.path} (${r.id}): ${(err as Error).message}`);
    }
  };

  async function send(r: RouteDef, query: string, body: Json | undefined): Promise<number> {
    const url = `${pathFor(r)}${query ? `?${query}` : ''}`;
    const auth = r.auth === 'admin' ? admin : key;
    const started = Date.now();
    const req = r.method === 'GET' ? request(t.app.handler).get(url) : request(t.app.handler).post(url).set('content-type', r.surface === 'fhir' ? 'application/fhir+json' : 'application/json');
    const res = await (body === undefined ? req : req.send(JSON.stringify(body))).set('x-api-key', auth).timeout(PER_REQUEST_MS);
    const ms = Date.now() - started;
    if (res.status >= 500 || ms > PER_REQUEST_MS) failures.push(`${r.method} ${url.slice(0, 200)} -> ${res.status} in ${ms} ms`);
    return res.status;
  }

  it('when query strings are arbitrary, then every GET route answers below 500', async () => {
    const gets = t.app.routes.filter((r) => r.method === 'GET' && r.id !== 'openapi');
    for (const r of gets) {
      await on(r, () => fc.assert(fc.asyncProperty(queryArb, async (pairs) => (await send(r, toQuery(pairs), undefined)) < 500), { numRuns: RUNS }));
    }
    expect(failures).to.deep.equal([]);
  });

  it('when bodies are arbitrary JSON, then every POST route answers below 500', async () => {
    const posts = t.app.routes.filter((r) => r.method === 'POST' && r.bodyType !== 'form');
    for (const r of posts) {
      await on(r, () => fc.assert(fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (body) => (await send(r, '', body)) < 500), { numRuns: RUNS }));
    }
    expect(failures).to.deep.equal([]);
  });

  it('when one element of a valid example is replaced by anything, then FHIR operations and CDS services answer below 500', async () => {
    for (const [id, make] of Object.entries(EXAMPLES)) {
      const r = t.app.routes.find((x) => x.id === id);
      if (!r) continue;
      const base = make();
      const all = paths(base);
      await fc.assert(
        fc.asyncProperty(fc.nat({ max: all.length - 1 }), fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(null), fc.constant([null]), fc.constant('x'), fc.constant(5)), async (i, value) => {
          return (await send(r, 'state=TX&program=part_d', replaceAt(base, all[i]!, value))) < 500;
        }),
        { numRuns: RUNS * 3 },
      );
    }
    expect(failures).to.deep.equal([]);
  });

  it('when an element becomes an object keyed by Object.prototype member names, then FHIR operations and CDS services answer below 500', async () => {
    // A fuzz counterexample ({"toString": false} in a PAS Bundle) once reached a definitions lookup by key and was a 500.
    const keys = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__'];
    for (const [id, make] of Object.entries(EXAMPLES)) {
      const r = t.app.routes.find((x) => x.id === id);
      if (!r) continue;
      const base = make();
      const all = paths(base);
      for (let i = 0; i < all.length; i += 7) {
        for (const k of keys) await send(r, 'state=TX&program=part_d', replaceAt(base, all[i]!, JSON.parse(`{"${k}": false}`) as Json));
      }
    }
    expect(failures).to.deep.equal([]);
  });

  it('when all of this has run, then the heap has not grown without bound', () => {
    // What the fuzzing itself left retained (after a full collection), not what earlier test files of the same
    // process hold: that grows with the corpus and the store driver, and is no leak of the routes fuzzed here.
    const grown = retainedHeap() - heapBefore;
    expect(grown, `retained heap grew by ${Math.round(grown / 1024 ** 2)} MB while fuzzing`).to.be.lessThan(256 * 1024 ** 2);
  });
});
