// The size limits of a request body (src/fhir/shape/json-limits.ts): the first count, made without a record per
// value, must find exactly the bodies the walk that names the place finds, and the answer must be the walk's.
import { expect } from 'chai';
import fc from 'fast-check';
import { checkJsonLimits, type JsonLimits } from '../../src/fhir/shape/json-limits.js';

/** The walk as it was before the first count: every value on the stack with its parent. */
function reference(body: unknown, limits: JsonLimits): { message: string; path: string } | undefined {
  type Step = { value: unknown; depth: number; parent: Step | undefined; key: string | number };
  const segment = (key: string | number): string => (typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$-]{0,63}$/.test(key) ? `.${key}` : '.(name)');
  const pathOf = (step: Step): string => {
    const keys: (string | number)[] = [];
    for (let s: Step | undefined = step; s?.parent; s = s.parent) keys.push(s.key);
    let path = '';
    for (let i = keys.length - 1; i >= 0 && path.length < 200; i--) path += segment(keys[i]!);
    return path.slice(0, 200);
  };
  const stack: Step[] = [{ value: body, depth: 1, parent: undefined, key: '' }];
  let nodes = 0;
  while (stack.length) {
    const step = stack.pop()!;
    const { value, depth } = step;
    if (++nodes > limits.maxNodes) return { message: `The body has more than ${limits.maxNodes} values`, path: pathOf(step) };
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limits.maxDepth) return { message: `The body nests deeper than ${limits.maxDepth} levels`, path: pathOf(step) };
    if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1, parent: step, key: i });
    else for (const k in value) stack.push({ value: (value as Record<string, unknown>)[k], depth: depth + 1, parent: step, key: k });
  }
  return undefined;
}

describe('body size limits', () => {
  it('when bodies of every shape are checked against small limits, then the answer is the naming walk\'s, place included', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 40 }), (body, maxDepth, maxNodes) => {
        const limits = { maxDepth, maxNodes };
        expect(checkJsonLimits(body, limits)).to.deep.equal(reference(body, limits));
      }),
      { numRuns: 2000 },
    );
  });

  it('when a body is within the default limits, then nothing is reported; one level or one value too many is named', () => {
    const deep = (n: number): unknown => (n ? { a: [deep(n - 1)] } : 1);
    expect(checkJsonLimits({ resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Claim' } }] })).to.equal(undefined);
    expect(checkJsonLimits(deep(40), { maxDepth: 81, maxNodes: 1000 })).to.equal(undefined);
    expect(checkJsonLimits(deep(40), { maxDepth: 80, maxNodes: 1000 })).to.deep.equal(reference(deep(40), { maxDepth: 80, maxNodes: 1000 }));
    expect(checkJsonLimits(Array.from({ length: 10 }, () => ({ x: 1 })), { maxDepth: 9, maxNodes: 20 })).to.deep.equal({ message: 'The body has more than 20 values', path: '[9].x' });
  });
});
