// Endpoints 7, 8, 9: public discovery (no key). Cache lifetimes per spec 4.3 rule 7. Plus the coverage grid the
// explorer page draws (additive, public like lookup-options and the manifest it refines).
import { badRequest } from '../../domain/api-error.js';
import { coverageGrid } from '../../services/coverage-grid.js';
import { lookupOptions } from '../../services/lookup-options.js';
import { buildManifest, type EndpointLines } from '../../services/manifest.js';
import { listStates, stateDetail } from '../../services/states.js';
import { programParam, stateParam } from '../openapi-params.js';
import { CoverageGridResponse, ErrorBody, LookupOptionsResponse, ManifestResponse, StateDetailResponse, StatesListResponse } from '../openapi-schemas.js';
import { requireProgram, requireState, single, parseState } from '../params.js';
import type { RouteDef } from '../../api/route.js';

const AUTH_WORDS: Readonly<Record<RouteDef['auth'], string>> = { none: '', key: 'key', key_or_demo: 'key or demo session', admin: 'admin' };

/** The manifest's endpoint list, one line per route of the table: `METHOD /path: summary (who may call)`. */
export function endpointLines(routes: readonly RouteDef[]): EndpointLines {
  return Object.fromEntries(routes.map((r) => {
    const who = [AUTH_WORDS[r.auth], r.addOn ? `${r.addOn} add-on` : '', r.deprecated ? 'deprecated' : ''].filter(Boolean).join(', ');
    return [r.id, `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}: ${r.openapi.summary}${who ? ` (${who})` : ''}`];
  }));
}

export function discoveryRoutes(all: () => readonly RouteDef[]): RouteDef[] {
  let lines: EndpointLines | undefined;
  return [
    {
      id: 'lookup-options',
      method: 'GET',
      path: '/v1/lookup-options',
      auth: 'none',
      surface: 'json',
      cache: 'public, max-age=300, s-maxage=300',
      handle(ctx, deps) {
        const state = requireState(ctx.query);
        const program = requireProgram(ctx.query);
        return { status: 200, body: lookupOptions(deps.corpus.current, state, program) };
      },
      openapi: {
        summary: 'Drug classes and service categories that have published rules for a state and program',
        tags: ['discovery'],
        parameters: [stateParam(), programParam],
        responses: {
          '200': { description: 'Options (either array may be empty)', schema: LookupOptionsResponse },
          '400': { description: 'Missing or invalid state or program', schema: ErrorBody },
        },
      },
    },
    {
      id: 'coverage-grid',
      method: 'GET',
      path: '/v1/coverage',
      auth: 'none',
      surface: 'json',
      cache: 'public, max-age=300, s-maxage=300',
      handle(ctx, deps) {
        return { status: 200, body: coverageGrid(deps.corpus.current, requireProgram(ctx.query)) };
      },
      openapi: {
        summary: 'Coverage grid for one program: each jurisdiction x subject as verified, sample (only when sample rules are served) or gap',
        description:
          'What the coverage explorer (GET /) draws. Program-level rules only; the verified counts equal the manifest\'s coverage.verified.by_state and by_program. ' +
          'No rule content: a cell\'s rule is read with /v1/pauth-lookup and a key.',
        tags: ['discovery'],
        parameters: [programParam],
        responses: {
          '200': { description: 'The grid', schema: CoverageGridResponse },
          '400': { description: 'Missing or invalid program', schema: ErrorBody },
        },
      },
    },
    {
      id: 'manifest',
      method: 'GET',
      path: '/v1/manifest',
      auth: 'none',
      surface: 'json',
      cache: 'public, max-age=300, s-maxage=3600, stale-while-revalidate=86400',
      handle(_ctx, deps) {
        lines ??= endpointLines(all());
        return { status: 200, body: buildManifest(deps.corpus.current, deps.config.publicBaseUrl, lines, deps.now()) };
      },
      openapi: {
        summary: 'Service manifest: dataset counts and version, coverage, federal mandates, endpoints, docs',
        tags: ['discovery'],
        responses: { '200': { description: 'The manifest', schema: ManifestResponse } },
      },
    },
    {
      id: 'states',
      method: 'GET',
      path: '/v1/states',
      auth: 'none',
      surface: 'json',
      cache: 'public, max-age=300, s-maxage=3600',
      handle(ctx, deps) {
        // ?state= (present but empty) is a malformed detail request, not a request for the list.
        if (ctx.query.has('state') && !ctx.query.getAll('state').some((v) => v.trim() !== '')) {
          throw badRequest("Parameter 'state' is empty: give a USPS code such as TX, or omit it for the list", 'invalid_parameter');
        }
        const raw = single(ctx.query, 'state');
        if (raw === undefined) return { status: 200, body: listStates(deps.corpus.current) };
        return { status: 200, body: stateDetail(deps.corpus.current, parseState(raw)) };
      },
      openapi: {
        summary: 'All 51 jurisdictions with rule counts and policy flags, or one jurisdiction in detail with ?state=',
        tags: ['discovery'],
        parameters: [stateParam(false)],
        responses: {
          '200': { description: 'List form without state; detail form with state', schema: { oneOf: [StatesListResponse, StateDetailResponse] } },
          '400': { description: 'Invalid state code', schema: ErrorBody },
        },
      },
    },
  ];
}
