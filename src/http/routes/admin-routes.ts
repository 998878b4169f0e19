// Operator interface: keys and ingest. Reached with an admin key, or by the local CLI with the operator token
// that a server using the embedded store writes into its lock file (so the two never write the files at once).
import { isEndpointGroup, type EndpointGroup } from '../../domain/endpoint-groups.js';
import { isJurisdiction, normalizeProgram, type Program } from '../../domain/vocabulary.js';
import type { CreateKeyOptions } from '../../services/keys.js';
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, sep } from 'node:path';
import type { IngestSource } from '../../ingest/run-ingest.js';
import { badRequest, notFound } from '../../domain/api-error.js';
import { ErrorBody } from '../openapi-schemas.js';
import type { RouteDef } from '../../api/route.js';

function stringList(body: Record<string, unknown>, name: string): string[] {
  const v = body[name];
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw badRequest(`'${name}' must be an array of strings`, 'invalid_body');
  return v as string[];
}

export function parseCreateKey(body: unknown): CreateKeyOptions {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Body must be a JSON object', 'invalid_body');
  const b = body as Record<string, unknown>;
  const states = stringList(b, 'states');
  const badState = states.find((s) => !/^[A-Z]{2}$/.test(s) || !isJurisdiction(s));
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

/**
 * `{records}` or `{path}`; a path must resolve (symbolic links included) inside the configured ingest directory, so
 * the admin interface can never be used to read other files of the server.
 */
export async function parseIngestBody(body: unknown, ingestDir: string | undefined): Promise<IngestSource> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Body must be {"records": [...]} or {"path": "..."}', 'invalid_body');
  const b = body as Record<string, unknown>;
  if (b.records !== undefined) {
    if (!Array.isArray(b.records)) throw badRequest("'records' must be an array of documents", 'invalid_body');
    if (b.name !== undefined && (typeof b.name !== 'string' || !/^[\w .-]{1,100}$/.test(b.name))) throw badRequest("'name' must be a short file name", 'invalid_body');
    return { records: b.records, ...(typeof b.name === 'string' ? { name: b.name } : {}) };
  }
  if (typeof b.path !== 'string' || !b.path) throw badRequest('Body must be {"records": [...]} or {"path": "..."}', 'invalid_body');
  if (!ingestDir) throw badRequest('Ingest by path is disabled (PRAUTH_INGEST_DIR is not set): send the documents as {"records": [...]}', 'invalid_body');
  const outside = badRequest('The path must name a file or directory inside the ingest directory (PRAUTH_INGEST_DIR)', 'invalid_body');
  let root: string;
  let target: string;
  try {
    root = await realpath(ingestDir);
    target = await realpath(isAbsolute(b.path) ? b.path : join(root, b.path));
  } catch {
    throw outside; // the same answer whether or not something exists outside
  }
  if (target !== root && !target.startsWith(root + sep)) throw outside;
  return target;
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
      requestBody: { content: { 'application/json': { schema: { type: 'object' }, example: { name: 'Example EHR integration', states: ['TX', 'OK'], programs: ['medicaid_mco'] } } } },
      responses: {
        '201': {
          description: 'The new key and its record',
          links: {
            usage: { operationId: 'admin-key-usage', parameters: { id: '$response.body#/record/id' } },
            revoke: { operationId: 'admin-keys-revoke', parameters: { id: '$response.body#/record/id' } },
          },
        },
        ...adminResponses,
      },
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
    bodyType: 'records', // the CLI sends a whole corpus inline: INGEST_BODY_LIMIT bounds it
    cache: 'no-store',
    async handle(ctx, deps) {
      return { status: 200, body: await deps.ingest(await parseIngestBody(ctx.body, deps.config.ingestDir)) };
    },
    openapi: {
      summary: 'Ingest canonical documents sent in the body, or from a file or directory inside PRAUTH_INGEST_DIR',
      description:
        'Body `{"records": [ ...documents ]}` (what the CLI sends), or `{"path": "<name inside PRAUTH_INGEST_DIR>"}`. A path outside that directory (after resolving symbolic links) is refused, and with PRAUTH_INGEST_DIR unset only bodies are accepted. Rejected records are reported by index and reason, never by content.',
      tags: ['admin'],
      requestBody: {
        content: {
          'application/json': {
            schema: {
              oneOf: [
                { type: 'object', required: ['records'], properties: { records: { type: 'array', items: { type: 'object' } }, name: { type: 'string' } } },
                { type: 'object', required: ['path'], properties: { path: { type: 'string' } } },
              ],
            },
          },
        },
      },
      responses: { '200': { description: 'Ingest report (added, changed, unchanged, rejected with file and line)' }, ...adminResponses },
    },
  },
];
