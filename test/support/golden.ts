// Golden files: written once from the projection with UPDATE_GOLDEN=1, reviewed by eye, committed; compared
// deep-equal afterwards with volatile fields (timestamps, dates) normalised.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { expect } from 'chai';

const VOLATILE = new Set(['timestamp', 'created', 'authored', 'valueDate', 'lastUpdated']);

export function normalise(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalise);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, VOLATILE.has(k) && typeof x === 'string' ? '<volatile>' : normalise(x)]));
  }
  return v;
}

export function expectGolden(name: string, actual: unknown): void {
  const file = resolve('test/golden', name);
  const value = normalise(actual);
  expect(existsSync(file) || process.env.UPDATE_GOLDEN === '1', `golden ${name} missing: run with UPDATE_GOLDEN=1 and review it`).to.equal(true);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  }
  expect(value).to.deep.equal(JSON.parse(readFileSync(file, 'utf8')));
}
