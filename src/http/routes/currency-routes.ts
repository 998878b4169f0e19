// Currency: the change feed (Atom and JSON twin), notify-when-ready and its unsubscribe link, staleness and the
// ingest run history. Handlers parse, call one service, project.
import type { IncomingHttpHeaders } from 'node:http';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, isChangeId, renderAtom, renderJsonFeed, type FeedPage, type FeedQuery } from '../../services/change-feed.js';
import { badRequest } from '../../domain/api-error.js';
import {
  AtomFeedResponse,
  IngestHistoryResponse,
  JsonFeedResponse,
  NotifyAccepted,
  StalenessResponse,
  UnsubscribeResponse,
} from '../openapi-currency-schemas.js';
import { programParam, stateParam } from '../openapi-params.js';
import { ErrorBody, RateLimitError } from '../openapi-schemas.js';
import { parseProgram, parseState, single } from '../params.js';
import type { AppDeps } from '../../api/app-deps.js';
import type { HttpResult, RequestContext, RouteDef } from '../../api/route.js';
import { tooManyRequests } from '../../services/access-gate.js';
import { assertWatchable, parseNotifyBody } from '../../services/notify-request.js';
import { stalenessReport, DEFAULT_STALE_DAYS } from '../../services/staleness.js';
import { publicBaseOf } from '../base-url.js';

/** Cached like the manifest (spec 4.3): the feed is public and changes at most once per ingest. */
export const FEED_CACHE = 'public, max-age=300, s-maxage=3600, stale-while-revalidate=86400';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** Absolute base for links: PUBLIC_BASE_URL, else the request's Host (validated), else localhost. */
/** GET (the link in every message) and the RFC 8058 one-click POST: the same act. */
async function unsubscribe(ctx: RequestContext, deps: AppDeps): Promise<HttpResult> {
  const token = single(ctx.query, 'token');
  if (!token) throw badRequest("Missing required parameter 'token'", 'missing_parameter');
  const id = await deps.notify.unsubscribe(token);
  if (!id) throw badRequest('Invalid unsubscribe token', 'invalid_parameter');
  return { status: 200, body: { unsubscribed: true, id } };
}
const TOKEN_PARAMETER = { name: 'token', in: 'query', required: true, schema: { type: 'string' } } as const;
const BAD_TOKEN = { description: 'Missing or invalid token', schema: ErrorBody };

/**
 * The base of links in an answer to this request: PUBLIC_BASE_URL, else the scheme this server speaks and the request's
 * Host when it is a well-formed host (links in messages sent later never come from here: see messageBaseUrl).
 */
export function baseUrlOf(deps: AppDeps, headers: IncomingHttpHeaders): string {
  const host = typeof headers.host === 'string' && HOST.test(headers.host) ? headers.host : 'localhost';
  return publicBaseOf({ host }, deps.config);
}

export function parseFeedQuery(q: URLSearchParams): { query: FeedQuery; filters: URLSearchParams } {
  const filters = new URLSearchParams();
  for (const name of ['state', 'program', 'since', 'after', 'limit']) {
    if (q.has(name) && single(q, name) === undefined) throw badRequest(`Parameter '${name}' is empty: give a value or leave it out`, 'invalid_parameter', name);
  }
  const rawState = single(q, 'state');
  const rawProgram = single(q, 'program');
  const rawSince = single(q, 'since');
  const rawAfter = single(q, 'after');
  const rawLimit = single(q, 'limit');
  const query: FeedQuery = { limit: FEED_DEFAULT_LIMIT };
  if (rawState !== undefined || q.has('state')) {
    query.state = parseState(rawState ?? '');
    filters.set('state', query.state);
  }
  if (rawProgram !== undefined) {
    query.program = parseProgram(rawProgram);
    filters.set('program', query.program);
  }
  if (rawSince !== undefined) {
    const d = new Date(rawSince);
    if (!ISO_DATE.test(rawSince) || Number.isNaN(d.getTime())) {
      throw badRequest(`Invalid since '${rawSince.slice(0, 40)}': expected an ISO 8601 date or date-time such as 2026-11-01 or 2026-11-01T00:00:00Z`);
    }
    query.since = d;
    filters.set('since', rawSince);
  }
  if (rawLimit !== undefined) {
    const n = Number(rawLimit);
    if (!/^\d{1,4}$/.test(rawLimit) || n < 1 || n > FEED_MAX_LIMIT) throw badRequest(`Invalid limit '${rawLimit.slice(0, 10)}': expected an integer from 1 to ${FEED_MAX_LIMIT}`);
    query.limit = n;
    filters.set('limit', String(n));
  }
  if (rawAfter !== undefined) {
    if (!isChangeId(rawAfter)) throw badRequest(`Invalid after '${rawAfter.slice(0, 40)}': use the next link of the previous page`);
    query.after = rawAfter;
  }
  return { query, filters };
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** RFC 9110 13.1: If-None-Match wins over If-Modified-Since; weak comparison for If-None-Match. */
export function notModified(headers: IncomingHttpHeaders, etag: string, lastModified: Date | undefined): boolean {
  const inm = header(headers, 'if-none-match');
  if (inm !== undefined) {
    const strip = (t: string): string => t.trim().replace(/^W\//, '');
    return inm.split(',').some((t) => t.trim() === '*' || strip(t) === strip(etag));
  }
  const ims = header(headers, 'if-modified-since');
  if (ims && lastModified) {
    const since = Date.parse(ims);
    if (!Number.isNaN(since)) return Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

async function feedResult(ctx: RequestContext, deps: AppDeps, format: 'atom' | 'json'): Promise<HttpResult> {
  const { query, filters } = parseFeedQuery(ctx.query);
  const page: FeedPage = await deps.changeFeed.page(query);
  const etag = `"${format}-${page.etag.slice(1)}`;
  const validators: Record<string, string> = { ETag: etag, ...(page.lastModified ? { 'Last-Modified': page.lastModified.toUTCString() } : {}) };
  if (notModified(ctx.headers, etag, page.lastModified)) return { status: 304, body: undefined, headers: validators };
  const render = { base: baseUrlOf(deps, ctx.headers), filterQuery: filters, now: ctx.now };
  if (format === 'atom') {
    return { status: 200, body: { raw: renderAtom(page, render, query.after) }, headers: { ...validators, 'Content-Type': 'application/atom+xml; charset=utf-8' } };
  }
  return { status: 200, body: renderJsonFeed(page, render, query.after), headers: { ...validators, 'Content-Type': 'application/feed+json; charset=utf-8' } };
}

const feedParams = [
  { ...stateParam(false), description: 'Only changes in this state (federal events, jurisdiction US, are included for every state)' },
  { ...programParam, required: false, description: 'Only changes for this program (aliases accepted)' },
  { name: 'since', in: 'query', required: false, description: 'Only changes recorded at or after this ISO 8601 date or date-time', schema: { type: 'string' } },
  { name: 'limit', in: 'query', required: false, description: `Entries per page, 1 to ${FEED_MAX_LIMIT} (default ${FEED_DEFAULT_LIMIT})`, schema: { type: 'integer', minimum: 1, maximum: FEED_MAX_LIMIT } },
  { name: 'after', in: 'query', required: false, description: 'Paging cursor: the next link of the previous page carries it (RFC 5005)', schema: { type: 'string', pattern: '^\\d{1,12}-\\d{6}$' } },
  { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
  { name: 'If-Modified-Since', in: 'header', required: false, schema: { type: 'string' } },
];

const validatorHeaders = {
  ETag: { description: 'Strong validator of this page', schema: { type: 'string' } },
  'Last-Modified': { description: 'When the newest matching change was recorded', schema: { type: 'string' } },
};

function feedRoute(format: 'atom' | 'json'): RouteDef {
  return {
    id: format === 'atom' ? 'watch-feed-atom' : 'watch-feed-json',
    method: 'GET',
    path: format === 'atom' ? '/v1/watch/feed.xml' : '/v1/watch/feed.json',
    auth: 'none',
    surface: 'json',
    cache: FEED_CACHE,
    handle: (ctx, deps) => feedResult(ctx, deps, format),
    openapi: {
      summary: format === 'atom' ? 'Change feed (Atom 1.0, RFC 5005 paged)' : 'Change feed, JSON Feed 1.1 twin of /v1/watch/feed.xml',
      description:
        'One entry per rule added, changed or retired and per regulatory event, newest first, saying what changed (PA required, PA type, source, last verified: old -> new) ' +
        'with links to the lookup and the source. Conditional requests (If-None-Match, If-Modified-Since) answer 304.',
      tags: ['currency'],
      parameters: feedParams,
      responses: {
        '200': {
          description: 'The feed page',
          contentType: format === 'atom' ? 'application/atom+xml' : 'application/feed+json',
          schema: format === 'atom' ? AtomFeedResponse : JsonFeedResponse,
          headers: validatorHeaders,
        },
        '304': { description: 'Not modified since the validator the client sent', headers: validatorHeaders },
        '400': { description: 'Invalid state, program, since, limit or after', schema: ErrorBody },
      },
    },
  };
}

export const currencyRoutes: RouteDef[] = [
  feedRoute('atom'),
  feedRoute('json'),
  {
    id: 'notify-when-ready',
    method: 'POST',
    path: '/v1/notify-when-ready',
    auth: 'none',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const request = parseNotifyBody(ctx.body);
      assertWatchable(deps.corpus.current, request);
      const outcome = await deps.notify.register(request, ctx.clientAddress, baseUrlOf(deps, ctx.headers));
      if (!outcome.ok) throw tooManyRequests(outcome.policy, outcome.decision, outcome.what);
      return { status: 200, body: outcome.body };
    },
    openapi: {
      summary: 'Register to be told when a coverage gap is filled (spec 4.2)',
      description:
        'Stored durably before the 200. The same contact watching the same combination collapses into the first request. ' +
        'When an ingest adds a verified rule for the combination, one message goes to the contact (sms by default, or email), with an unsubscribe link. ' +
        'Limited per client address and per contact (429).',
      tags: ['currency'],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['state', 'subject', 'contact'],
              properties: {
                state: { type: 'string', pattern: '^[A-Za-z]{2}$' },
                subject: { type: 'string', description: 'A drug_class_code (kind drug) or service_category (kind service)' },
                contact: { type: 'string', description: 'An e-mail address (channel email) or an E.164 phone number (channel sms)' },
                program: { type: 'string', enum: [...(programParam.schema.enum as string[])] },
                kind: { type: 'string', enum: ['drug', 'service'], default: 'drug' },
                channel: { type: 'string', enum: ['sms', 'email'], default: 'sms' },
              },
            },
          },
        },
      },
      responses: {
        '200': { description: 'Recorded (or already recorded, or already available)', schema: NotifyAccepted },
        '400': { description: 'A field is missing or invalid; the message names it', schema: ErrorBody },
        '429': { description: 'Too many requests from this address or for this contact', schema: RateLimitError, headers: { 'Retry-After': { schema: { type: 'integer' } } } },
      },
    },
  },
  {
    id: 'notify-unsubscribe',
    method: 'GET',
    path: '/v1/notify/unsubscribe',
    auth: 'none',
    surface: 'json',
    cache: 'no-store',
    handle: unsubscribe,
    openapi: {
      summary: 'Stop a notify-when-ready watch (the link in every message)',
      tags: ['currency'],
      parameters: [TOKEN_PARAMETER],
      responses: {
        '200': { description: 'Unsubscribed (repeating the link is harmless)', schema: UnsubscribeResponse },
        '400': BAD_TOKEN,
      },
    },
  },
  {
    // RFC 8058 one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` to the List-Unsubscribe address.
    id: 'notify-unsubscribe-one-click',
    method: 'POST',
    path: '/v1/notify/unsubscribe',
    auth: 'none',
    bodyType: 'form',
    surface: 'json',
    cache: 'no-store',
    handle: unsubscribe,
    openapi: {
      summary: 'One-click unsubscribe (RFC 8058): what mail clients send for List-Unsubscribe-Post',
      tags: ['currency'],
      parameters: [TOKEN_PARAMETER],
      requestBody: { required: false, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] } } } } } },
      responses: {
        '200': { description: 'Unsubscribed (repeating it is harmless)', schema: UnsubscribeResponse },
        '400': BAD_TOKEN,
      },
    },
  },
  {
    id: 'admin-staleness',
    method: 'GET',
    path: '/v1/admin/staleness',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    handle(ctx, deps) {
      const rawDays = single(ctx.query, 'days');
      const rawLimit = single(ctx.query, 'limit');
      const days = rawDays === undefined ? deps.config.notify.staleDays : Number(rawDays);
      if (rawDays !== undefined && (!/^\d{1,5}$/.test(rawDays) || days > 36500)) throw badRequest(`Invalid days '${rawDays.slice(0, 10)}': expected an integer from 0 to 36500`);
      const limit = rawLimit === undefined ? 100 : Number(rawLimit);
      if (rawLimit !== undefined && (!/^\d{1,5}$/.test(rawLimit) || limit < 1 || limit > 10000)) throw badRequest(`Invalid limit '${rawLimit.slice(0, 10)}': expected 1 to 10000`);
      const state = single(ctx.query, 'state');
      const program = single(ctx.query, 'program');
      return {
        status: 200,
        body: stalenessReport(deps.corpus.current, ctx.now, {
          days,
          limit,
          // Present but empty (?state=) is a 400, as on the feed: parse whatever was sent.
          ...(state !== undefined || ctx.query.has('state') ? { state: parseState(state ?? '') } : {}),
          ...(program !== undefined || ctx.query.has('program') ? { program: parseProgram(program ?? '') } : {}),
        }),
      };
    },
    openapi: {
      summary: 'Rules whose last_verified is older than a threshold, by state and program',
      tags: ['admin', 'currency'],
      parameters: [
        { name: 'days', in: 'query', required: false, description: `Threshold in days (default STALE_DAYS, ${DEFAULT_STALE_DAYS})`, schema: { type: 'integer', minimum: 0 } },
        { name: 'limit', in: 'query', required: false, description: 'Most stale rules listed (default 100)', schema: { type: 'integer', minimum: 1, maximum: 10000 } },
        stateParam(false),
        { ...programParam, required: false },
      ],
      responses: {
        '200': { description: 'Staleness report', schema: StalenessResponse },
        '400': { description: 'Invalid parameter', schema: ErrorBody },
        '401': { description: 'Missing or invalid credentials', schema: ErrorBody },
        '403': { description: 'Not an admin key', schema: ErrorBody },
      },
    },
  },
  {
    id: 'admin-ingest-history',
    method: 'GET',
    path: '/v1/admin/ingest/history',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const rawLimit = single(ctx.query, 'limit');
      const limit = rawLimit === undefined ? 20 : Number(rawLimit);
      if (rawLimit !== undefined && (!/^\d{1,4}$/.test(rawLimit) || limit < 1 || limit > 1000)) throw badRequest(`Invalid limit '${rawLimit.slice(0, 10)}': expected 1 to 1000`);
      return { status: 200, body: { runs: await deps.ingestRuns.history(limit) } };
    },
    openapi: {
      summary: 'Stored reports of recent ingest runs (scheduled, admin, CLI), newest first',
      tags: ['admin', 'currency'],
      parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } }],
      responses: {
        '200': { description: 'Runs', schema: IngestHistoryResponse },
        '400': { description: 'Invalid limit', schema: ErrorBody },
        '401': { description: 'Missing or invalid credentials', schema: ErrorBody },
        '403': { description: 'Not an admin key', schema: ErrorBody },
      },
    },
  },
];
