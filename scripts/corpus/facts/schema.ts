// JSON Schema of a curated fact file (corpus/facts/*.yaml; the format is documented in corpus/facts/FORMAT.md).
// Strict (no unknown keys) so that a misspelt field fails the build instead of being silently ignored.
import { DRUG_CLASSES, JURISDICTIONS, PA_TYPES, PROGRAMS, SERVICE_CATEGORIES } from '../../../src/domain/vocabulary.js';
import { PA_MODES } from '../../../src/domain/documents.js';
import { submissionSchema } from '../../../src/ingest/schemas/index.js';

const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
// http:// is accepted: a source is cited at the address it was read from, never rewritten to one not seen.
const url = { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 2048 } as const;
const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max }) as const;
const slug = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,80}$' } as const;

const vendorDomain = {
  type: 'object',
  additionalProperties: false,
  required: ['host', 'who', 'named_by'],
  properties: { host: { type: 'string', pattern: '^[a-z0-9.-]+\\.[a-z]{2,}$' }, who: text(300), named_by: url },
} as const;

const fact = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'programs', 'subjects', 'evidence', 'checked', 'review'],
  properties: {
    id: slug,
    jurisdictions: {
      oneOf: [
        { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...JURISDICTIONS] } },
        { type: 'array', minItems: 1, maxItems: 1, items: { const: 'all' } },
      ],
    },
    programs: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...PROGRAMS] } },
    scope_basis: text(1000),
    /** The program whose rule this fact's programs take over for its subjects (FORMAT.md, "follows"). */
    follows: { enum: [...PROGRAMS] },
    /** A hand-over's people, where the source hands over for some of the program's members only (FORMAT.md, "follows"). */
    population: text(200),
    /** The program that decides requests for this fact's other programs (a benefit carved out of managed care). */
    decided_by: { enum: [...PROGRAMS] },
    subjects: {
      oneOf: [
        { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...DRUG_CLASSES, ...SERVICE_CATEGORIES] } },
        { type: 'object', additionalProperties: false, required: ['kind'], properties: { kind: { enum: ['drug', 'service'] } } },
      ],
    },
    requirement: {
      type: 'object',
      additionalProperties: false,
      required: ['pa_required', 'pa_type', 'criteria'],
      properties: {
        pa_required: { type: 'boolean' },
        pa_type: { enum: [...PA_TYPES] },
        pa_mode: { enum: [...PA_MODES] },
        criteria: text(4000),
        documentation: { type: 'array', maxItems: 30, items: text(500) },
        step_therapy: text(1000),
        quantity_limit: text(500),
        new_starts_only: { type: 'boolean' },
        /** Whom the requirement is limited to, in the source's terms (for example members under 18): FORMAT.md, "Encoding". */
        population: text(200),
        /** The population's ages in whole years, inclusive, where the source states them (members younger than 18: max 17). */
        ages: { type: 'object', additionalProperties: false, minProperties: 1, properties: { min: { type: 'integer', minimum: 0, maximum: 120 }, max: { type: 'integer', minimum: 0, maximum: 120 } } },
        /** The source says the program does not cover the subject (or a use of it): FORMAT.md, "Encoding". */
        not_covered: { const: true },
      },
    },
    submission: submissionSchema,
    clock: {
      type: 'object',
      additionalProperties: false,
      required: ['standard_hours', 'basis'],
      properties: {
        standard_hours: { type: 'integer', minimum: 0, maximum: 8760 },
        expedited_hours: { type: 'integer', minimum: 0, maximum: 8760 },
        basis: text(500),
      },
    },
    effective: { type: 'object', additionalProperties: false, properties: { start: date, end: date } },
    federal_override: { type: 'boolean' },
    evidence: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['source', 'locator'],
        properties: { source: slug, locator: text(300), quote: { type: 'string', maxLength: 400 } },
      },
    },
    checked: date,
    review: {
      type: 'object',
      additionalProperties: false,
      required: ['first_read'],
      properties: { first_read: text(100), second_read: text(100), disputed: text(4000), notes: text(4000), method: text(500) },
    },
  },
} as const;

export const factFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['jurisdiction', 'sources', 'facts'],
  properties: {
    jurisdiction: { enum: [...JURISDICTIONS, 'national'] },
    vendor_domains: { type: 'array', items: vendorDomain },
    sources: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'url', 'title', 'publisher'],
        properties: { id: slug, url, title: text(300), publisher: text(200), date },
      },
    },
    facts: { type: 'array', items: fact },
  },
} as const;

export const officialDomainsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['domains'],
  properties: {
    domains: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['host', 'who'],
        properties: { host: { type: 'string', pattern: '^[a-z0-9.-]+\\.[a-z]{2,}$' }, who: text(300), named_by: url },
      },
    },
  },
} as const;
