// Response schemas of the currency endpoints (change feed, notify-when-ready, staleness, ingest history).
import { DRUG_CLASSES, JURISDICTIONS, PA_TYPES, PROGRAMS, SERVICE_CATEGORIES, VERIFICATION_STATUSES } from '../domain/vocabulary.js';

const url = { type: 'string', format: 'uri' };
const dateTime = { type: 'string', format: 'date-time' };
const dateOnly = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };

const Facts = {
  type: 'object',
  required: ['pa_required', 'pa_type', 'source_url', 'last_verified', 'status'],
  properties: {
    pa_required: { type: 'boolean' },
    pa_type: { enum: [...PA_TYPES] },
    source_url: url,
    last_verified: dateOnly,
    status: { enum: [...VERIFICATION_STATUSES] },
    not_covered: { const: true, description: 'Present when the rule says the program does not cover the subject (pa_required false then means no PA route)' },
    applies_to: { type: 'string', description: 'Present when the requirement is limited to a population' },
  },
};

export const JsonFeedResponse = {
  type: 'object',
  description: 'JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of corpus changes, newest first; `next_url` pages to older entries.',
  required: ['version', 'title', 'items'],
  properties: {
    version: { const: 'https://jsonfeed.org/version/1.1' },
    title: { type: 'string' },
    home_page_url: url,
    feed_url: url,
    description: { type: 'string' },
    next_url: url,
    _prauth: {
      type: 'object',
      required: ['total', 'first_url'],
      properties: { total: { type: 'integer', minimum: 0 }, first_url: url },
    },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'url', 'title', 'content_html', 'date_modified', '_prauth'],
        properties: {
          id: { type: 'string', pattern: '^urn:prauth:change:\\d+-\\d{6}$' },
          url: url,
          title: { type: 'string' },
          summary: { type: 'string' },
          content_html: { type: 'string' },
          date_modified: dateTime,
          date_published: dateTime,
          _prauth: {
            type: 'object',
            required: ['change_id', 'action', 'resource_type', 'state', 'corpus_version', 'at'],
            properties: {
              change_id: { type: 'string' },
              action: { enum: ['added', 'changed', 'retired'] },
              resource_type: { enum: ['CoverageRule', 'RegulatoryEvent'] },
              state: { type: 'string', pattern: '^[A-Z]{2}$' },
              corpus_version: { type: 'integer' },
              at: dateTime,
              rule_id: { type: 'string' },
              program: { enum: [...PROGRAMS] },
              subject: {
                type: 'object',
                required: ['kind', 'code'],
                properties: { kind: { enum: ['drug', 'service'] }, code: { enum: [...DRUG_CLASSES, ...SERVICE_CATEGORIES] } },
              },
              payer_id: { type: 'string' },
              source_url: url,
              before: Facts,
              after: Facts,
              changes: { type: 'array', items: { type: 'string' }, description: 'Human-readable "field: old -> new" lines' },
              event_id: { type: 'integer' },
              programs: { type: 'array', items: { enum: [...PROGRAMS] } },
              event_kind: { type: 'string' },
              issued_at: { type: 'string' },
              effective_at: { type: 'string' },
              federal_rule_id: { type: 'string' },
            },
          },
        },
      },
    },
  },
};

export const AtomFeedResponse = {
  type: 'string',
  contentMediaType: 'application/atom+xml',
  description:
    'Atom 1.0 (RFC 4287) feed of corpus changes, newest first. Feed-level links: self, first, next (RFC 5005 paged feed) and alternate (the JSON twin).',
};

export const NotifyAccepted = {
  type: 'object',
  required: ['recorded', 'id', 'state', 'kind', 'subject', 'channel', 'status'],
  properties: {
    recorded: { type: 'boolean', description: 'true once the request is stored durably' },
    id: { type: 'string', description: 'The watch id (the same for a repeated request). The body is the same whether or not the contact already watched the combination, so it reveals nothing about what a person asked to be alerted about.' },
    status: {
      enum: ['waiting', 'notified', 'available'],
      description: '`waiting`: a message follows when the gap is filled; `notified`: it is filled, the message is queued or sent; `available`: a verified rule exists already, nothing is stored and no message follows',
    },
    state: { enum: [...JURISDICTIONS] },
    program: { enum: [...PROGRAMS] },
    kind: { enum: ['drug', 'service'] },
    subject: { enum: [...DRUG_CLASSES, ...SERVICE_CATEGORIES] },
    channel: { enum: ['sms', 'email'] },
    contact_hint: { type: 'string', description: 'The contact, masked (never returned in clear)' },
    lookup_url: { type: 'string' },
    unsubscribe: { type: 'string', description: 'How to stop: every message carries a one-click unsubscribe link' },
  },
};

export const UnsubscribeResponse = {
  type: 'object',
  required: ['unsubscribed'],
  properties: { unsubscribed: { type: 'boolean' }, id: { type: 'string' } },
};

const StaleGroup = {
  type: 'object',
  required: ['state', 'program', 'stale', 'total', 'oldest_last_verified'],
  properties: {
    state: { type: 'string' },
    program: { enum: [...PROGRAMS] },
    stale: { type: 'integer', minimum: 0 },
    total: { type: 'integer', minimum: 0 },
    oldest_last_verified: dateOnly,
  },
};

export const StalenessResponse = {
  type: 'object',
  required: ['as_of', 'threshold_days', 'verified_rules', 'stale_rules', 'oldest_age_days', 'median_age_days', 'groups', 'rules'],
  properties: {
    as_of: dateOnly,
    threshold_days: { type: 'integer', minimum: 0 },
    verified_rules: { type: 'integer', minimum: 0 },
    stale_rules: { type: 'integer', minimum: 0 },
    oldest_last_verified: { oneOf: [dateOnly, { type: 'null' }] },
    oldest_age_days: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
    median_age_days: { oneOf: [{ type: 'number' }, { type: 'null' }] },
    groups: { type: 'array', items: StaleGroup, description: 'Per state and program, most stale first' },
    rules: {
      type: 'array',
      description: 'The stale rules, oldest first (at most `limit`)',
      items: {
        type: 'object',
        required: ['rule_id', 'state', 'program', 'kind', 'subject', 'last_verified', 'age_days', 'source_url'],
        properties: {
          rule_id: { type: 'string' },
          state: { type: 'string' },
          program: { enum: [...PROGRAMS] },
          kind: { enum: ['drug', 'service'] },
          subject: { type: 'string' },
          payer_id: { type: 'string' },
          last_verified: dateOnly,
          age_days: { type: 'integer' },
          source_url: url,
        },
      },
    },
  },
};

export const IngestRun = {
  type: 'object',
  required: ['id', 'trigger', 'source', 'started_at', 'status'],
  properties: {
    id: { type: 'string' },
    trigger: { enum: ['schedule', 'admin', 'cli', 'startup'] },
    source: { type: 'string', description: 'A path, or an https URL with its query string removed' },
    started_at: dateTime,
    finished_at: dateTime,
    status: { enum: ['running', 'ok', 'rejected_records', 'failed', 'skipped_overlap', 'interrupted'] },
    error: { type: 'string' },
    received: { type: 'integer' },
    added: { type: 'integer' },
    changed: { type: 'integer' },
    unchanged: { type: 'integer' },
    retired: { type: 'integer' },
    rejected: { type: 'integer' },
    corpus_version: { type: 'integer' },
    notifications_queued: { type: 'integer' },
  },
};

export const IngestHistoryResponse = {
  type: 'object',
  required: ['runs'],
  properties: { runs: { type: 'array', items: IngestRun } },
};
