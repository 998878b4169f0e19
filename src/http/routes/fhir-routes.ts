// Endpoints 18-21 and the DTR $questionnaire-package: RouteDefs generated from the FHIR registry.
import { isFailure, type Failure } from '../../fhir/outcome.js';
import { isSubscribed } from '../../domain/principal.js';
import { isJurisdiction, isProgram } from '../../domain/vocabulary.js';
import { mergeScopes, namedScope } from '../../domain/named-scope.js';
import type { ExplicitHints } from '../../fhir/resolve/coverage-context.js';
import { FHIR_DECLS } from '../../api/registry.js';
import type { FhirDecl, FhirOperationDecl, FhirPathDecl, FhirResourceDecl, OpEnv, OpResult } from '../../api/decl-types.js';
import { smartNeedOf } from '../../api/smart.js';
import { INTERFACE_VERSION } from '../../services/manifest.js';
import { pasCaller } from '../pas-caller.js';
import { publicBaseOf } from '../base-url.js';
import { ApiError, badRequest } from '../../domain/api-error.js';
import type { AppDeps } from '../../api/app-deps.js';
import type { HttpResult, OpenApiOperation, RequestContext, RouteDef, ScopeRequest } from '../../api/route.js';
import { bodyOf, withExample } from '../openapi-examples.js';

const resourceSchema = (resourceType: string) => ({
  type: 'object',
  required: ['resourceType'],
  properties: { resourceType: { const: resourceType } },
});
const OperationOutcomeSchema = {
  type: 'object',
  required: ['resourceType', 'issue'],
  properties: { resourceType: { const: 'OperationOutcome' }, issue: { type: 'array', minItems: 1 } },
};

/** The public base address (config, else the request's Host), without /v1. */
export function baseOf(ctx: RequestContext, deps: AppDeps): string {
  return publicBaseOf(ctx.headers, deps.config);
}

/** The subscription's only state and only program (a subscription naming one of each answers for it when a request cannot). */
function subscriptionDefault(ctx: RequestContext): ExplicitHints {
  const p = isSubscribed(ctx.principal) ? ctx.principal : undefined;
  const only = (s: ReadonlySet<string> | null | undefined) => (s && s.size === 1 ? [...s][0] : undefined);
  const state = only(p?.states);
  const program = only(p?.programs);
  return { ...(state && isJurisdiction(state) ? { state } : {}), ...(program && isProgram(program) ? { program } : {}) };
}

export const opEnv = (ctx: RequestContext, deps: AppDeps): OpEnv => ({
  model: deps.corpus.current,
  base: baseOf(ctx, deps),
  now: ctx.now,
  softwareVersion: INTERFACE_VERSION,
  pas: deps.pas,
  subscriptions: deps.subscriptions,
  caller: { ...pasCaller(ctx), base: baseOf(ctx, deps) },
  cds: { ehr: deps.ehrFetch, ...(deps.config.dtrLaunchUrl ? { dtrLaunchUrl: deps.config.dtrLaunchUrl } : {}), subscriptionDefault: subscriptionDefault(ctx) },
  inScope(scope) {
    try {
      ctx.authorize(scope);
      return true;
    } catch {
      return false;
    }
  },
});

/** A declaration's effective auth: public when its config switch (e.g. FORMULARY_PUBLIC) is on. */
const authOf = (d: FhirDecl, deps: Pick<AppDeps, 'config'>): 'none' | 'key' => (d.publicWhen && deps.config[d.publicWhen] ? 'none' : d.auth);

export const toApiError = (f: Failure): ApiError => new ApiError(f.status, f.code, f.message, {}, {}, f.expression);

/**
 * The scope a FHIR request names in its address: path parameters {state}/{program}, or the optional ?state=&program=
 * hints, each valid value on its own. Authorized by the pipeline before the declaration runs; invalid values name
 * nothing and are left to the declaration's 400 (after the 403 of a valid one outside the subscription).
 */
export function addressScope(ctx: RequestContext): ScopeRequest {
  return namedScope({ states: [ctx.params.state, ctx.query.get('state')], programs: [ctx.params.program, ctx.query.get('program')] });
}

/** Scope first (a 403 must not reveal whether a rule exists), then the failure or the resource. */
export async function answer(ctx: RequestContext, pending: OpResult<unknown> | Promise<OpResult<unknown>>): Promise<HttpResult> {
  const out = await pending;
  if (out.scope) ctx.authorize(out.scope);
  if (isFailure(out)) throw toApiError(out);
  // The operation's own headers, then the version's (a create's Location gains its /_history/<vid>).
  const headers = { ...(out.headers ?? {}), ...versionHeaders(out.body, out.headers?.Location) };
  return { status: out.status ?? 200, body: out.body, ...(Object.keys(headers).length ? { headers } : {}) };
}

/**
 * A versioned resource's headers (R4 http.html#read, #create): `ETag: W/"<versionId>"`, and a create's Location with
 * `/_history/<versionId>`. Resources without meta.versionId (searches, Bundles, operation outputs) get none.
 */
function versionHeaders(body: unknown, location: string | undefined): Record<string, string> {
  const vid = (body as { resourceType?: unknown; meta?: { versionId?: unknown } } | undefined)?.meta?.versionId;
  if (typeof vid !== 'string' || !vid || (body as { resourceType?: unknown }).resourceType === 'Bundle') return {};
  return {
    ETag: `W/"${vid}"`,
    ...(location && !location.includes('/_history/') ? { Location: `${location}/_history/${encodeURIComponent(vid)}` } : {}),
  };
}

const OK: Record<string, string> = {
  'fhir-metadata': 'CapabilityStatement',
  'fhir-formulary': 'Bundle',
  'fhir-dtr-questionnaire': 'Questionnaire',
  'fhir-questionnaire-package': 'Parameters',
  'fhir-next-question': 'QuestionnaireResponse',
  'fhir-claim-submit': 'Bundle',
  'fhir-claim-inquire': 'Parameters',
  'fhir-claimresponse-read': 'ClaimResponse',
  'fhir-claimresponse-vread': 'ClaimResponse',
  'fhir-subscription-create': 'Subscription',
  'fhir-subscription-read': 'Subscription',
  'fhir-subscription-status': 'Bundle',
};

function errorResponses(d: FhirDecl, auth: 'none' | 'key' = d.auth): OpenApiOperation['responses'] {
  const oo = (description: string) => ({ description, schema: OperationOutcomeSchema });
  if (auth === 'none') return {};
  return {
    '400': oo('Invalid request: OperationOutcome whose issue.expression points at the bad element'),
    '401': oo('Missing or invalid credentials (x-api-key or bearer access token); WWW-Authenticate: Bearer'),
    '403': oo('State, program or endpoint outside the subscription, or SMART scopes that do not cover the request'),
    ...(d.kind === 'path' || d.id === 'fhir-questionnaire-package' ? { '404': oo(d.id.startsWith('fhir-subscription') || d.id.startsWith('fhir-claimresponse') ? 'Not found among your own resources' : 'No verified rule (scope gap)') } : {}),
    '415': oo('Body is not application/fhir+json'),
    '429': oo('Rate limit exceeded'),
  };
}

/** Stateful reads (PAS responses, subscriptions) change between calls: never cached. */
const STATEFUL = /^fhir-(claimresponse|subscription)-/;

function pathRoute(d: FhirPathDecl, deps: Pick<AppDeps, 'config'>): RouteDef {
  const auth = authOf(d, deps);
  const method = d.method ?? 'GET';
  return {
    id: d.id,
    method,
    path: d.path,
    auth,
    ...(auth === 'key' ? { group: 'fhir' as const } : {}),
    smart: () => smartNeedOf(d),
    ...(d.reads ? { reads: () => d.reads } : {}),
    surface: 'fhir',
    cache: STATEFUL.test(d.id) ? 'no-store' : auth === 'none' ? 'public, max-age=300, s-maxage=3600' : 'private, max-age=300',
    // PAS responses and subscriptions are owner-scoped (a caller sees only its own); their addresses name no state.
    ...(STATEFUL.test(d.id) ? {} : { scope: addressScope }),
    handle: (ctx, deps) => answer(ctx, d.run({ params: ctx.params, query: ctx.query, body: method === 'POST' ? ctx.body : undefined, warnings: ctx.bodyWarnings ?? [] }, opEnv(ctx, deps))),
    openapi: {
      summary: d.summary,
      description: d.description,
      tags: ['fhir'],
      parameters: d.pathParams.map((p) => withExample({ name: p.name, in: 'path', required: true, description: p.description, schema: { type: 'string' } }, d.example)),
      ...(method === 'POST' ? { requestBody: bodyOf('application/fhir+json', { type: 'object', required: ['resourceType'] }, d.example) } : {}),
      responses: {
        [method === 'POST' ? '201' : '200']: { description: `FHIR R4 ${OK[d.id]}`, schema: resourceSchema(OK[d.id]!), ...(d.links ? { links: d.links } : {}) },
        ...errorResponses(d, auth),
        ...(method === 'POST' ? { '415': { description: 'Body is not application/fhir+json', schema: OperationOutcomeSchema } } : {}),
      },
    },
  };
}

const FORM = 'application/x-www-form-urlencoded';
/** Result parameters every search route takes (documented in OpenAPI; not search parameters of the CapabilityStatement). */
export const RESULT_PARAMS: readonly { name: string; description: string }[] = [
  { name: '_count', description: 'Page size (default 50, at most 1000)' },
  { name: '_offset', description: 'Where the page starts (the next/previous links carry it)' },
  { name: '_include', description: 'Referenced resources to add (Type:param, or the bare param name)' },
];
/** `Prefer: handling=strict` (FHIR search: unknown parameters are an error instead of being ignored). */
const strictOf = (ctx: RequestContext): boolean => /(^|[;,\s])handling\s*=\s*strict\b/i.test(String(ctx.headers.prefer ?? ''));

/** GET [base]/{type}/{id}, GET [base]/{type}?... and POST [base]/{type}/_search for a read/search declaration. */
function resourceRoutes(d: FhirResourceDecl, deps: Pick<AppDeps, 'config'>): RouteDef[] {
  const auth = authOf(d, deps);
  const common = {
    auth,
    ...(auth === 'key' ? { group: 'fhir' as const } : {}),
    surface: 'fhir' as const,
    cache: auth === 'none' ? 'public, max-age=300, s-maxage=3600' : 'private, max-age=300',
  };
  const oo = (description: string) => ({ description, schema: OperationOutcomeSchema });
  const keyed: OpenApiOperation['responses'] = auth === 'key' ? { '401': oo('Missing or invalid credentials'), '403': oo('Outside the subscription'), '429': oo('Rate limit exceeded') } : {};
  const out: RouteDef[] = [];
  const search = d.search?.bind(d);
  if (search) {
    const run = (ctx: RequestContext, deps2: AppDeps, params: URLSearchParams) => {
      const env = opEnv(ctx, deps2);
      return answer(ctx, search({ params, strict: strictOf(ctx), selfBase: `${env.base}/v1/${d.resourceType}` }, env));
    };
    const parameters = [
      ...d.searchParams.map((p) => ({ name: p.name, in: 'query', required: false, description: p.documentation ?? `${p.type} search parameter`, schema: { type: 'string' } })),
      ...RESULT_PARAMS.filter((p) => p.name !== '_include' || d.searchInclude?.length).map((p) => ({ ...p, in: 'query', required: false, schema: { type: 'string' } })),
      { name: 'Prefer', in: 'header', required: false, description: '`handling=strict`: an unknown or unsupported parameter is a 400 instead of being ignored', schema: { type: 'string' } },
    ];
    // Read-after-search: the first match's id, read by the read route (when this type serves one).
    const readLink = d.read ? { read: { operationId: `${d.id}-read`, parameters: { id: '$response.body#/entry/0/resource/id' }, description: `Read the first ${d.resourceType} found` } } : undefined;
    const responses = {
      '200': { description: `searchset Bundle of ${d.resourceType}`, schema: resourceSchema('Bundle'), ...(readLink ? { links: readLink } : {}) },
      '400': oo('Invalid search parameter value, or an unknown parameter with Prefer: handling=strict'),
      ...keyed,
    };
    out.push({
      ...common,
      id: `${d.id}-search`,
      smart: () => smartNeedOf(d, 's'),
      method: 'GET',
      path: `/v1/${d.resourceType}`,
      handle: (ctx, deps2) => run(ctx, deps2, ctx.query),
      openapi: { summary: `Search ${d.resourceType}`, description: d.description, tags: ['fhir'], parameters, responses },
    });
    out.push({
      ...common,
      id: `${d.id}-search-post`,
      smart: () => smartNeedOf(d, 's'),
      method: 'POST',
      path: `/v1/${d.resourceType}/_search`,
      bodyType: 'form',
      cache: 'no-store',
      handle(ctx, deps2) {
        const params = new URLSearchParams(ctx.query);
        if (typeof ctx.body === 'string') for (const [k, v] of new URLSearchParams(ctx.body)) params.append(k, v);
        return run(ctx, deps2, params);
      },
      openapi: {
        summary: `Search ${d.resourceType} (POST)`,
        description: `The same search as GET /${d.resourceType}, parameters in an ${FORM} body (and/or the query string).`,
        tags: ['fhir'],
        requestBody: { required: false, content: { [FORM]: { schema: { type: 'object', properties: Object.fromEntries(d.searchParams.map((p) => [p.name, { type: 'string' }])) } } } },
        responses: { ...responses, '415': oo(`Body is not ${FORM}`) },
      },
    });
  }
  const read = d.read?.bind(d);
  if (read) {
    out.push({
      ...common,
      id: `${d.id}-read`,
      smart: () => smartNeedOf(d, 'r'),
      method: 'GET',
      path: `/v1/${d.resourceType}/:id`,
      handle: (ctx, deps2) => answer(ctx, read(ctx.params.id ?? '', opEnv(ctx, deps2))),
      openapi: {
        summary: `Read ${d.resourceType}`,
        description: d.description,
        tags: ['fhir'],
        parameters: [withExample({ name: 'id', in: 'path', required: true, description: 'Logical id', schema: { type: 'string' } }, d.example)],
        responses: { '200': { description: `FHIR R4 ${d.resourceType}`, schema: resourceSchema(d.resourceType) }, '404': oo('No such resource'), ...keyed },
      },
    });
  }
  return out;
}

/** One route per resource type, POST /v1/{type}/{op}; `op` is one of the type's registered operations. */
function operationRoute(resourceType: string, ops: FhirOperationDecl[]): RouteDef {
  const names = ops.map((o) => `$${o.name}`);
  // The first operation that gives an example is the one the document shows (its name is the `op` example).
  const shown = ops.find((o) => o.example);
  const example = shown ? { ...shown.example, params: { op: `$${shown.name}`, ...shown.example!.params } } : undefined;
  return {
    id: `fhir-${resourceType.toLowerCase()}-operation`,
    method: 'POST',
    path: `/v1/${resourceType}/:op`,
    // POST [base]/{type}/{id} (no $) is an instance this server reads but never writes: 405, Allow: GET.
    methodAllowed: (params) => (params.op ?? '').startsWith('$'),
    auth: 'key',
    group: 'fhir',
    surface: 'fhir',
    cache: 'no-store',
    // An unknown operation needs the strictest scope (create) so that a token learns nothing it could not do.
    smart: (params) => smartNeedOf(ops.find((o) => `$${o.name}` === params.op) ?? { ...ops[0]!, name: '' }),
    // What the address names, and what the operation's request names in its body (e.g. questionnaire canonicals).
    scope(ctx) {
      const op = ops.find((o) => `$${o.name}` === ctx.params.op);
      const own = op?.scope?.({ params: ctx.params, query: ctx.query, body: ctx.body });
      return own ? mergeScopes(addressScope(ctx), own) : addressScope(ctx);
    },
    reads: (params) => ops.find((o) => `$${o.name}` === params.op)?.reads,
    handle(ctx, deps) {
      const op = ops.find((o) => `$${o.name}` === ctx.params.op);
      if (!op) throw badRequest(`Operation '${(ctx.params.op ?? '').slice(0, 40)}' is not supported on ${resourceType}; supported: ${names.join(', ')}`, 'invalid_parameter', 'op');
      return answer(ctx, op.run({ params: ctx.params, query: ctx.query, body: ctx.body, warnings: ctx.bodyWarnings ?? [] }, opEnv(ctx, deps)));
    },
    openapi: {
      summary: ops.map((o) => o.summary).join('; '),
      description: ops.map((o) => `**$${o.name}** (${o.definition}): ${o.description}`).join('\n\n'),
      tags: ['fhir'],
      parameters: [
        withExample({ name: 'op', in: 'path', required: true, description: 'The operation, with its leading dollar sign', schema: { type: 'string', enum: names } }, example),
        ...[...new Map(ops.flatMap((o) => o.queryParams).map((q) => [q.name, q])).values()].map((q) => withExample({ name: q.name, in: 'query', required: false, description: q.description, schema: { type: 'string' } }, example)),
      ],
      requestBody: bodyOf('application/fhir+json', { type: 'object', required: ['resourceType'] }, example),
      responses: {
        '200': {
          description: ops.map((o) => `$${o.name}: ${OK[o.id]}`).join('; '),
          schema: { type: 'object', required: ['resourceType'], properties: { resourceType: { enum: [...new Set(ops.map((o) => OK[o.id]))] } } },
          ...(ops.some((o) => o.links) ? { links: Object.assign({}, ...ops.map((o) => o.links)) } : {}),
        },
        ...errorResponses(ops[0]!),
        ...(ops.some((o) => o.id === 'fhir-questionnaire-package') ? { '404': { description: 'No questionnaire applies', schema: OperationOutcomeSchema } } : {}),
      },
    },
  };
}

/** POST /v1/{type}/{id}/{op} for the type's operations declared `instance` (e.g. Questionnaire/{id}/$questionnaire-package). */
function instanceOperationRoute(resourceType: string, ops: FhirOperationDecl[]): RouteDef {
  const type = operationRoute(resourceType, ops);
  return {
    ...type,
    id: `fhir-${resourceType.toLowerCase()}-instance-operation`,
    path: `/v1/${resourceType}/:id/:op`,
    openapi: {
      ...type.openapi,
      summary: `${type.openapi.summary} (instance level)`,
      description: `The same operations on one ${resourceType} (its id in the path).\n\n${type.openapi.description}`,
      parameters: [
        withExample({ name: 'id', in: 'path', required: true, description: `The ${resourceType} id`, schema: { type: 'string' } }, ops.find((o) => o.example)?.example),
        ...(type.openapi.parameters ?? []),
      ],
    },
  };
}

export function fhirRoutes(deps: Pick<AppDeps, 'config'>): RouteDef[] {
  const byType = new Map<string, FhirOperationDecl[]>();
  for (const d of FHIR_DECLS) if (d.kind === 'operation') byType.set(d.resourceType, [...(byType.get(d.resourceType) ?? []), d]);
  return [
    ...FHIR_DECLS.filter((d): d is FhirPathDecl => d.kind === 'path').map((d) => pathRoute(d, deps)),
    // Before the operation routes: POST /{type}/_search must not be taken for an operation named '_search'.
    ...FHIR_DECLS.filter((d): d is FhirResourceDecl => d.kind === 'resource').flatMap((d) => resourceRoutes(d, deps)),
    ...[...byType].map(([type, ops]) => operationRoute(type, ops)),
    ...[...byType].filter(([, ops]) => ops.some((o) => o.instance)).map(([type, ops]) => instanceOperationRoute(type, ops.filter((o) => o.instance))),
  ];
}
