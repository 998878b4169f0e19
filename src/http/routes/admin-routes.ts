// Operator interface: keys and ingest. Reached with an admin key, or by the local CLI with the operator token
// that a server using the embedded store writes into its lock file (so the two never write the files at once).
import { isEndpointGroup, type EndpointGroup } from '../../domain/endpoint-groups.js';
import { isJurisdiction, normalizeProgram, type Program } from '../../domain/vocabulary.js';
import type { CreateKeyOptions } from '../../services/keys.js';
import { badRequest, notFound } from '../api-error.js';
import { ErrorBody } from '../openapi-schemas.js';
import type { RouteDef } from '../route.js';

function stringList(body: Record<string, unknown>, name: string): string[] {
  const v = body[name];
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw badRequest(`'${name}' must be an array of strings`, 'invalid_body');
  return v as string[];
}

export function parseCreateKey(body: unknown): CreateKeyOptions {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Body must be a JSON object', 'invalid_body');
  const b = body as Record<string, unknown>;
  const states = stringList(b, 'states').map((s) => s.toUpperCase());
  const badState = states.find((s) => !isJurisdiction(s));
  if (badState) throw badRequest(`Unknown state '${badState}'`, 'invalid_body');
  const programs = stringList(b, 'programs').map((p) => normalizeProgram(p) ?? p);
  const badProgram = programs.find((p) => !normalizeProgram(p));
  if (badProgram) throw badRequest(`Unknown program '${badProgram}'`, 'invalid_body');
  const groups = stringList(b, 'groups');
  const badGroup = groups.find((g) => !isEndpointGroup(g));
  if (badGroup) throw badRequest(`Unknown endpoint group '${badGroup}'`, 'invalid_body');
  for (const f of ['compare', 'admin'] as const) {
    if (b[f] !== undefined && typeof b[f] !== 'boolean') throw badRequest(`'${f}' must be a boolean`, 'invalid_body');
  }
  if (b.name !== undefined && (typeof b.name !== 'string' || b.name.length > 100)) throw badRequest("'name' must be a string of at most 100 characters", 'invalid_body');
  return {
    ...(typeof b.name === 'string' ? { name: b.name } : {}),
    states,
    programs: programs as Program[],
    groups: groups as EndpointGroup[],
    compare: b.compare === true,
    admin: b.admin === true,
  };
}

const adminResponses = {
  '400': { description: 'Invalid body', schema: ErrorBody },
  '401': { description: 'Missing or invalid credentials', schema: ErrorBody },
  '403': { description: 'Not an admin key', schema: ErrorBody },
};

export const adminRoutes: RouteDef[] = [
  {
    id: 'admin-keys-create',
    method: 'POST',
    path: '/v1/admin/keys',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const created = await deps.keys.create(parseCreateKey(ctx.body));
      return { status: 201, body: created };
    },
    openapi: {
      summary: 'Issue an API key (shown once)',
      tags: ['admin'],
      requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
      responses: { '201': { description: 'The new key and its record' }, ...adminResponses },
    },
  },
  {
    id: 'admin-keys-list',
    method: 'GET',
    path: '/v1/admin/keys',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(_ctx, deps) {
      return { status: 200, body: { keys: await deps.keys.list() } };
    },
    openapi: { summary: 'List API keys (never the keys themselves)', tags: ['admin'], responses: { '200': { description: 'Key records' }, ...adminResponses } },
  },
  {
    id: 'admin-keys-revoke',
    method: 'POST',
    path: '/v1/admin/keys/:id/revoke',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const r = await deps.keys.revoke(ctx.params.id!);
      if (!r) throw notFound(`No key with id ${ctx.params.id}`);
      return { status: 200, body: { key: r } };
    },
    openapi: {
      summary: 'Revoke an API key (effective at once on this instance, within KEY_CACHE_SECONDS on others)',
      tags: ['admin'],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': { description: 'The revoked key record' }, '404': { description: 'Unknown key', schema: ErrorBody }, ...adminResponses },
    },
  },
  {
    id: 'admin-ingest',
    method: 'POST',
    path: '/v1/admin/ingest',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const path = (ctx.body as { path?: unknown } | undefined)?.path;
      if (typeof path !== 'string' || !path) throw badRequest("Body must be {\"path\": \"<file or directory on the server's filesystem>\"}", 'invalid_body');
      let report;
      try {
        report = await deps.ingest(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw badRequest(`No such file or directory: ${path}`, 'invalid_body');
        throw err;
      }
      return { status: 200, body: report };
    },
    openapi: {
      summary: 'Ingest canonical documents from a file or directory on the server',
      tags: ['admin'],
      requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['path'], properties: { path: { type: 'string' } } } } } },
      responses: { '200': { description: 'Ingest report (added, changed, unchanged, rejected with file and line)' }, ...adminResponses },
    },
  },
];
