// Response schemas (JSON Schema 2020-12, as OpenAPI 3.1 reads it). The tests validate every response against
// these through the generated /openapi.json, so they must say what the service really sends.
import { DRUG_CLASSES, JURISDICTIONS, PA_TYPES, PROGRAMS, SERVED_FROM, SERVICE_CATEGORIES } from '../domain/vocabulary.js';

export const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
export const isoMs = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' };
const url = { type: 'string', format: 'uri' };

export const ErrorBody = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string' },
    code: { type: 'string', description: 'Additive machine-readable code: missing_parameter, invalid_parameter, conflicting_parameters, malformed_json, invalid_body, unauthorized, forbidden, scope_gap, not_found, payload_too_large, unsupported_media_type, rate_limited, internal_error' },
    request_id: { type: 'string' },
    parameter: { type: 'string', description: 'The parameter or body field the error is about' },
    max_length: { type: 'integer', description: 'payload_too_large on a field: its documented maximum length' },
    out_of_scope: { type: 'object' },
    suggestions: { type: 'array', items: { type: 'string' }, description: 'Close names, where a value named nothing known (drug crosswalk)' },
    issues: {
      type: 'array',
      description: 'invalid_body: one entry per element that failed the structural check (names, never values)',
      items: { type: 'object', required: ['message', 'expression'], properties: { message: { type: 'string' }, expression: { type: 'string' } } },
    },
  },
};

/** On a gap whose subject is outside the program's benefit (src/domain/program-scope.ts), in place of notify_url. */
export const OutsideProgram = {
  type: 'object',
  required: ['reason', 'try_programs'],
  properties: { reason: { type: 'string' }, try_programs: { type: 'array', items: { type: 'string' } } },
};

export const ScopeGapError = {
  type: 'object',
  required: ['error', 'code', 'scope_gap'],
  description:
    'A coverage gap: no verified rule for the combination. `scope_gap: true` distinguishes it from other 404s. `notify_url` is where to ask to be told when one is published; where no rule will exist (a non-drug service under Part D; Medicaid managed care in a state that runs none), `outside_program` says so and names the programs to ask instead, and there is no `notify_url`.',
  properties: {
    error: { type: 'string' },
    code: { const: 'scope_gap' },
    scope_gap: { const: true },
    state: { type: 'string' },
    program: { type: 'string' },
    query: { type: 'object' },
    notify_url: { type: 'string' },
    outside_program: OutsideProgram,
  },
};

export const RateLimitError = {
  type: 'object',
  required: ['error', 'limit', 'window', 'retry_after_seconds'],
  properties: {
    error: { type: 'string' },
    code: { const: 'rate_limited' },
    limit: { type: 'integer' },
    window: { type: 'string' },
    retry_after_seconds: { type: 'integer', minimum: 0 },
  },
};

export const QueryEcho = {
  type: 'object',
  description: '`drug_class` for a drug query, `service_category` for a service query.',
  properties: { drug_class: { enum: [...DRUG_CLASSES] }, service_category: { enum: [...SERVICE_CATEGORIES] } },
  minProperties: 1,
};

export const Evidence = {
  type: 'object',
  description: 'Where a served claim of the rule is stated: the document, the place in it (locator) and the day a curator read it there (checked). Rules derived from curated facts (corpus/facts) carry one item per citation; a sample rule carries none.',
  required: ['source_url', 'title', 'publisher', 'locator', 'checked'],
  properties: {
    source_url: url, title: { type: 'string' }, publisher: { type: 'string' },
    effective: { ...date, description: "The document's own effective or revision date, when it prints one" },
    locator: { type: 'string', description: 'Section, table, class heading or page' },
    checked: date,
  },
};

export const PaRule = {
  type: 'object',
  required: ['pa_required', 'source_url', 'last_verified'],
  properties: {
    pa_required: { type: 'boolean' },
    pa_type: { enum: [...PA_TYPES] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    notes: { type: 'string' },
    source_url: url,
    last_verified: { ...date, description: 'For a verified rule: the day its facts were checked against the source (the earliest check among them)' },
    federal_override: { type: 'boolean' },
    rule_id: { type: 'string' },
    rule_status: { enum: ['verified', 'sample'], description: 'verified: every served field rests on curated facts read from official sources and confirmed by a second independent reading (see evidence); sample: illustrative or not fully traced (see caveat), served only when the operator opts in with SERVE_SAMPLE_RULES=true.' },
    pa_mode: { enum: ['required', 'plan_may_require', 'voluntary'], description: 'How binding the requirement is. plan_may_require: the source allows plans to require PA (served pa_required true, pa_type conditional); voluntary: PA is offered, not required (served pa_required false). Absent: required.' },
    evidence: { type: 'array', items: Evidence },
    source_title: { type: 'string' },
    source_publisher: { type: 'string' },
    documentation: { type: 'array', items: { type: 'string' } },
    new_starts_only: { type: 'boolean' },
    applies_to: { type: 'string', description: 'Present only when the source limits the requirement to a population (for example members under 18): pa_required and pa_type speak for them only; the rule claims nothing for anyone else.' },
    step_therapy: { type: 'string' },
    quantity_limit: { type: 'string' },
    not_covered: { const: true, description: 'Present only when the program does not cover the subject (an exclusion): pa_required false then means there is no PA route, not that no PA is needed; a claim will be denied. See exclusion.' },
    exclusion: {
      type: 'object',
      required: ['reason', 'citation'],
      description: 'Why the subject is not covered (the curated criteria) and where the source states it (title and locator). Present with not_covered.',
      properties: { reason: { type: 'string' }, citation: { type: 'string' } },
    },
    submission: {
      type: 'object',
      required: ['channel', 'target'],
      properties: { channel: { type: 'string' }, target: { type: 'string' }, url, fax: { type: 'string' }, phone: { type: 'string' } },
    },
    turnaround: {
      type: 'object',
      required: ['standard_hours', 'expedited_hours'],
      properties: { standard_hours: { type: 'integer' }, expedited_hours: { type: 'integer' }, basis: { type: 'string' } },
    },
    payer: { oneOf: [{ type: 'null' }, { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } }] },
    codes: { type: 'array', items: { type: 'object', required: ['system', 'code'] } },
    caveat: { type: 'string' },
    version_id: { type: 'string' },
  },
};

export const NextStep = {
  type: 'object',
  required: ['step', 'title', 'items'],
  properties: { step: { type: 'integer' }, title: { type: 'string' }, items: { type: 'array', items: { type: 'string' } } },
};

export const LookupResponse = {
  type: 'object',
  required: ['state', 'program', 'query', 'result', 'next_steps', 'served_from', 'timestamp'],
  properties: {
    state: { type: 'string', pattern: '^[A-Z]{2}$' },
    program: { enum: [...PROGRAMS] },
    query: QueryEcho,
    result: PaRule,
    next_steps: { type: 'array', items: NextStep, minItems: 3, maxItems: 3 },
    served_from: { enum: [...SERVED_FROM] },
    timestamp: isoMs,
  },
};

const option = { type: 'object', required: ['val', 'label'], properties: { val: { type: 'string' }, label: { type: 'string' } } };
export const LookupOptionsResponse = {
  type: 'object',
  required: ['drugs', 'services'],
  properties: { drugs: { type: 'array', items: option }, services: { type: 'array', items: option } },
};

const cellStatus = { enum: ['verified', 'sample', 'gap'] };
export const CoverageGridResponse = {
  type: 'object',
  required: ['program', 'served_statuses', 'subjects', 'states', 'totals'],
  properties: {
    program: { type: 'string' },
    served_statuses: { type: 'array', items: { enum: ['verified', 'sample'] } },
    subjects: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'code', 'label'],
        properties: { kind: { enum: ['drug', 'service'] }, code: { type: 'string' }, label: { type: 'string' } },
      },
    },
    states: {
      type: 'array',
      items: {
        type: 'object',
        required: ['state', 'name', 'verified', 'sample', 'cells'],
        properties: {
          state: { type: 'string', pattern: '^[A-Z]{2}$' },
          name: { type: 'string' },
          verified: { type: 'integer', minimum: 0 },
          sample: { type: 'integer', minimum: 0 },
          cells: { type: 'array', description: 'Status of each subject, in the order of subjects', items: cellStatus },
          not_covered: { type: 'array', items: { type: 'string' }, description: 'Subjects (codes) whose rule says the program does not cover them: their cells count as verified (or sample) and are marked apart' },
          applies_to: { type: 'object', additionalProperties: { type: 'string' }, description: 'Subject code -> the population its rule is limited to (for example members younger than 18): the rule claims nothing for anyone else' },
        },
      },
    },
    totals: {
      type: 'object',
      required: ['verified', 'sample', 'gap'],
      properties: { verified: { type: 'integer' }, sample: { type: 'integer' }, gap: { type: 'integer' } },
    },
  },
};

const mandate = { type: 'object', required: ['effective', 'status'], properties: { effective: date, status: { enum: ['final', 'proposed'] } } };
export const ManifestResponse = {
  type: 'object',
  required: ['service', 'version', 'dataset', 'coverage', 'mandates', 'endpoints', 'docs'],
  properties: {
    service: { type: 'string' },
    version: { type: 'string' },
    interface_version: { const: '1.0.0' },
    sample: { type: 'boolean' },
    notice: { type: 'string' },
    dataset: {
      type: 'object',
      required: ['verified_rules', 'service_rules', 'drug_rules', 'last_verified'],
      properties: {
        verified_rules: { type: 'integer' },
        service_rules: { type: 'integer' },
        drug_rules: { type: 'integer' },
        payer_rules: { type: 'integer' },
        served_rules: { type: 'integer', description: 'Program-level rules served (every served status)' },
        rules_by_status: {
          type: 'object',
          description: 'Every rule document in the store (program- and payer-level) counted by verification status',
          required: ['verified', 'sample', 'draft', 'retired'],
          properties: { verified: { type: 'integer' }, sample: { type: 'integer' }, draft: { type: 'integer' }, retired: { type: 'integer' } },
        },
        served_statuses: { type: 'array', items: { enum: ['verified', 'sample'] }, description: 'The rule statuses this server serves' },
        last_verified: { oneOf: [date, { type: 'null' }] },
        corpus_version: { type: 'integer' },
        oldest_last_verified: { oneOf: [date, { type: 'null' }], description: 'Oldest last_verified among served rules' },
        oldest_age_days: { oneOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
        median_age_days: { oneOf: [{ type: 'number', minimum: 0 }, { type: 'null' }] },
      },
    },
    coverage: {
      type: 'object',
      required: ['states', 'states_count', 'programs', 'service_categories', 'drug_classes'],
      properties: {
        states: { type: 'array', items: { enum: [...JURISDICTIONS] } },
        states_count: { type: 'integer' },
        programs: { type: 'array', items: { enum: [...PROGRAMS] } },
        service_categories: { type: 'array', items: { enum: [...SERVICE_CATEGORIES] } },
        drug_classes: { type: 'array', items: { enum: [...DRUG_CLASSES] } },
        verified: {
          type: 'object',
          description: 'Verified program-level rules of the 51 x 7 x 40 combinations; outside_program_combinations of them lie outside their program\'s benefit (non-drug services under Part D) and will never have a rule',
          properties: {
            rules: { type: 'integer', minimum: 0 },
            of_combinations: { type: 'integer' },
            outside_program_combinations: { type: 'integer', minimum: 0 },
            percent: { type: 'number' },
            by_program: { type: 'object', additionalProperties: { type: 'integer' } },
            by_state: { type: 'object' },
          },
        },
      },
    },
    mandates: { type: 'object', required: ['cms_0057_f', 'cms_0062_p'], properties: { cms_0057_f: mandate, cms_0062_p: mandate } },
    endpoints: { type: 'object', additionalProperties: { type: 'string' } },
    docs: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

const flags = {
  type: 'object',
  required: ['medicaid_expansion', 'ffs_dominant', 'wiser'],
  properties: {
    medicaid_expansion: { type: ['boolean', 'null'] },
    ffs_dominant: { type: ['boolean', 'null'] },
    wiser: { type: ['boolean', 'null'] },
  },
};

export const StatesListResponse = {
  type: 'object',
  required: ['states', 'total'],
  properties: {
    total: { type: 'integer' },
    states: {
      type: 'array',
      minItems: 51,
      maxItems: 51,
      items: {
        type: 'object',
        required: ['state_abbr', 'name', 'rule_count', 'pa_required_pct', 'flags'],
        properties: {
          state_abbr: { enum: [...JURISDICTIONS] },
          name: { type: 'string' },
          rule_count: { type: 'integer' },
          drug_rules: { type: 'integer' },
          service_rules: { type: 'integer' },
          pa_required_pct: { type: 'number', minimum: 0, maximum: 100 },
          flags,
        },
      },
    },
  },
};

const counts = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['rules', 'pa_required'],
    properties: { rules: { type: 'integer' }, pa_required: { type: 'integer' }, not_covered: { type: 'integer', description: 'Rules saying the program does not cover the subject (not counted as PA-free)' } },
  },
};
export const StateDetailResponse = {
  type: 'object',
  required: ['state_abbr', 'name', 'flags', 'summary', 'service_categories', 'drug_classes', 'state_meta'],
  properties: {
    state_abbr: { enum: [...JURISDICTIONS] },
    name: { type: 'string' },
    flags,
    summary: {
      type: 'object',
      required: ['total_rules', 'programs_covered', 'pa_type_histogram', 'federal_protected_drug_classes', 'last_verified'],
      properties: {
        total_rules: { type: 'integer' },
        pa_required: { type: 'integer' },
        not_covered: { type: 'integer', description: 'Rules saying the program does not cover the subject' },
        programs_covered: { type: 'array', items: { enum: [...PROGRAMS] } },
        pa_type_histogram: { type: 'object', additionalProperties: { type: 'integer' } },
        federal_protected_drug_classes: { type: 'array', items: { enum: [...DRUG_CLASSES] } },
        last_verified: { oneOf: [date, { type: 'null' }] },
      },
    },
    service_categories: counts,
    drug_classes: counts,
    state_meta: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['agency', 'mco_brands', 'carve_outs', 'wiser', 'primary_sources'],
          properties: {
            agency: { type: 'object', required: ['name', 'url'] },
            mco_brands: { type: 'array', items: { type: 'string' } },
            carve_outs: { type: 'array', items: { type: 'string' } },
            wiser: { type: 'object', required: ['participating'] },
            primary_sources: { type: 'array', items: { type: 'object', required: ['title', 'url'] } },
          },
        },
      ],
    },
  },
};
