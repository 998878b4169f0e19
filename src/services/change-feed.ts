// The change feed (spec 6): the ingest change log as an Atom feed (RFC 4287) and a JSON Feed 1.1 twin, newest first,
// paged with RFC 5005 links (first / next), filterable by state, program and since. The log is read once per corpus
// state (version and entry count) and filtered in memory; validators (ETag, Last-Modified) come from the same state.
import { createHash } from 'node:crypto';
import { Feed, type Item } from 'feed';
import type { RuleFacts } from '../ingest/change-facts.js';
import type { EventChangeLogEntry } from '../ingest/change-facts.js';
import type { ChangeLogEntry } from '../ingest/run-ingest.js';
import { PROGRAM_LABELS, subjectLabel, type Program, type SubjectKind } from '../domain/vocabulary.js';
import { COLLECTIONS, readCorpusVersion } from '../store/collections.js';
import type { DocumentStore } from '../store/port.js';

export type FeedEntry = ChangeLogEntry | EventChangeLogEntry;

export interface FeedQuery {
  state?: string;
  program?: Program;
  /** Entries recorded at or after this moment. */
  since?: Date;
  /** The id of the last entry of the previous page (RFC 5005 next link). */
  after?: string;
  limit: number;
}

export interface FeedPage {
  entries: FeedEntry[];
  /** Cursor for the next (older) page, when there is one. */
  nextAfter?: string;
  /** Newest `at` among every entry matching the filters (not just this page): Last-Modified. */
  lastModified?: Date;
  /** A strong validator of this page's content. */
  etag: string;
  total: number;
}

export const FEED_DEFAULT_LIMIT = 50;
export const FEED_MAX_LIMIT = 500;

const CHANGE_ID = /^\d{1,12}-\d{6}$/;
export const isChangeId = (v: string): boolean => CHANGE_ID.test(v);

/** Newest first: a higher corpus version first, then a higher sequence within it (ids are zero-padded). */
function newerFirst(a: FeedEntry, b: FeedEntry): number {
  if (a.corpusVersion !== b.corpusVersion) return b.corpusVersion - a.corpusVersion;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function versionOf(id: string): number {
  return Number(id.slice(0, id.indexOf('-')));
}

function matches(e: FeedEntry, q: FeedQuery): boolean {
  if (q.since && e.at < q.since.toISOString()) return false;
  if (e.resourceType === 'RegulatoryEvent') {
    // A federal event ('US') concerns every state; an event with no programs concerns every program.
    if (q.state && e.jurisdiction !== q.state && e.jurisdiction !== 'US') return false;
    if (q.program && e.programs.length && !e.programs.includes(q.program)) return false;
    return true;
  }
  if (q.state && e.jurisdiction !== q.state) return false;
  if (q.program && e.program !== q.program) return false;
  return true;
}

export interface ChangeFeed {
  page(q: FeedQuery): Promise<FeedPage>;
}

/**
 * Whether the feed shows an entry under the serving policy. With verified rules only (the default), a rule change is
 * news only where the rule is served before or after it: a sample rule added, changed or retired never was, so its
 * entry would announce a rule whose lookup answers 404. Events are always shown.
 */
export function feedShows(e: FeedEntry, verifiedOnly: boolean): boolean {
  if (!verifiedOnly || e.resourceType === 'RegulatoryEvent') return true;
  return e.before?.status === 'verified' || e.after?.status === 'verified';
}

export function createChangeFeed(deps: { store: DocumentStore; verifiedOnly: boolean }): ChangeFeed {
  const col = deps.store.collection<FeedEntry>(COLLECTIONS.changes);
  let cache: { key: string; entries: FeedEntry[] } | undefined;
  let loading: Promise<{ key: string; entries: FeedEntry[] }> | undefined;

  async function load(): Promise<{ key: string; entries: FeedEntry[] }> {
    const [version, count] = await Promise.all([readCorpusVersion(deps.store), col.count()]);
    const key = `${version}.${count}`;
    if (cache?.key === key) return cache;
    loading ??= col
      .find({})
      .then((all) => {
        cache = { key, entries: all.filter((e) => feedShows(e, deps.verifiedOnly)).sort(newerFirst) };
        return cache;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }

  return {
    async page(q) {
      const { key, entries } = await load();
      const matching = entries.filter((e) => matches(e, q));
      let start = 0;
      if (q.after) {
        const cursor = { id: q.after, corpusVersion: versionOf(q.after) } as FeedEntry;
        start = matching.findIndex((e) => newerFirst(e, cursor) > 0);
        if (start < 0) start = matching.length;
      }
      const slice = matching.slice(start, start + q.limit);
      const hasMore = start + q.limit < matching.length;
      const newest = matching[0]?.at;
      const etag = createHash('sha256')
        .update(JSON.stringify([key, q.state, q.program, q.since?.toISOString(), q.after, q.limit]))
        .digest('base64url')
        .slice(0, 27);
      return {
        entries: slice,
        ...(hasMore && slice.length ? { nextAfter: slice[slice.length - 1]!.id } : {}),
        ...(newest ? { lastModified: new Date(newest) } : {}),
        etag: `"${etag}"`,
        total: matching.length,
      };
    },
  };
}

// ---- projections -------------------------------------------------------------------------------------------

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const yesNo = (b: boolean): string => (b ? 'yes' : 'no');

/** The "old -> new" lines of a rule change: PA required, PA type, source, last verified, status. */
export function describeFacts(before: RuleFacts | undefined, after: RuleFacts | undefined): string[] {
  if (!after) return [];
  const lines: string[] = [];
  const pair = (label: string, a: string | undefined, b: string): void => {
    if (a === undefined) lines.push(`${label}: ${b}`);
    else if (a !== b) lines.push(`${label}: ${a} -> ${b}`);
  };
  // An exclusion is not "PA required: no", and a source that only lets the plan require PA is not "PA required: yes".
  const paWord = (f: RuleFacts): string => (f.notCovered ? 'not covered (no PA route)' : f.paMode === 'plan_may_require' ? 'at the plan\'s choice' : yesNo(f.paRequired));
  pair('PA required', before ? paWord(before) : undefined, paWord(after));
  if (after.appliesTo || before?.appliesTo) pair('Applies to', before ? before.appliesTo ?? 'everyone the rule covers' : undefined, after.appliesTo ?? 'everyone the rule covers');
  pair('PA type', before?.paType, after.paType);
  pair('Source', before?.sourceUrl, after.sourceUrl);
  pair('Last verified', before?.lastVerified, after.lastVerified);
  pair('Status', before?.status, after.status);
  return lines;
}

export function entryTitle(e: FeedEntry): string {
  if (e.resourceType === 'RegulatoryEvent') return `${e.jurisdiction}: ${e.title} (${e.action === 'added' ? 'new event' : 'event updated'})`;
  const program = PROGRAM_LABELS[e.program as Program] ?? e.program;
  const subject = subjectLabel(e.subject.kind as SubjectKind, e.subject.code);
  return `${e.jurisdiction} ${program}, ${subject}${e.payerId ? ` (payer ${e.payerId})` : ''}: rule ${e.action}`;
}

/** Where a reader goes for the current state of what changed. */
export function entryLink(e: FeedEntry, base: string): string {
  if (e.resourceType === 'RegulatoryEvent') {
    if (e.federalRuleId && /^[A-Z0-9-]{3,32}$/.test(e.federalRuleId)) return `${base}/api/v1/compliance/${e.federalRuleId}`;
    // A federal event belongs to no state: its own (official) source is where it is read, not some state's page.
    if (e.jurisdiction === 'US') return e.sourceUrl ?? `${base}/v1/topics`;
    return `${base}/v1/states?state=${e.jurisdiction}`;
  }
  const subject = `${e.subject.kind === 'drug' ? 'drug' : 'service'}=${encodeURIComponent(e.subject.code)}`;
  if (e.payerId) return `${base}/v1/compare-payers?state=${e.jurisdiction}&${subject}`;
  return `${base}/v1/pauth-lookup?state=${e.jurisdiction}&program=${e.program}&${subject}`;
}

function entryHtml(e: FeedEntry, link: string): string {
  if (e.resourceType === 'RegulatoryEvent') {
    const src = e.sourceUrl ? `<p>Source: <a href="${esc(e.sourceUrl)}">${esc(e.sourceUrl)}</a></p>` : '';
    return `<p>${esc(e.summary)}</p><p>Issued ${esc(e.issuedAt)}, effective ${esc(e.effectiveAt)}.</p>${src}`;
  }
  const lines = describeFacts(e.before, e.after);
  const list = lines.length ? `<ul>${lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>` : '';
  return (
    `<p>${esc(e.summary)}</p>${list}` +
    `<p>Lookup: <a href="${esc(link)}">${esc(link)}</a></p>` +
    `<p>Source: <a href="${esc(e.sourceUrl)}">${esc(e.after?.sourceTitle ?? e.sourceUrl)}</a></p>`
  );
}

export interface FeedRender {
  base: string;
  /** The query string (without cursor) shared by the self, first and next links. */
  filterQuery: URLSearchParams;
  now: Date;
}

function linkWith(base: string, path: string, params: URLSearchParams, after?: string): string {
  const p = new URLSearchParams(params);
  if (after) p.set('after', after);
  const qs = p.toString();
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

function buildFeed(page: FeedPage, r: FeedRender, after: string | undefined): Feed {
  const feed = new Feed({
    id: `${r.base}/v1/watch/feed.xml`,
    title: 'prauth corpus changes',
    description: 'Prior-authorization rules added, changed or retired, and regulatory events, newest first',
    link: `${r.base}/v1/manifest`,
    updated: page.lastModified ?? new Date(0),
    generator: 'prauth',
    author: { name: 'prauth' },
    feedLinks: {
      atom: linkWith(r.base, '/v1/watch/feed.xml', r.filterQuery, after),
      json: linkWith(r.base, '/v1/watch/feed.json', r.filterQuery, after),
    },
  });
  for (const e of page.entries) {
    const link = entryLink(e, r.base);
    const item: Item = {
      id: `urn:prauth:change:${e.id}`,
      title: entryTitle(e),
      link,
      date: new Date(e.at),
      published: new Date(e.at),
      description: e.summary,
      content: entryHtml(e, link),
      category: [
        { term: e.action, scheme: 'urn:prauth:change-action' },
        { term: e.jurisdiction, scheme: 'urn:prauth:state' },
        ...(e.resourceType === 'CoverageRule' ? [{ term: e.program, scheme: 'urn:prauth:program' }] : []),
      ],
    };
    feed.addItem(item);
  }
  return feed;
}

/** Atom 1.0 with RFC 5005 paging links (the feed library writes self; first and next are added beside it). */
export function renderAtom(page: FeedPage, r: FeedRender, after?: string): string {
  const xml = buildFeed(page, r, after).atom1();
  const extra = [`<link rel="first" href="${esc(linkWith(r.base, '/v1/watch/feed.xml', r.filterQuery))}"/>`];
  if (page.nextAfter) extra.push(`<link rel="next" href="${esc(linkWith(r.base, '/v1/watch/feed.xml', r.filterQuery, page.nextAfter))}"/>`);
  extra.push(`<link rel="alternate" type="application/feed+json" href="${esc(linkWith(r.base, '/v1/watch/feed.json', r.filterQuery, after))}"/>`);
  // Insert after the feed-level <link rel="self"> the library writes (the first self link in the document).
  const at = xml.indexOf('<link rel="self"');
  const end = xml.indexOf('/>', at) + 2;
  if (at < 0 || end < 2) throw new Error('feed library output changed: no self link');
  let out = `${xml.slice(0, end)}\n    ${extra.join('\n    ')}${xml.slice(end)}`;
  // Each entry also links its source (rel="related"; the library writes only the alternate link, to the lookup).
  for (const e of page.entries) {
    const source = e.sourceUrl;
    if (!source || !/^https?:\/\//.test(source)) continue;
    const idTag = `<id>urn:prauth:change:${e.id}</id>`;
    out = out.replace(idTag, `${idTag}\n        <link rel="related" href="${esc(source)}"/>`);
  }
  return out;
}

interface JsonFeedItem {
  id: string;
  [k: string]: unknown;
}

/** JSON Feed 1.1 twin: the same entries, `next_url` for paging, and the structured change under `_prauth`. */
export function renderJsonFeed(page: FeedPage, r: FeedRender, after?: string): Record<string, unknown> {
  const json = JSON.parse(buildFeed(page, r, after).json1()) as Record<string, unknown> & { items: JsonFeedItem[] };
  const byId = new Map(page.entries.map((e) => [`urn:prauth:change:${e.id}`, e]));
  return {
    ...json,
    version: 'https://jsonfeed.org/version/1.1',
    ...(page.nextAfter ? { next_url: linkWith(r.base, '/v1/watch/feed.json', r.filterQuery, page.nextAfter) } : {}),
    _prauth: { total: page.total, first_url: linkWith(r.base, '/v1/watch/feed.json', r.filterQuery) },
    items: json.items.map((item) => {
      const e = byId.get(item.id)!;
      const common = { change_id: e.id, action: e.action, resource_type: e.resourceType, state: e.jurisdiction, corpus_version: e.corpusVersion, at: e.at };
      const detail =
        e.resourceType === 'RegulatoryEvent'
          ? {
              event_id: e.eventId,
              programs: e.programs,
              event_kind: e.eventKind,
              issued_at: e.issuedAt,
              effective_at: e.effectiveAt,
              ...(e.federalRuleId ? { federal_rule_id: e.federalRuleId } : {}),
              ...(e.sourceUrl ? { source_url: e.sourceUrl } : {}),
            }
          : {
              rule_id: e.ruleId,
              program: e.program,
              subject: e.subject,
              ...(e.payerId ? { payer_id: e.payerId } : {}),
              source_url: e.sourceUrl,
              ...(e.before ? { before: factsOut(e.before) } : {}),
              ...(e.after ? { after: factsOut(e.after) } : {}),
              changes: describeFacts(e.before, e.after),
            };
      return { ...item, _prauth: { ...common, ...detail } };
    }),
  };
}

function factsOut(f: RuleFacts): Record<string, unknown> {
  return {
    pa_required: f.paRequired, pa_type: f.paType, source_url: f.sourceUrl, last_verified: f.lastVerified, status: f.status,
    ...(f.notCovered ? { not_covered: true } : {}),
    ...(f.appliesTo ? { applies_to: f.appliesTo } : {}),
  };
}
