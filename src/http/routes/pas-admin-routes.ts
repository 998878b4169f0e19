// Operator interface for PAS: the review queue of pended requests, decisions on pended items (each a new
// ClaimResponse version, announced to the submitter's subscriptions), one stored request with its decision
// history, and the CMS-0057-F metrics. An admin key or the local operator token (the CLI goes through here while a
// server holds the data directory).
import { ApiError, badRequest, notFound } from '../../domain/api-error.js';
import { ErrorBody, isoMs } from '../openapi-schemas.js';
import type { RouteDef } from '../../api/route.js';
import { parseDecision, parseYear } from '../../api/pas-admin-parse.js';

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const str = { type: 'string' };

const QueueEntrySchema = {
  type: 'object',
  required: ['preAuthRef', 'owner', 'state', 'program', 'plan', 'expedited', 'receivedAt', 'dueAt', 'overdue', 'items'],
  properties: {
    preAuthRef: str,
    owner: str,
    state: nullable(str),
    program: nullable(str),
    plan: { type: 'object', required: ['id', 'name'], properties: { id: nullable(str), name: nullable(str) } },
    expedited: { type: 'boolean' },
    receivedAt: isoMs,
    dueAt: isoMs,
    overdue: { type: 'boolean' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['sequence', 'ruleId', 'missing', 'notes'],
        properties: { sequence: { type: 'integer' }, ruleId: nullable(str), missing: { type: 'array', items: str }, notes: { type: 'array', items: str } },
      },
    },
  },
};

const ItemSchema = {
  type: 'object',
  required: ['sequence', 'action', 'notes', 'history'],
  properties: {
    sequence: { type: 'integer' },
    action: { enum: ['A1', 'A3', 'A4', 'cancelled'] },
    notes: { type: 'array', items: str },
    reasonCode: str,
    certification: { type: 'object', required: ['start', 'end'], properties: { start: str, end: str } },
    decidedAt: isoMs,
    ruleId: nullable(str),
    missing: { type: 'array', items: str },
    history: {
      type: 'array',
      items: { type: 'object', required: ['action', 'at', 'by'], properties: { action: { enum: ['A1', 'A3', 'A4', 'cancelled'] }, at: isoMs, by: str, reasonCode: str } },
    },
  },
};

const SubmissionSummary = {
  type: 'object',
  required: ['preAuthRef', 'owner', 'status', 'version', 'state', 'program', 'expedited', 'receivedAt', 'dueAt', 'decidedAt', 'items'],
  properties: {
    preAuthRef: str,
    owner: str,
    status: { enum: ['pended', 'decided', 'cancelled'] },
    version: { type: 'integer', minimum: 1 },
    state: nullable(str),
    program: nullable(str),
    expedited: { type: 'boolean' },
    receivedAt: isoMs,
    dueAt: isoMs,
    decidedAt: nullable(isoMs),
    items: { type: 'array', items: ItemSchema },
    claimResponse: { type: 'object', required: ['resourceType'], properties: { resourceType: { const: 'Bundle' } }, description: 'The new PAS response Bundle (decide only)' },
  },
};

const clockSchema = {
  type: 'object',
  required: ['requests', 'decided', 'approved', 'denied', 'partially_approved', 'still_pending', 'percent_approved', 'percent_denied', 'average_decision_hours', 'median_decision_hours'],
  properties: Object.fromEntries<Record<string, unknown>>([
    ...['requests', 'decided', 'approved', 'denied', 'partially_approved', 'still_pending', 'approved_after_appeal', 'approved_after_extension'].map((k): [string, Record<string, unknown>] => [k, { type: 'integer', minimum: 0 }]),
    ...['percent_approved', 'percent_denied', 'average_decision_hours', 'median_decision_hours', 'percent_approved_after_appeal', 'percent_approved_after_extension'].map((k): [string, Record<string, unknown>] => [k, nullable({ type: 'number' })]),
  ]),
};
const MetricsSchema = {
  type: 'object',
  required: ['year', 'generated_at', 'basis', 'excluded', 'rows'],
  properties: {
    year: { type: 'integer' },
    generated_at: isoMs,
    basis: str,
    excluded: { type: 'object', required: ['drug_only_requests', 'cancelled_before_decision'], properties: { drug_only_requests: { type: 'integer' }, cancelled_before_decision: { type: 'integer' } } },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['program', 'plan', 'states', 'standard', 'expedited'],
        properties: {
          program: str,
          plan: str,
          states: { type: 'array', items: str },
          standard: { ...clockSchema, required: [...clockSchema.required, 'approved_after_appeal', 'percent_approved_after_appeal', 'approved_after_extension', 'percent_approved_after_extension'] },
          expedited: clockSchema,
        },
      },
    },
  },
};

const adminErrors = {
  '401': { description: 'Missing or invalid credentials', schema: ErrorBody },
  '403': { description: 'Not an admin key', schema: ErrorBody },
};
const refParam = { name: 'preAuthRef', in: 'path', required: true, description: 'The preAuthRef (PA-...)', schema: { type: 'string' } };

export const pasAdminRoutes: RouteDef[] = [
  {
    id: 'admin-pas-queue',
    method: 'GET',
    path: '/v1/admin/pas/queue',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(_ctx, deps) {
      return { status: 200, body: { queue: await deps.pas.queue() } };
    },
    openapi: {
      summary: 'PAS review queue: pended requests, earliest decision deadline first',
      tags: ['admin'],
      responses: {
        '200': {
          description: 'Pended requests',
          schema: { type: 'object', required: ['queue'], properties: { queue: { type: 'array', items: QueueEntrySchema } } },
          links: {
            get: { operationId: 'admin-pas-get', parameters: { preAuthRef: '$response.body#/queue/0/preAuthRef' } },
            decide: { operationId: 'admin-pas-decide', parameters: { preAuthRef: '$response.body#/queue/0/preAuthRef' } },
            extend: { operationId: 'admin-pas-extend', parameters: { preAuthRef: '$response.body#/queue/0/preAuthRef' } },
          },
        },
        ...adminErrors,
      },
    },
  },
  {
    id: 'admin-pas-get',
    method: 'GET',
    path: '/v1/admin/pas/:preAuthRef',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const doc = await deps.pas.get({ owner: 'operator', all: true, authorize: () => undefined }, ctx.params.preAuthRef ?? '');
      if (!doc) throw notFound(`No PAS request ${String(ctx.params.preAuthRef).slice(0, 40)}`);
      const { id, owner, status, version, state, program, expedited, receivedAt, dueAt, decidedAt, items } = doc;
      return { status: 200, body: { preAuthRef: id, owner, status, version, state, program, expedited, receivedAt, dueAt, decidedAt, items } };
    },
    openapi: {
      summary: 'One stored PAS request with its per-item decision history',
      tags: ['admin'],
      parameters: [refParam],
      responses: { '200': { description: 'The request', schema: SubmissionSummary }, '404': { description: 'Unknown preAuthRef', schema: ErrorBody }, ...adminErrors },
    },
  },
  {
    id: 'admin-pas-decide',
    method: 'POST',
    path: '/v1/admin/pas/:preAuthRef/decide',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const input = parseDecision(ctx.body);
      const out = await deps.pas.decide(ctx.params.preAuthRef ?? '', { ...input, by: 'operator' });
      if (out.kind === 'not_found') throw notFound(`No PAS request ${String(ctx.params.preAuthRef).slice(0, 40)}`);
      if (out.kind === 'conflict') throw new ApiError(409, 'conflict', out.message);
      const { id, owner, status, version, state, program, expedited, receivedAt, dueAt, decidedAt, items } = out.submission;
      return { status: 200, body: { preAuthRef: id, owner, status, version, state, program, expedited, receivedAt, dueAt, decidedAt, items, claimResponse: out.bundle } };
    },
    openapi: {
      summary: 'Decide pended items of a PAS request (a new ClaimResponse version; subscribers are notified)',
      description: 'Body: {"decision": "approve"|"deny", "item"?: <sequence> (default: every pended item), "reason"?: <X12 886 review decision reason code, required to deny>, "note"?: <text>}. Approving a not-certified item records an approval after appeal.',
      tags: ['admin'],
      parameters: [refParam],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['decision'], properties: { decision: { enum: ['approve', 'deny'] }, item: { type: 'integer' }, reason: { type: 'string' }, note: { type: 'string' } } }, example: { decision: 'approve', note: 'Documentation reviewed' } } } },
      responses: {
        '200': { description: 'The request after the decision, with the new response Bundle', schema: SubmissionSummary },
        '400': { description: 'Invalid body', schema: ErrorBody },
        '404': { description: 'Unknown preAuthRef', schema: ErrorBody },
        '409': { description: 'Nothing to decide (already decided, cancelled, no such item)', schema: ErrorBody },
        ...adminErrors,
      },
    },
  },
  {
    id: 'admin-pas-extend',
    method: 'POST',
    path: '/v1/admin/pas/:preAuthRef/extend',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const b = (ctx.body ?? {}) as Record<string, unknown>;
      if (!Number.isInteger(b.days) || (b.days as number) < 1 || (b.days as number) > 30) throw badRequest("'days' must be an integer from 1 to 30", 'invalid_body');
      if (typeof b.reason !== 'string' || !b.reason.trim() || b.reason.length > 500) throw badRequest("'reason' must say why (at most 500 characters)", 'invalid_body');
      const out = await deps.pas.extend(ctx.params.preAuthRef ?? '', { days: b.days as number, reason: b.reason, by: 'operator' });
      if (out.kind === 'not_found') throw notFound(`No PAS request ${String(ctx.params.preAuthRef).slice(0, 40)}`);
      if (out.kind === 'conflict') throw new ApiError(409, 'conflict', out.message);
      const { id, owner, status, version, state, program, expedited, receivedAt, dueAt, decidedAt, items } = out.submission;
      return { status: 200, body: { preAuthRef: id, owner, status, version, state, program, expedited, receivedAt, dueAt, decidedAt, items, claimResponse: out.bundle } };
    },
    openapi: {
      summary: 'Extend the decision timeframe of a pended PAS request (a new ClaimResponse version with the reason)',
      description: 'Body: {"days": 1-30, "reason": <why>}. Approvals after an extension are reported by the CMS-0057-F metrics.',
      tags: ['admin'],
      parameters: [refParam],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['days', 'reason'], properties: { days: { type: 'integer' }, reason: { type: 'string' } } }, example: { days: 14, reason: 'Waiting for the clinical notes requested from the provider' } } } },
      responses: {
        '200': { description: 'The request after the extension', schema: SubmissionSummary },
        '400': { description: 'Invalid body', schema: ErrorBody },
        '404': { description: 'Unknown preAuthRef', schema: ErrorBody },
        '409': { description: 'Not pended', schema: ErrorBody },
        ...adminErrors,
      },
    },
  },
  {
    id: 'admin-pa-metrics',
    method: 'GET',
    path: '/v1/admin/pa-metrics',
    auth: 'admin',
    group: 'admin',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      const year = parseYear(ctx.query.get('year'), ctx.now);
      return { status: 200, body: await deps.pas.metrics(year) };
    },
    openapi: {
      summary: 'CMS-0057-F prior authorization metrics for a year, per program and plan',
      tags: ['admin'],
      parameters: [{ name: 'year', in: 'query', required: false, description: 'Calendar year (default: the current year)', schema: { type: 'string', pattern: '^\\d{4}$' }, example: '2026' }],
      responses: { '200': { description: 'Metrics', schema: MetricsSchema }, '400': { description: 'Invalid year', schema: ErrorBody }, ...adminErrors },
    },
  },
];
