// The canonical JSON under every PAS dedupe key (src/services/pas/submit.ts): a faster writer must write the same
// text as the one before it, or a resubmission would no longer find the submission stored under the earlier key.
import { expect } from 'chai';
import { stableStringify } from '../../src/domain/stable-json.js';
import { submitBody } from '../../bench/pas-submit.js';

/** The first implementation, kept as the reference text. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : reference(v))).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${reference(obj[k])}`)
    .join(',')}}`;
}

describe('stable JSON', () => {
  it('when given a PAS request Bundle and its Claim, then the text is the reference text, keys sorted at every level', () => {
    const bundle = submitBody('stable');
    expect(stableStringify(bundle)).to.equal(reference(bundle));
    expect(stableStringify(bundle.entry[0].resource)).to.equal(reference(bundle.entry[0].resource));
    expect(stableStringify({ b: 1, a: { d: [1, { z: 2, y: 1 }], c: null } })).to.equal('{"a":{"c":null,"d":[1,{"y":1,"z":2}]},"b":1}');
  });

  it('when values are undefined, odd numbers, odd names or holes, then the text is still the reference text', () => {
    const odd: unknown[] = [{ a: undefined, b: [undefined, null, 1, , 'x'], 'é"\\': NaN, n: -0, i: Infinity, e: {}, l: [] }, [[], [{}]], 'str', 5, null, true, false, '', undefined];
    for (const v of odd) expect(stableStringify(v)).to.equal(reference(v));
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i])); // more names than are kept quoted
    expect(stableStringify(many)).to.equal(reference(many));
    expect(stableStringify(many)).to.equal(reference(many));
  });
});
