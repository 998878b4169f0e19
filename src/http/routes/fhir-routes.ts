// Endpoints 18-21 and the DTR $questionnaire-package: RouteDefs generated from the FHIR registry.
import { isFailure, type Failure } from '../../fhir/outcome.js';
import { FHIR_DECLS, type FhirDecl, type FhirOperationDecl, type FhirPathDecl, type OpEnv, type OpResult } from '../../fhir/registry.js';
import { INTERFACE_VERSION } from '../../services/manifest.js';
import { pasCaller } from '../pas-caller.js';
import { ApiError, badRequest } from '../api-error.js';
import type { AppDeps, HttpResult, OpenApiOperation, RequestContext, RouteDef } from '../route.js';

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
  return deps.config.publicBaseUrl ?? `http://${ctx.headers.host ?? 'localhost'}`;
}

export const opEnv = (ctx: RequestContext, deps: AppDeps): OpEnv => ({
  model: deps.corpus.current,
  base: baseOf(ctx, deps),
  now: ctx.now,
  softwareVersion: INTERFACE_VERSION,
  pas: deps.pas,
  subscriptions: deps.subscriptions,
  caller: pasCaller(ctx),
});

export const toApiError = (f: Failure): ApiError => new ApiError(f.status, f.code, f.message, {}, {}, f.expression);

/** Scope first (a 403 must not reveal whether a rule exists), then the failure or the resource. */
export async function answer(ctx: RequestContext, pending: OpResult<unknown> | Promise<OpResult<unknown>>): Promise<HttpResult> {
  const out = await pending;
  if (out.scope) ctx.authorize(out.scope);
  if (isFailure(out)) throw toApiError(out);
  return { status: out.status ?? 200, body: out.body, ...(out.headers ? { headers: out.headers } : {}) };
}

const OK: Record<string, string> = {
  'fhir-metadata': 'CapabilityStatement',
  'fhir-formulary': 'Bundle',
  'fhir-dtr-questionnaire': 'Questionnaire',
  'fhir-questionnaire-package': 'Parameters',
  'fhir-claim-submit': 'Bundle',
  'fhir-claim-inquire': 'Parameters',
  'fhir-claimresponse-read': 'ClaimResponse',
  'fhir-claimresponse-vread': 'ClaimResponse',
  'fhir-subscription-create': 'Subscription',
  'fhir-subscription-read': 'Subscription',
  'fhir-subscription-status': 'Bundle',
};

function errorResponses(d: FhirDecl): OpenApiOperation['responses'] {
  const oo = (description: string) => ({ description, schema: OperationOutcomeSchema });
  if (d.auth === 'none') return {};
  return {
    '400': oo('Invalid request: OperationOutcome whose issue.expression points at the bad element'),
    '401': oo('Missing or invalid x-api-key'),
    '403': oo('State, program or endpoint outside the key subscription'),
    ...(d.kind === 'path' || d.id === 'fhir-questionnaire-package' ? { '404': oo(d.id.startsWith('fhir-subscription') || d.id.startsWith('fhir-claimresponse') ? 'Not found among your own resources' : 'No verified rule (scope gap)') } : {}),
    '415': oo('Body is not application/fhir+json'),
    '429': oo('Rate limit exceeded'),
  };
}

/** Stateful reads (PAS responses, subscriptions) change between calls: never cached. */
const STATEFUL = /^fhir-(claimresponse|subscription)-/;

function pathRoute(d: FhirPathDecl): RouteDef {
  const method = d.method ?? 'GET';
  return {
    id: d.id,
    method,
    path: d.path,
    auth: d.auth,
    ...(d.auth === 'key' ? { group: 'fhir' as const } : {}),
    surface: 'fhir',
    cache: STATEFUL.test(d.id) ? 'no-store' : d.auth === 'none' ? 'public, max-age=300, s-maxage=3600' : 'private, max-age=300',
    handle: (ctx, deps) => answer(ctx, d.run({ params: ctx.params, query: ctx.query, body: method === 'POST' ? ctx.body : undefined }, opEnv(ctx, deps))),
    openapi: {
      summary: d.summary,
      description: d.description,
      tags: ['fhir'],
      parameters: d.pathParams.map((p) => ({ name: p.name, in: 'path', required: true, description: p.description, schema: { type: 'string' } })),
      ...(method === 'POST' ? { requestBody: { required: true, content: { 'application/fhir+json': { schema: { type: 'object', required: ['resourceType'] } } } } } : {}),
      responses: {
        [method === 'POST' ? '201' : '200']: { description: `FHIR R4 ${OK[d.id]}`, schema: resourceSchema(OK[d.id]!) },
        ...errorResponses(d),
        ...(method === 'POST' ? { '415': { description: 'Body is not application/fhir+json', schema: OperationOutcomeSchema } } : {}),
      },
    },
  };
}

/** One route per resource type, POST /v1/{type}/{op}; `op` is one of the type's registered operations. */
function operationRoute(resourceType: string, ops: FhirOperationDecl[]): RouteDef {
  const names = ops.map((o) => `$${o.name}`);
  return {
    id: `fhir-${resourceType.toLowerCase()}-operation`,
    method: 'POST',
    path: `/v1/${resourceType}/:op`,
    auth: 'key',
    group: 'fhir',
    surface: 'fhir',
    cache: 'no-store',
    handle(ctx, deps) {
      const op = ops.find((o) => `$${o.name}` === ctx.params.op);
      if (!op) throw badRequest(`Operation '${(ctx.params.op ?? '').slice(0, 40)}' is not supported on ${resourceType}; supported: ${names.join(', ')}`, 'invalid_parameter', 'op');
      return answer(ctx, op.run({ params: ctx.params, query: ctx.query, body: ctx.body }, opEnv(ctx, deps)));
    },
    openapi: {
      summary: ops.map((o) => o.summary).join('; '),
      description: ops.map((o) => `**$${o.name}** (${o.definition}): ${o.description}`).join('\n\n'),
      tags: ['fhir'],
      parameters: [
        { name: 'op', in: 'path', required: true, description: 'The operation, with its leading dollar sign', schema: { type: 'string', enum: names } },
        ...[...new Map(ops.flatMap((o) => o.queryParams).map((q) => [q.name, q])).values()].map((q) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: { type: 'string' } })),
      ],
      requestBody: { required: true, content: { 'application/fhir+json': { schema: { type: 'object', required: ['resourceType'] } } } },
      responses: {
        '200': { description: ops.map((o) => `$${o.name}: ${OK[o.id]}`).join('; '), schema: { type: 'object', required: ['resourceType'], properties: { resourceType: { enum: [...new Set(ops.map((o) => OK[o.id]))] } } } },
        ...errorResponses(ops[0]!),
        ...(ops.some((o) => o.id === 'fhir-questionnaire-package') ? { '404': { description: 'No questionnaire applies', schema: OperationOutcomeSchema } } : {}),
      },
    },
  };
}

export function fhirRoutes(): RouteDef[] {
  const byType = new Map<string, FhirOperationDecl[]>();
  for (const d of FHIR_DECLS) if (d.kind === 'operation') byType.set(d.resourceType, [...(byType.get(d.resourceType) ?? []), d]);
  return [
    ...FHIR_DECLS.filter((d): d is FhirPathDecl => d.kind === 'path').map(pathRoute),
    ...[...byType].map(([type, ops]) => operationRoute(type, ops)),
  ];
}
