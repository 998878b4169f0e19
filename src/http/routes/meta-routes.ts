// /openapi.json and /healthz.
import { buildOpenApi } from '../openapi.js';
import type { RouteDef } from '../../api/route.js';

export function metaRoutes(all: () => readonly RouteDef[]): RouteDef[] {
  let cached: Record<string, unknown> | undefined;
  return [
    {
      id: 'openapi',
      method: 'GET',
      path: '/openapi.json',
      auth: 'none',
      surface: 'json',
      cache: 'public, max-age=300',
      handle(_ctx, deps) {
        cached ??= buildOpenApi(all(), deps.config.publicBaseUrl ?? '/');
        return { status: 200, body: cached };
      },
      openapi: { summary: 'This OpenAPI 3.1 document', tags: ['discovery'], responses: { '200': { description: 'OpenAPI document' } } },
    },
    {
      id: 'healthz',
      method: 'GET',
      path: '/healthz',
      auth: 'none',
      surface: 'json',
      cache: 'no-store',
      async handle(_ctx, deps) {
        await deps.store.ping();
        const m = deps.corpus.current;
        return {
          status: 200,
          body: { status: 'ok', store: deps.store.kind, corpus_version: m.version, verified_rules: m.counts.verified, built_at: m.builtAt.toISOString() },
        };
      },
      openapi: { summary: 'Liveness and corpus version', tags: ['discovery'], responses: { '200': { description: 'Healthy' } } },
    },
  ];
}
