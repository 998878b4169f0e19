// Endpoints 1 and 2: single-state lookup and its deprecated alias.
import { gapDetails, lookupBodyBytes, lookupRule, toQueryEcho, type LookupQuery } from '../../services/lookup.js';
import type { ReadModel } from '../../corpus/read-model.js';
import { ApiError } from '../../domain/api-error.js';
import { namedProgram, namedState } from '../../domain/named-scope.js';
import { categoryAlias, drugClassAlias, drugParam, programParam, serviceParam, stateParam } from '../openapi-params.js';
import { ErrorBody, LookupResponse, RateLimitError, ScopeGapError } from '../openapi-schemas.js';
import { namedInQuery, requireProgram, requireState, requireSubject } from '../params.js';
import type { AppDeps } from '../../api/app-deps.js';
import type { HttpResult, RequestContext, RouteDef, ScopeRequest } from '../../api/route.js';

export function scopeGap(model: ReadModel, q: LookupQuery): ApiError {
  const details = gapDetails(model, q);
  return new ApiError(
    404,
    'scope_gap',
    'outside_program' in details
      ? `No rule for ${q.state} ${q.program} ${q.subject.kind} '${q.subject.code}': none will exist (see outside_program)`
      : `No verified rule for ${q.state} ${q.program} ${q.subject.kind} '${q.subject.code}' yet`,
    {
      scope_gap: true,
      state: q.state,
      program: q.program,
      query: toQueryEcho(q.subject),
      ...details,
    },
  );
}

export function parseLookupQuery(ctx: RequestContext): LookupQuery {
  return { state: requireState(ctx.query), program: requireProgram(ctx.query), subject: requireSubject(ctx.query) };
}

const LOOKUP_SCOPE = { states: ['state'], programs: ['program'] } as const;

/** What a lookup names: one state and one program is read directly (every call), anything else as any query is. */
function lookupScope(ctx: RequestContext): ScopeRequest {
  const states = ctx.query.getAll('state');
  const programs = ctx.query.getAll('program');
  if (states.length !== 1 || programs.length !== 1 || states[0]!.includes(',')) return namedInQuery(ctx.query, LOOKUP_SCOPE);
  const state = namedState(states[0]);
  const program = namedProgram(programs[0]);
  return { states: state ? [state] : [], programs: program ? [program] : [] };
}

function lookup(ctx: RequestContext, deps: AppDeps): HttpResult {
  const q = parseLookupQuery(ctx);
  const model = deps.corpus.current;
  const out = lookupRule(model, q);
  if (out.kind === 'scope_gap') throw scopeGap(model, q);
  return { status: 200, body: { raw: lookupBodyBytes(out.prefixBytes, ctx.now) } };
}

const lookupOpenApi = (deprecated: boolean) => ({
  summary: deprecated ? 'Deprecated alias of /v1/pauth-lookup' : 'Prior-authorization rule for one state, program and drug class or service category',
  description:
    'Exactly one of drug or service. Answers the verified rule with its citation (source_url, last_verified) and the next steps in order: gather documentation, submit, expected turnaround. A combination without a verified rule is a 404 whose body has `scope_gap: true`.',
  tags: ['lookup'],
  parameters: [stateParam(), programParam, drugParam, serviceParam, drugClassAlias, categoryAlias],
  responses: {
    '200': { description: 'The rule', schema: LookupResponse },
    '400': { description: 'Invalid parameters (both or neither of drug and service, bad state or program)', schema: ErrorBody },
    '401': { description: 'Missing or invalid x-api-key', schema: ErrorBody },
    '403': { description: 'State or program outside the key subscription', schema: ErrorBody },
    '404': { description: 'No verified rule (scope_gap)', schema: ScopeGapError },
    '429': { description: 'Rate limit exceeded', schema: RateLimitError },
  },
});

export function lookupRoutes(deps: Pick<AppDeps, 'config'>): RouteDef[] {
  const { paLookupDeprecatedAt, paLookupSunsetAt } = deps.config;
  const deprecationHeaders = {
    // RFC 9745: a Structured Field Date; RFC 8594: an HTTP-date.
    Deprecation: `@${Math.floor(paLookupDeprecatedAt.getTime() / 1000)}`,
    Sunset: paLookupSunsetAt.toUTCString(),
    Link: '</v1/pauth-lookup>; rel="successor-version"',
  };
  return [
    {
      id: 'pauth-lookup',
      method: 'GET',
      path: '/v1/pauth-lookup',
      auth: 'key',
      group: 'lookup',
      surface: 'json',
      cache: 'private, max-age=3600',
      scope: lookupScope,
      handle: lookup,
      openapi: lookupOpenApi(false),
    },
    {
      id: 'pa-lookup',
      method: 'GET',
      path: '/v1/pa-lookup',
      auth: 'key',
      group: 'lookup',
      surface: 'json',
      cache: 'private, max-age=3600',
      deprecated: true,
      // On every response, 401 and 429 included: the pipeline adds them whatever answers.
      headers: deprecationHeaders,
      scope: lookupScope,
      handle: lookup,
      openapi: lookupOpenApi(true),
    },
  ];
}
