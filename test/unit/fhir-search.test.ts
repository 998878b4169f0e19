// The generic FHIR search engine (src/api/search.ts), table-driven over a few hand-made resources.
import { expect } from 'chai';
import type { Basic } from '../../src/fhir/r4.js';
import { dateRange, previousOffset, runSearch, splitOr, type SearchSpec } from '../../src/api/search.js';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const item = (id: string, code: string, start?: string, end?: string, ref = 'MedicationKnowledge/a'): Basic =>
  ({ resourceType: 'Basic', id, code: { coding: [{ system: 'urn:s', code }] }, subject: { reference: ref }, ...(start || end ? { extension: [{ url: 'p', valuePeriod: { start, end } }] } : {}) }) as Basic;
const items = [item('a', 'x', '2026-01-01', '2026-12-31'), item('b', 'X', '2025-07-01'), item('c', 'y', undefined, undefined, 'MedicationKnowledge/b'), item('d', 'a,b')];
const spec: SearchSpec<Basic> = {
  resourceType: 'Basic',
  params: [
    { name: 'code', type: 'token', values: (r) => (r.code.coding ?? []).map((c) => ({ system: c.system!, code: c.code! })) },
    { name: 'period', type: 'date', values: (r) => (r.extension ?? []).map((e) => e.valuePeriod!) },
    { name: 'subject', type: 'reference', values: (r) => [r.subject!.reference!] },
  ],
  includes: { 'Basic:subject': (r) => [r.subject!.reference!] },
};
const run = (q: string, strict = false): Any =>
  runSearch(spec, { resources: items, resolve: (ref) => ({ resourceType: 'MedicationKnowledge', id: ref.split('/')[1]!, status: 'active' }) as Any, visible: () => true }, { params: new URLSearchParams(q), strict, selfBase: 'http://h/v1/Basic' }, { base: 'http://h' });
const ids = (q: string): string[] => run(q).body.entry.filter((e: Any) => e.search.mode === 'match').map((e: Any) => e.resource.id);

describe('unit: FHIR search engine', () => {
  it('splits OR values on unescaped commas only', () => {
    expect(splitOr('a,b')).to.deep.equal(['a', 'b']);
    expect(splitOr('a\\,b,c')).to.deep.equal(['a,b', 'c']);
  });
  it('previous: one page back, or from past the end the last page holding matches (qa6 #14)', () => {
    expect(previousOffset(100, 50, 384)).to.equal(50);
    expect(previousOffset(50, 100, 384)).to.equal(0);
    expect(previousOffset(500, 100, 384)).to.equal(300);
    expect(previousOffset(400, 100, 384)).to.equal(300);
    expect(previousOffset(900, 100, 0)).to.equal(0);
    expect(previousOffset(10, 0, 384)).to.equal(0);
  });
  it('reads dates at their precision', () => {
    expect(dateRange('2026')).to.deep.equal({ low: Date.UTC(2026, 0, 1), high: Date.UTC(2027, 0, 1) });
    expect(dateRange('2026-02')).to.deep.equal({ low: Date.UTC(2026, 1, 1), high: Date.UTC(2026, 2, 1) });
    expect(dateRange('2026-02-03T04:05:06+01:00')!.low).to.equal(Date.UTC(2026, 1, 3, 3, 5, 6));
    expect(dateRange('yesterday')).to.equal(undefined);
    expect(dateRange('2026-13')).to.equal(undefined);
    // Real calendar days only (qa6 #14: period=2026-02-30 answered 200 with nothing found, not the documented 400).
    expect(dateRange('2026-02-30')).to.equal(undefined);
    expect(dateRange('2025-02-29')).to.equal(undefined);
    expect(dateRange('2024-02-29')).to.deep.equal({ low: Date.UTC(2024, 1, 29), high: Date.UTC(2024, 2, 1) });
    expect(dateRange('2026-04-31T10:00:00Z')).to.equal(undefined);
  });
  const cases: [string, string[]][] = [
    ['code=x', ['a', 'b']],
    ['code=urn:s|x', ['a', 'b']],
    ['code=urn:t|x', []],
    ['code:not=x', ['c', 'd']],
    ['code=a\\,b', ['d']],
    ['code=x,y', ['a', 'b', 'c']],
    ['code=x&code=y', []],
    ['period=2026', ['a']],
    ['period=gt2026-06-01', ['a', 'b']],
    ['period=gt2027-01-01', ['b']],
    ['period=lt2026-01-01', ['b']],
    ['period=ge2026-01-01', ['a', 'b']],
    ['period=le2025-12-31', ['b']],
    ['period=sa2025-12-31', ['a']],
    ['period=eb2027-01-01', ['a']],
    ['period=ap2026-06', ['a', 'b']],
    ['period=ne2026', ['b']],
    ['subject=MedicationKnowledge/b', ['c']],
    ['subject=b', ['c']],
    ['subject=http://elsewhere/fhir/MedicationKnowledge/a', ['a', 'b', 'd']],
    ['subject:MedicationKnowledge=b', ['c']],
  ];
  for (const [q, want] of cases) it(`when searched with ${q}, then ${want.join(', ') || 'nothing'}`, () => expect(ids(q)).to.deep.equal(want));

  it('when paged, then self/next/previous links carry the kept parameters and the offset', () => {
    const page = run('code=x,y&_count=1&_offset=1&junk=1').body;
    expect(page.total).to.equal(3);
    expect(page.link).to.deep.equal([
      { relation: 'self', url: 'http://h/v1/Basic?code=x%2Cy&_count=1&_offset=1' },
      { relation: 'next', url: 'http://h/v1/Basic?code=x%2Cy&_count=1&_offset=2' },
      { relation: 'previous', url: 'http://h/v1/Basic?code=x%2Cy&_count=1' },
    ]);
  });
  it('when _include is repeated, then each target once and each value once in the self link; unknown includes ignored or 400 when strict', () => {
    const b = run('_include=Basic:subject&_include=Basic:subject&_include=Basic:nope').body;
    expect(b.entry.filter((e: Any) => e.search.mode === 'include').map((e: Any) => e.resource.id)).to.deep.equal(['a', 'b']);
    expect(b.link[0].url).to.equal('http://h/v1/Basic?_include=Basic%3Asubject&_include=Basic%3Asubject&_count=50');
    expect(b.entry.at(-1).resource.issue[0].diagnostics).to.contain('_include=Basic:nope');
    expect(run('_include=Basic:nope', true)).to.include({ status: 400, expression: '_include' });
  });
  it('when a modifier, date or _count is invalid, then a 400 naming the parameter whatever the handling', () => {
    expect(run('code:exact=x')).to.include({ status: 400, expression: 'code:exact' });
    expect(run('period=gt20260101')).to.include({ status: 400, expression: 'period' });
    expect(run('_count=-1')).to.include({ status: 400, expression: '_count' });
    expect(run('code=')).to.include({ status: 400, expression: 'code' });
  });
});
