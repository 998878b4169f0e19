// Endpoints 16 and 17: CDS Hooks discovery and the CRD services, generated from the registry.
import type { CdsHookRequest } from '../../fhir/crd/types.js';
import { namedScope } from '../../domain/named-scope.js';
import { isFailure } from '../../fhir/outcome.js';
import { buildCdsDiscovery } from '../../api/registry.js';
import { CDS_SERVICES } from '../../api/cds-services.js';
import { parseHints, type CdsServiceDecl } from '../../api/decl-types.js';
import { badRequest } from '../../domain/api-error.js';
import { ErrorBody, RateLimitError } from '../openapi-schemas.js';
import { bodyOf } from '../openapi-examples.js';
import type { RequestContext, RouteDef, ScopeRequest } from '../../api/route.js';
import { answer, opEnv, toApiError } from './fhir-routes.js';
import { isRecord } from '../../domain/json.js';


/** The context element each hook asks about (CDS Hooks: required); without it there is nothing to answer. */
const ASKED: Readonly<Record<CdsServiceDecl['hook'], string>> = {
  'order-sign': 'draftOrders',
  'order-select': 'draftOrders',
  'order-dispatch': 'order',
  'appointment-book': 'appointments',
  'encounter-start': 'encounterId',
  'encounter-discharge': 'encounterId',
};

/**
 * A CDS Hooks request for this service's hook (the acceptance check has already refused wrong types and taken nulls
 * as absent); unknown context fields are left alone (and ignored). Refused: another hook, or no context element for
 * what the hook asks about.
 */
function parseHookRequest(body: unknown, s: CdsServiceDecl): CdsHookRequest {
  if (!isRecord(body)) throw badRequest('Send a CDS Hooks request object', 'invalid_body');
  if (body.hook !== s.hook) throw badRequest(`This service answers the '${s.hook}' hook (got '${String(body.hook).slice(0, 40)}')`, 'invalid_body', 'hook');
  if (typeof body.hookInstance !== 'string' || !body.hookInstance) throw badRequest('hookInstance is required', 'invalid_body', 'hookInstance');
  if (!isRecord(body.context)) throw badRequest('context is required', 'invalid_body', 'context');
  const asked = ASKED[s.hook];
  if (body.context[asked] === undefined || body.context[asked] === '') throw badRequest(`context.${asked} is required for the '${s.hook}' hook (what it asks about)`, 'invalid_body', `context.${asked}`);
  if (body.prefetch !== undefined && body.prefetch !== null && !isRecord(body.prefetch)) throw badRequest('prefetch must be an object', 'invalid_body', 'prefetch');
  if (body.extension !== undefined && !isRecord(body.extension)) throw badRequest('extension must be an object', 'invalid_body', 'extension');
  return body as unknown as CdsHookRequest;
}

const DiscoverySchema = {
  type: 'object',
  required: ['services'],
  properties: {
    services: {
      type: 'array',
      items: { type: 'object', required: ['hook', 'id', 'description'], properties: { hook: { type: 'string' }, id: { type: 'string' }, prefetch: { type: 'object', additionalProperties: { type: 'string' } } } },
    },
  },
};
const CardSchema = {
  type: 'object',
  required: ['uuid', 'summary', 'indicator', 'source'],
  properties: {
    uuid: { type: 'string' },
    summary: { type: 'string', maxLength: 139 },
    detail: { type: 'string' },
    indicator: { enum: ['info', 'warning', 'critical'] },
    source: { type: 'object', required: ['label', 'topic'], properties: { label: { type: 'string' }, url: { type: 'string' }, topic: { type: 'object', required: ['system', 'code'] } } },
    links: {
      type: 'array',
      items: { type: 'object', required: ['label', 'url', 'type'], properties: { label: { type: 'string' }, url: { type: 'string' }, type: { enum: ['absolute', 'smart'] }, appContext: { type: 'string' } } },
    },
  },
};
const CdsResponseSchema = {
  type: 'object',
  required: ['cards', 'systemActions'],
  properties: {
    cards: { type: 'array', items: CardSchema },
    systemActions: { type: 'array', items: { type: 'object', required: ['type', 'description', 'resource'], properties: { type: { const: 'update' }, resource: { type: 'object', required: ['resourceType'] } } } },
  },
};

/**
 * The explicit state/program of a hook call (?state=&program=, or the prauth.* request extension), authorized first:
 * each valid value on its own, so ?state=CA outside the subscription is a 403 even beside an invalid program.
 */
function hintScope(ctx: RequestContext): ScopeRequest {
  const ext = isRecord(ctx.body) && isRecord(ctx.body.extension) ? ctx.body.extension : {};
  return namedScope({ states: [ctx.query.get('state') ?? ext['prauth.state']], programs: [ctx.query.get('program') ?? ext['prauth.program']] });
}

function serviceRoute(s: CdsServiceDecl): RouteDef {
  return {
    id: `cds-${s.id}`,
    method: 'POST',
    path: `/v1/cds-services/${s.id}`,
    auth: 'key',
    group: 'cds',
    surface: 'cds',
    cache: 'no-store',
    reads: () => s.reads,
    scope: hintScope,
    handle(ctx, deps) {
      const req = parseHookRequest(ctx.body, s);
      const ext = req.extension ?? {};
      const hints = parseHints(ctx.query.get('state') ?? ext['prauth.state'], ctx.query.get('program') ?? ext['prauth.program']);
      if (isFailure(hints)) throw toApiError(hints);
      return answer(ctx, s.run(req, hints, opEnv(ctx, deps)));
    },
    openapi: {
      summary: `CRD coverage requirements (${s.hook})`,
      description:
        `CDS Hooks / CRD 2.0.1, hook \`${s.hook}\`: for each request resource resolved to a verified rule, one \`update\` system action carrying ext-coverage-information (CRD 2.0.1 shape) and a verdict card (with a SMART link to DTR when documentation is needed); Instructions cards for coverage limits; an External Reference card with the policy sources. A resource we cannot answer gets no coverage information and a card saying why. State and program come from ?state=&program=, the request extension \`prauth.state\` / \`prauth.program\`, the Coverage, Patient or payer Organization (prefetched, or read from \`fhirServer\` with \`fhirAuthorization\`), or the subscription's only state / program. A hint (query or extension) naming a state or program outside the subscription is a 403 before anything else is checked. Prefetch: ${Object.keys(s.prefetch).join(', ')}.`,
      tags: ['cds-hooks'],
      parameters: [
        { name: 'state', in: 'query', required: false, description: 'Optional member state', schema: { type: 'string' } },
        { name: 'program', in: 'query', required: false, description: 'Optional program', schema: { type: 'string' } },
      ],
      requestBody: bodyOf('application/json', { type: 'object', required: ['hook', 'hookInstance', 'context'] }, s.example),
      responses: {
        '200': { description: 'Cards and system actions', schema: CdsResponseSchema },
        '400': { description: 'Not a request for this hook, or invalid state/program', schema: ErrorBody },
        '401': { description: 'Missing or invalid credentials: x-api-key, or a bearer JWT signed by a registered EHR (aud = this URL)', schema: ErrorBody },
        '403': { description: 'State or program outside the key subscription', schema: ErrorBody },
        '429': { description: 'Rate limit exceeded', schema: RateLimitError },
      },
    },
  };
}

export function cdsRoutes(): RouteDef[] {
  return [
    {
      id: 'cds-discovery',
      method: 'GET',
      path: '/v1/cds-services',
      auth: 'none',
      surface: 'cds',
      cache: 'public, max-age=300, s-maxage=3600',
      handle: () => ({ status: 200, body: buildCdsDiscovery() }),
      openapi: {
        summary: 'CDS Hooks discovery: the CRD services',
        tags: ['cds-hooks'],
        responses: { '200': { description: 'Discovery document', schema: DiscoverySchema } },
      },
    },
    ...CDS_SERVICES.map(serviceRoute),
  ];
}
