// Operator interface for registered clients (SMART backend services, CDS Hooks EHRs): create, list, revoke, usage.
// Same access as the key endpoints: an admin key, or the local CLI's operator token.
import type { ClientKind } from '../../domain/principal.js';
import type { CreateClientOptions } from '../../services/clients/records.js';
import { ApiError, badRequest, notFound } from '../../domain/api-error.js';
import { ErrorBody } from '../openapi-schemas.js';
import type { RouteDef } from '../../api/route.js';
import { parseCreateKey } from './admin-routes.js';

export function parseCreateClient(body: unknown): CreateClientOptions {
  const subscription = parseCreateKey(body); // name, states, programs, groups, compare, admin: the same rules as a key
  const b = body as Record<string, unknown>;
  if (b.kind !== 'backend' && b.kind !== 'cds-ehr') throw badRequest("'kind' must be 'backend' or 'cds-ehr'", 'invalid_body');
  for (const f of ['jwks_url', 'issuer'] as const) {
    if (b[f] !== undefined && typeof b[f] !== 'string') throw badRequest(`'${f}' must be a string`, 'invalid_body');
  }
  return {
    ...subscription,
    kind: b.kind as ClientKind,
    ...(typeof b.jwks_url === 'string' ? { jwksUrl: b.jwks_url } : {}),
    ...(b.jwks !== undefined ? { jwks: b.jwks } : {}),
    ...(typeof b.issuer === 'string' ? { issuer: b.issuer } : {}),
  };
}

const strings = { type: 'array', items: { type: 'string' } };
export const ClientRecordSchema = {
  type: 'object',
  required: ['id', 'name', 'kind', 'issuer', 'jwksUrl', 'jwks', 'states', 'programs', 'groups', 'compare', 'admin', 'createdAt', 'revokedAt'],
  properties: {
    id: { type: 'string', pattern: '^c_[0-9a-f]{24}$', description: 'The client_id' },
    name: { type: 'string' },
    kind: { enum: ['backend', 'cds-ehr'] },
    issuer: { type: ['string', 'null'] },
    jwksUrl: { type: ['string', 'null'] },
    jwks: { type: ['object', 'null'], description: 'Public keys registered by value' },
    states: strings,
    programs: strings,
    groups: strings,
    compare: { type: 'boolean' },
    admin: { type: 'boolean' },
    createdAt: { type: 'string' },
    revokedAt: { type: ['string', 'null'] },
  },
};

const responses = {
  '401': { description: 'Missing or invalid credentials', schema: ErrorBody },
  '403': { description: 'Not an admin key', schema: ErrorBody },
};

/** A backend service registered with its public key by value (an example key pair's public half, P-384). */
const CLIENT_EXAMPLE = {
  kind: 'backend',
  name: 'Example PAS harness',
  jwks: { keys: [{ kty: 'EC', crv: 'P-384', x: 'ibd76Rqtn9AootH2InQu7R_AJ9V441ej_KEpDz6pK3JfVMJGNU5sSgEENnhotnUa', y: 'E65KE3xNDi3st_pX-zL4_IIuLpCm5bvila356dWfgKA_TIVesa4OFrysuCCHBK_v', kid: 'example-backend-es384', use: 'sig', alg: 'ES384' }] },
  states: ['TX'],
  programs: ['medicaid_mco'],
};

export const clientAdminRoutes: RouteDef[] = [
  {
    id: 'admin-clients-create',
    method: 'POST',
    path: '/v1/admin/clients',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const out = await deps.clients.create(parseCreateClient(ctx.body));
      if (!out.ok) throw new ApiError(400, 'invalid_body', out.problems.join('; '), { problems: out.problems });
      return { status: 201, body: { client_id: out.record.id, client: out.record } };
    },
    openapi: {
      summary: 'Register a client: a SMART backend service or a CDS Hooks EHR',
      description:
        'Body: {kind: "backend"|"cds-ehr", jwks_url | jwks, issuer (cds-ehr), name, states, programs, groups, compare, admin}. A backend client signs its token requests with iss = sub = client_id; a cds-ehr client signs CDS Hooks calls with iss = issuer. The JWKS URL must be https (http on a loopback host only); a JWKS given by value must hold public keys only.',
      tags: ['admin'],
      requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['kind'] }, example: CLIENT_EXAMPLE } } },
      responses: {
        '201': {
          description: 'The client_id and the record',
          schema: { type: 'object', required: ['client_id', 'client'], properties: { client_id: { type: 'string' }, client: ClientRecordSchema } },
          links: {
            usage: { operationId: 'admin-client-usage', parameters: { id: '$response.body#/client_id' } },
            revoke: { operationId: 'admin-clients-revoke', parameters: { id: '$response.body#/client_id' } },
          },
        },
        '400': { description: 'Invalid registration (every problem listed)', schema: ErrorBody },
        ...responses,
      },
    },
  },
  {
    id: 'admin-clients-list',
    method: 'GET',
    path: '/v1/admin/clients',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(_ctx, deps) {
      return { status: 200, body: { clients: await deps.clients.list() } };
    },
    openapi: {
      summary: 'List registered clients',
      tags: ['admin'],
      responses: { '200': { description: 'Client records', schema: { type: 'object', required: ['clients'], properties: { clients: { type: 'array', items: ClientRecordSchema } } } }, ...responses },
    },
  },
  {
    id: 'admin-clients-revoke',
    method: 'POST',
    path: '/v1/admin/clients/:id/revoke',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const r = await deps.clients.revoke(ctx.params.id!);
      if (!r) throw notFound(`No client with id ${ctx.params.id}`);
      return { status: 200, body: { client: r } };
    },
    openapi: {
      summary: 'Revoke a client: its access tokens are deleted and its JWTs refused (at once here, within KEY_CACHE_SECONDS on other instances)',
      tags: ['admin'],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The revoked client', schema: { type: 'object', required: ['client'], properties: { client: ClientRecordSchema } } },
        '404': { description: 'Unknown client', schema: ErrorBody },
        ...responses,
      },
    },
  },
  {
    id: 'admin-client-usage',
    method: 'GET',
    path: '/v1/admin/clients/:id/usage',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const r = await deps.clients.get(ctx.params.id!);
      if (!r) throw notFound(`No client with id ${ctx.params.id}`);
      return { status: 200, body: await deps.usage.report(r.id) };
    },
    openapi: {
      summary: 'Monthly call counts for a client (counted like a key: 5,000 a month included)',
      tags: ['admin'],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': { description: 'Usage by month, newest first (key_id holds the client id)' }, '404': { description: 'Unknown client', schema: ErrorBody }, ...responses },
    },
  },
];
