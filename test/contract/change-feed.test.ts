// The change feed as feed readers see it: parsed with a real feed parser, checked for the Atom elements RFC 4287
// requires, paged with RFC 5005 next links, filtered, and answering conditional requests with 304.
import { parseFeed } from '@rowanmanning/feed-parser';
import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import { ingestRecords } from '../../src/ingest/run-ingest.js';
import { jurisdiction, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['entry', 'link', 'category'].includes(name) });

type AtomLink = { '@rel'?: string; '@href': string; '@type'?: string };
interface AtomDoc {
  feed: {
    id: string;
    title: string;
    updated: string;
    author?: { name: string };
    link: AtomLink[];
    entry?: { id: string; title: string | { '#text': string }; updated: string; link: AtomLink[]; content: unknown; category: { '@term': string }[] }[];
  };
}

function atomOf(text: string): AtomDoc {
  expect(XMLValidator.validate(text), 'well-formed XML').to.equal(true);
  const doc = xml.parse(text) as AtomDoc;
  // RFC 4287 4.1.1: atom:feed has exactly one id, title, updated, and an author (or every entry has one).
  expect(doc.feed.id).to.be.a('string').and.not.equal('');
  expect(doc.feed.title).to.be.a('string');
  expect(Number.isNaN(Date.parse(doc.feed.updated))).to.equal(false);
  expect(doc.feed.author?.name).to.be.a('string');
  for (const e of doc.feed.entry ?? []) {
    expect(e.id).to.match(/^urn:prauth:change:\d+-\d{6}$/);
    expect(Number.isNaN(Date.parse(e.updated))).to.equal(false);
  }
  return doc;
}

const rel = (doc: AtomDoc, r: string): string | undefined => doc.feed.link.find((l) => l['@rel'] === r)?.['@href'];

function pathOf(href: string): string {
  const u = new URL(href);
  return `${u.pathname}${u.search}`;
}

describe('change feed /v1/watch/feed.xml and /v1/watch/feed.json', () => {
  let t: TestApp;
  let clock: Date;
  beforeEach(async () => {
    clock = new Date('2026-11-20T10:00:00.000Z');
    t = await makeTestApp(
      [
        jurisdiction('TX'),
        jurisdiction('CA'),
        rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', paRequired: false }),
        rule({ state: 'CA', program: 'chip', code: 'dental', kind: 'service' }),
      ],
      { now: () => clock },
    );
  });

  async function ingest(docs: object[]): Promise<void> {
    const report = await ingestRecords({ store: t.deps.store, now: () => clock }, docs.map((value, i) => ({ file: 'x', line: i + 1, value })));
    expect(report.rejected).to.deep.equal([]);
    await t.deps.corpus.refresh();
  }

  it('when a rule changes, then the Atom feed shows old -> new first, parses with a feed parser, and links the lookup and the source', async () => {
    clock = new Date('2026-11-21T12:00:00.000Z');
    await ingest([{ ...rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', paRequired: true, paType: 'step_therapy', lastVerified: '2026-11-21' }) }]);
    const res = await request(t.app.handler).get('/v1/watch/feed.xml').set('Host', 'api.example.test');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/atom+xml; charset=utf-8');
    expect(res.headers['cache-control']).to.equal('public, max-age=300, s-maxage=3600, stale-while-revalidate=86400');
    const text = res.text;
    const parsed = parseFeed(text);
    expect(parsed.meta.type).to.equal('atom');
    expect(parsed.items).to.have.length(3);
    const top = parsed.items[0]!;
    expect(top.title).to.contain('TX').and.contain('rule changed');
    expect(top.url).to.equal('http://api.example.test/v1/pauth-lookup?state=TX&program=medicaid_mco&drug=hepatitis_c');
    const content = (top.content ?? '').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    expect(content).to.contain('PA required: no -> yes');
    expect(content).to.contain('PA type: none -> step_therapy');
    expect(content).to.contain('Last verified: 2026-11-01 -> 2026-11-21');
    expect(content).to.contain('href="https://medicaid.tx.example.gov/pa/hepatitis_c"');
    expect(top.updated?.toISOString()).to.equal('2026-11-21T12:00:00.000Z');
    const doc = atomOf(text);
    const entryLinks = doc.feed.entry![0]!.link;
    expect(entryLinks.find((l) => !l['@rel'])?.['@href']).to.equal(top.url);
    expect(entryLinks.find((l) => l['@rel'] === 'related')?.['@href']).to.equal('https://medicaid.tx.example.gov/pa/hepatitis_c');
    expect(rel(doc, 'self')).to.equal('http://api.example.test/v1/watch/feed.xml');
    expect(rel(doc, 'first')).to.equal('http://api.example.test/v1/watch/feed.xml');
    expect(rel(doc, 'next')).to.equal(undefined);
    expect(doc.feed.updated).to.equal('2026-11-21T12:00:00.000Z');
    expect(res.headers['last-modified']).to.equal('Sat, 21 Nov 2026 12:00:00 GMT');
  });

  it('when pages are followed by their next links, then every entry appears once, newest first (RFC 5005)', async () => {
    for (let i = 0; i < 4; i++) {
      clock = new Date(Date.UTC(2026, 10, 21, 12, i));
      await ingest([rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', lastVerified: `2026-11-2${i}` })]);
    }
    const seen: string[] = [];
    let next: string | undefined = '/v1/watch/feed.xml?limit=2';
    let pages = 0;
    while (next) {
      const res = await request(t.app.handler).get(next);
      expect(res.status).to.equal(200);
      const doc = atomOf(res.text);
      seen.push(...(doc.feed.entry ?? []).map((e) => e.id));
      const n = rel(doc, 'next');
      next = n ? pathOf(n) : undefined;
      pages++;
    }
    expect(pages).to.equal(3);
    expect(seen).to.have.length(6);
    expect(new Set(seen).size).to.equal(6);
    const versions = seen.map((id) => Number(/change:(\d+)-/.exec(id)![1]));
    expect(versions).to.deep.equal([...versions].sort((a, b) => b - a));
  });

  it('when filtered by state, program and since, then only matching changes are listed; bad filters are 400 naming them', async () => {
    clock = new Date('2026-11-22T00:00:00.000Z');
    await ingest([rule({ state: 'CA', program: 'chip', code: 'dental', kind: 'service', paType: 'conditional' })]);
    const byState = await request(t.app.handler).get('/v1/watch/feed.json?state=CA');
    expectOpenApi(t.app.routes, byState);
    const items = (byState.body as { items: { _prauth: { state: string; action: string; program: string } }[] }).items;
    expect(items.map((i) => `${i._prauth.state} ${i._prauth.action}`)).to.deep.equal(['CA changed', 'CA added']);
    const since = await request(t.app.handler).get('/v1/watch/feed.json?since=2026-11-21');
    expect((since.body as { items: unknown[] }).items).to.have.length(1);
    const prog = await request(t.app.handler).get('/v1/watch/feed.json?program=mco');
    expect((prog.body as { items: { _prauth: { rule_id: string } }[] }).items.map((i) => i._prauth.rule_id)).to.deep.equal(['tx.medicaid-mco.d.hepatitis-c']);
    for (const [q, word] of [['state=ZZ', 'state'], ['since=yesterday', 'since'], ['limit=0', 'limit'], ['after=abc', 'after'], ['program=medigap', 'program']]) {
      const bad = await request(t.app.handler).get(`/v1/watch/feed.xml?${q}`);
      expect(bad.status, q).to.equal(400);
      expect((bad.body as { error: string }).error, q).to.contain(word);
      expect(bad.headers['cache-control']).to.equal('no-store');
    }
  });

  it('when a client revalidates with If-None-Match or If-Modified-Since, then it gets 304 until the next ingest', async () => {
    const first = await request(t.app.handler).get('/v1/watch/feed.xml');
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).to.match(/^"atom-/);
    const again = await request(t.app.handler).get('/v1/watch/feed.xml').set('If-None-Match', etag);
    expect(again.status).to.equal(304);
    expect(again.text ?? '').to.equal('');
    expect(again.headers.etag).to.equal(etag);
    expect(again.headers['cache-control']).to.contain('public');
    const byDate = await request(t.app.handler).get('/v1/watch/feed.xml').set('If-Modified-Since', lastModified);
    expect(byDate.status).to.equal(304);
    // The JSON twin has its own validator.
    const json = await request(t.app.handler).get('/v1/watch/feed.json').set('If-None-Match', etag);
    expect(json.status).to.equal(200);
    // A stale If-None-Match wins over a fresh If-Modified-Since (RFC 9110 13.2.2).
    const mixed = await request(t.app.handler).get('/v1/watch/feed.xml').set('If-None-Match', '"other"').set('If-Modified-Since', lastModified);
    expect(mixed.status).to.equal(200);

    clock = new Date('2026-11-23T00:00:00.000Z');
    await ingest([rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', lastVerified: '2026-11-23' })]);
    const changed = await request(t.app.handler).get('/v1/watch/feed.xml').set('If-None-Match', etag);
    expect(changed.status).to.equal(200);
    expect(changed.headers.etag).to.not.equal(etag);
    const after = await request(t.app.handler).get('/v1/watch/feed.xml').set('If-Modified-Since', lastModified);
    expect(after.status).to.equal(200);
  });

  it('when regulatory events are ingested, then they appear as entries with their source, for every state when federal', async () => {
    clock = new Date('2026-11-24T00:00:00.000Z');
    await ingest([
      {
        resourceType: 'RegulatoryEvent',
        id: 9001,
        jurisdiction: 'US',
        eventKind: 'final_rule',
        title: 'CMS-0057-F final rule',
        issuedAt: '2024-01-17',
        effectiveAt: '2024-04-08',
        paRelevant: true,
        sourceUrl: 'https://www.federalregister.gov/d/2024-00895',
        ruleId: 'CMS-0057-F',
        topics: [],
        programs: ['medicaid_mco'],
      },
    ]);
    const res = await request(t.app.handler).get('/v1/watch/feed.json?state=TX');
    expectOpenApi(t.app.routes, res);
    const top = (res.body as { items: { url: string; _prauth: Record<string, unknown> }[] }).items[0]!;
    expect(top._prauth).to.include({ resource_type: 'RegulatoryEvent', state: 'US', event_id: 9001, federal_rule_id: 'CMS-0057-F', source_url: 'https://www.federalregister.gov/d/2024-00895' });
    expect(top.url).to.match(/\/api\/v1\/compliance\/CMS-0057-F$/);
    const other = await request(t.app.handler).get('/v1/watch/feed.json?program=part_d');
    expect((other.body as { items: unknown[] }).items).to.have.length(0);
    const atom = parseFeed((await request(t.app.handler).get('/v1/watch/feed.xml')).text);
    expect(atom.items[0]!.title).to.contain('CMS-0057-F final rule');
  });

  it('when the JSON twin is read, then it matches its OpenAPI schema and carries the structured before/after', async () => {
    clock = new Date('2026-11-21T12:00:00.000Z');
    await ingest([rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', paRequired: true })]);
    const res = await request(t.app.handler).get('/v1/watch/feed.json?limit=1');
    expect(res.headers['content-type']).to.equal('application/feed+json; charset=utf-8');
    expectOpenApi(t.app.routes, res);
    const body = res.body as { next_url?: string; items: { _prauth: { before: object; after: object; changes: string[] } }[] };
    expect(body.items[0]!._prauth.before).to.deep.include({ pa_required: false, pa_type: 'none' });
    expect(body.items[0]!._prauth.after).to.deep.include({ pa_required: true, pa_type: 'full' });
    expect(body.items[0]!._prauth.changes).to.include('PA required: no -> yes');
    expect(body.next_url).to.match(/\/v1\/watch\/feed\.json\?limit=1&after=\d+-\d{6}$/);
  });

  it('when only verified rules are served (the default), then sample rules added or changed are not announced; a rule that becomes verified is', async () => {
    const strict = await makeTestApp(
      [jurisdiction('TX'), jurisdiction('CA'), rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' }), rule({ state: 'CA', program: 'chip', code: 'dental', kind: 'service', status: 'sample' })],
      { now: () => clock, env: { SERVE_SAMPLE_RULES: 'false' } },
    );
    type Items = { items: { _prauth: { rule_id: string; action: string } }[] };
    const before = (await request(strict.app.handler).get('/v1/watch/feed.json')).body as Items;
    expect(before.items.map((i) => i._prauth.rule_id)).to.deep.equal(['tx.medicaid-mco.d.hepatitis-c']);
    clock = new Date('2026-11-22T10:00:00.000Z');
    const report = await ingestRecords({ store: strict.deps.store, now: () => clock }, [{ file: 'x', line: 1, value: rule({ state: 'CA', program: 'chip', code: 'dental', kind: 'service' }) }]);
    expect(report.rejected).to.deep.equal([]);
    await strict.deps.corpus.refresh();
    const after = (await request(strict.app.handler).get('/v1/watch/feed.json')).body as Items;
    expect(after.items.map((i) => `${i._prauth.rule_id} ${i._prauth.action}`)).to.deep.equal(['ca.chip.s.dental changed', 'tx.medicaid-mco.d.hepatitis-c added']);
  });

  it('when an exclusion limited to a population is added, then the entry says "not covered" and for whom, never "no PA required"', async () => {
    const base = rule({ state: 'TX', program: 'medicaid_ffs', code: 'glp1_weight_loss', paRequired: false });
    const excl = { ...base, requirement: { ...base.requirement, population: 'clients 21 and over', exclusion: { reason: 'Not covered for adults.', citation: 'Manual' } } };
    clock = new Date('2026-11-23T10:00:00.000Z');
    await ingest([excl]);
    type Item = { title: string; summary: string; content_html: string; _prauth: { rule_id: string; after?: Record<string, unknown>; changes?: string[] } };
    const items = ((await request(t.app.handler).get('/v1/watch/feed.json?state=TX&program=medicaid_ffs')).body as { items: Item[] }).items;
    const e = items.find((i) => i._prauth.rule_id === 'tx.medicaid-ffs.d.glp1-weight-loss')!;
    expect(e._prauth.after).to.include({ pa_required: false, not_covered: true, applies_to: 'clients 21 and over' });
    expect(e._prauth.changes).to.include.members(['PA required: not covered (no PA route)', 'Applies to: clients 21 and over']);
    expect(JSON.stringify(e)).to.not.contain('no PA required');
    expect(e.summary ?? '').to.contain('not covered');
  });
});
