// The fast structural check (src/fhir/shape/fast-check.ts) against the full validator: whenever it passes a resource
// as clean, the full validator finds nothing either (so skipping it changes no verdict), over every example and kit
// request and over single-place mutations of them; and the bodies real traffic sends (the CRD order-sign and PAS
// requests the bench sends) do pass it, so they never wait for the full validator.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isCleanResource } from '../../src/fhir/shape/fast-check.js';
import { fullCheck } from '../../src/fhir/shape/fhir-shape.js';
import { isResourceObj } from '../../src/fhir/shape/json-shape.js';
import { orderSignThreeOrders } from '../support/crd-requests.js';
import { submitBody } from '../../bench/pas-submit.js';

type Json = Record<string, unknown>;
const dir = (d: string): string => fileURLToPath(new URL(`../${d}/`, import.meta.url));
const files = ['examples', 'kit-requests'].flatMap((d) => readdirSync(dir(d)).filter((f) => f.endsWith('.json')).map((f) => ({ name: `${d}/${f}`, body: JSON.parse(readFileSync(`${dir(d)}${f}`, 'utf8')) as unknown })));

/** The resources a body hands the check: itself, or a CDS request's context Bundles and prefetch. */
function resourcesOf(body: unknown): Json[] {
  if (isResourceObj(body)) return [body];
  const b = body as { context?: Json; prefetch?: Json };
  return [b.context?.draftOrders, b.context?.appointments, ...Object.values(b.prefetch ?? {})].filter(isResourceObj);
}

/** Every path of a JSON value (keys and indexes), to mutate one place at a time. */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (at.length) out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}
function mutated(v: Json, path: (string | number)[], value: unknown): Json {
  const copy = structuredClone(v);
  let node = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === DELETE) Array.isArray(node) ? node.splice(Number(last), 1) : delete node[last];
  else node[last] = value;
  return copy;
}
const DELETE = Symbol('delete');
const MUTATIONS: unknown[] = [DELETE, null, [null], '', {}, [], 1.5, -1, 0, true, 'not a code', ' padded ', '2026-13-45', { extension: [] }, [{}]];

const agrees = (r: Json): boolean => !isCleanResource(r) || fullCheck(r, String(r.resourceType)).length === 0;

describe('fast structural check', () => {
  it('when it passes an example or kit resource as clean, then the full validator finds no problem in it', () => {
    const resources = files.flatMap((f) => resourcesOf(f.body).map((r) => ({ name: f.name, r })));
    expect(resources.length).to.be.greaterThan(40);
    for (const { name, r } of resources) expect(agrees(r), name).to.equal(true);
  });

  it('when one place of an example is changed (deleted, emptied, retyped), then a clean verdict still means no problem', () => {
    let rng = 7; // deterministic: the same mutations every run
    const next = (n: number): number => ((rng = (rng * 1103515245 + 12345) % 2 ** 31), rng % n);
    let clean = 0;
    for (const f of files) {
      for (const r of resourcesOf(f.body)) {
        const all = paths(r).filter((p) => p[0] !== 'resourceType');
        for (let i = 0; i < 60; i++) {
          const path = all[next(all.length)]!;
          const m = mutated(r, path, MUTATIONS[next(MUTATIONS.length)]);
          if (isCleanResource(m)) clean++;
          expect(agrees(m), `${f.name} at ${path.join('.')}`).to.equal(true);
        }
      }
    }
    expect(clean, 'some mutations keep a resource valid (the check is exercised both ways)').to.be.greaterThan(0);
  });

  it('when a Bundle entry or a list item is null or not an object (which the schema lets through), then it is not clean and nothing throws', () => {
    const bundle = submitBody('x') as Json;
    for (const bad of [null, 5, 'x', []]) {
      expect(isCleanResource(mutated(bundle, ['entry', 0], bad))).to.equal(false);
      expect(isCleanResource(mutated(bundle, ['entry', 0, 'resource', 'item', 0], bad))).to.equal(false);
    }
  });

  it('when the bench sends CRD order-sign and PAS $submit bodies, then every resource in them passes as clean', () => {
    for (const r of [...resourcesOf(orderSignThreeOrders()), submitBody('x') as Json]) expect(isCleanResource(r), String(r.resourceType)).to.equal(true);
  });
});
