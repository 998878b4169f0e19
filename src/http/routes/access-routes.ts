// Demo sessions (public issuance) and per-key usage (admin).
import { tooManyRequests } from '../../services/access-gate.js';
import { notFound } from '../../domain/api-error.js';
import { ErrorBody, RateLimitError } from '../openapi-schemas.js';
import type { RouteDef } from '../../api/route.js';

const DemoSession = {
  type: 'object',
  required: ['session_id', 'expires_at', 'scope'],
  properties: {
    session_id: { type: 'string', format: 'uuid' },
    created_at: { type: 'string' },
    expires_at: { type: 'string' },
    scope: { type: 'array', items: { const: '/v1/action-plan' } },
    header: { const: 'x-demo-session' },
    calls_per_hour: { type: 'integer' },
  },
};

const UsageReport = {
  type: 'object',
  required: ['key_id', 'included_per_month', 'months'],
  properties: {
    key_id: { type: 'string' },
    included_per_month: { type: 'integer' },
    months: {
      type: 'array',
      items: {
        type: 'object',
        required: ['month', 'calls', 'included', 'overage'],
        properties: { month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' }, calls: { type: 'integer' }, included: { type: 'integer' }, overage: { type: 'integer' } },
      },
    },
  },
};

export const accessRoutes: RouteDef[] = [
  {
    id: 'demo-session-create',
    method: 'POST',
    path: '/v1/demo-sessions',
    auth: 'none',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const out = await deps.demo.issue(ctx.clientAddress, ctx.now);
      if (!out.ok) throw tooManyRequests('demo_issue', out.decision, 'new demo sessions from this address');
      return {
        status: 201,
        body: {
          session_id: out.session.id,
          created_at: out.session.createdAt,
          expires_at: out.session.expiresAt,
          scope: ['/v1/action-plan'],
          header: 'x-demo-session',
          calls_per_hour: deps.config.rateLimits.demo_session,
        },
      };
    },
    openapi: {
      summary: 'Start a demo session for /v1/action-plan (no key needed; limited per client address)',
      description: `The session id goes in the x-demo-session header. It expires after DEMO_SESSION_MINUTES (default 60) and allows a small number of calls per hour.`,
      tags: ['access'],
      responses: {
        '201': { description: 'A new demo session', schema: DemoSession },
        '429': { description: 'Too many new sessions from this address', schema: RateLimitError },
      },
    },
  },
  {
    id: 'admin-key-usage',
    method: 'GET',
    path: '/v1/admin/keys/:id/usage',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const key = await deps.keys.get(ctx.params.id!);
      if (!key) throw notFound(`No key with id ${ctx.params.id}`);
      return { status: 200, body: await deps.usage.report(key.id) };
    },
    openapi: {
      summary: 'Monthly call counts for a key: 5,000 calls a month are included, overage is counted',
      tags: ['admin'],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'Usage by month, newest first', schema: UsageReport },
        '401': { description: 'Missing or invalid credentials', schema: ErrorBody },
        '403': { description: 'Not an admin key', schema: ErrorBody },
        '404': { description: 'Unknown key', schema: ErrorBody },
      },
    },
  },
];
