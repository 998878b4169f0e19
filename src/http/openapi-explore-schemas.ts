// Response schemas of the endpoints the spec leaves "not shown" (ask, drug-crosswalk, similar, compliance) and of
// the topics (spec 2.8). The contract tests check every response against these.
import { date, Evidence, isoMs, NextStep, OutsideProgram, PaRule, QueryEcho } from './openapi-schemas.js';

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const str = { type: 'string' };
const subject = { type: 'object', required: ['kind', 'code'], properties: { kind: { enum: ['drug', 'service'] }, code: str } };

const rxnorm = { type: 'object', required: ['ingredient', 'scd'], properties: { ingredient: nullable(str), scd: { type: 'array', items: str } } };
const crosswalkMember = {
  type: 'object',
  required: ['generic', 'brands', 'rxnorm', 'matched_on'],
  properties: { generic: str, brands: { type: 'array', items: str }, rxnorm, matched_on: str },
};
export const CrosswalkResponse = {
  type: 'object',
  required: ['query', 'format', 'count'],
  properties: {
    query: { type: 'object', minProperties: 1, maxProperties: 1 },
    format: { enum: ['flat', 'grouped'] },
    count: { type: 'integer', minimum: 1 },
    rows: { type: 'array', items: { ...crosswalkMember, required: [...crosswalkMember.required, 'drug_class', 'drug_class_label'], properties: { ...crosswalkMember.properties, drug_class: str, drug_class_label: str } } },
    groups: { type: 'array', items: { type: 'object', required: ['drug_class', 'drug_class_label', 'members'], properties: { drug_class: str, drug_class_label: str, members: { type: 'array', items: crosswalkMember } } } },
  },
};
export const CrosswalkNotFound = {
  type: 'object',
  required: ['error', 'code', 'suggestions'],
  properties: { error: str, code: { const: 'not_found' }, suggestions: { type: 'array', items: str } },
};

const topicHead = {
  type: 'object',
  required: ['slug', 'display_name', 'kind', 'description', 'taxonomy_link'],
  properties: { slug: str, display_name: str, kind: str, description: str, taxonomy_link: nullable(str) },
};
export const TopicListResponse = {
  type: 'object',
  required: ['topics'],
  properties: {
    topics: {
      type: 'array',
      items: { ...topicHead, required: [...topicHead.required, 'match_count', 'jurisdiction_count'], properties: { ...topicHead.properties, match_count: { type: 'integer' }, jurisdiction_count: { type: 'integer' } } },
    },
  },
};
export const TopicDetailResponse = {
  type: 'object',
  required: ['topic', 'by_jurisdiction', 'states_with_data', 'states_without_data', 'total_matches', 'sample_events'],
  properties: {
    topic: topicHead,
    by_jurisdiction: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['count', 'latest_event_at', 'latest_effective_at', 'latest_compliance_at', 'latest_event_kind', 'status_hint'],
        properties: {
          count: { type: 'integer' },
          latest_event_at: nullable(date),
          latest_effective_at: nullable(date),
          latest_compliance_at: nullable(date),
          latest_event_kind: nullable(str),
          status_hint: { enum: ['expanding', 'contracting', 'rule_change', 'rate_change', 'active', 'no_data'] },
        },
      },
    },
    states_with_data: { type: 'array', items: str },
    states_without_data: { type: 'array', items: str },
    total_matches: { type: 'integer' },
    sample_events: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        required: ['id', 'jurisdiction', 'event_kind', 'event_title', 'issued_at', 'effective_at', 'mmc_compliance_at', 'comment_deadline', 'pa_relevant', 'source_url', 'matched_on'],
        properties: {
          id: { type: 'integer' },
          jurisdiction: str,
          event_kind: str,
          event_title: str,
          issued_at: date,
          effective_at: date,
          mmc_compliance_at: nullable(date),
          comment_deadline: nullable(date),
          pa_relevant: { type: 'boolean' },
          source_url: nullable(str),
          matched_on: { type: 'array', items: str },
        },
      },
    },
  },
};

const status = { enum: ['in_compliance', 'partial', 'overdue', 'not_yet_due', 'unknown'] };
export const ComplianceResponse = {
  type: 'object',
  required: ['rule_id', 'title', 'as_of', 'federal_events', 'jurisdictions', 'summary'],
  properties: {
    rule_id: str,
    title: str,
    as_of: date,
    federal_events: { type: 'array' },
    jurisdictions: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['status', 'event_id', 'effective_at', 'compliance_at', 'source_url', 'provisions'],
        properties: {
          status,
          event_id: nullable({ type: 'integer' }),
          effective_at: nullable(date),
          compliance_at: nullable(date),
          source_url: nullable(str),
          provisions: {
            type: 'array',
            items: {
              type: 'object',
              required: ['compliance_at', 'title', 'status', 'event_id', 'federal_event_id'],
              properties: { compliance_at: date, title: str, status, event_id: nullable({ type: 'integer' }), federal_event_id: nullable({ type: 'integer' }) },
            },
          },
        },
      },
    },
    summary: {
      type: 'object',
      required: ['in_compliance', 'partial', 'overdue', 'not_yet_due', 'unknown', 'total'],
      additionalProperties: { type: 'integer' },
    },
    basis: {
      type: 'string',
      description:
        'Present only when the corpus records no provision for the rule (no compliance or reporting date, no jurisdiction event stating a status): a proposed rule is not_yet_due everywhere (it binds no one until a final rule sets dates); any other rule is unknown everywhere. Says which, in words',
    },
  },
};

const ruleSummary = {
  type: 'object',
  required: ['rule_id', 'state', 'program', 'subject', 'pa_required', 'pa_type', 'confidence', 'source_url', 'last_verified'],
  properties: {
    rule_id: str, state: str, program: str, subject, pa_required: { type: 'boolean' }, pa_type: str, confidence: { type: 'number' }, rule_status: { enum: ['verified', 'sample'] }, source_url: str, last_verified: date,
    applies_to: { type: 'string', description: 'Present when the rule is limited to a population: it claims nothing for other members' },
    pa_mode: { enum: ['required', 'plan_may_require', 'voluntary'], description: 'Present when the source only lets the plan require PA, or offers it voluntarily' },
  },
};
export const SimilarResponse = {
  type: 'object',
  required: ['query', 'scope', 'limit', 'count', 'base', 'results'],
  properties: {
    query: { type: 'object' },
    scope: { enum: ['same_subject', 'same_program', 'same_state', 'all'] },
    limit: { type: 'integer' },
    count: { type: 'integer' },
    base: nullable(ruleSummary),
    results: {
      type: 'array',
      items: { ...ruleSummary, required: [...ruleSummary.required, 'score', 'reasons'], properties: { ...ruleSummary.properties, score: { type: 'number', minimum: 0, maximum: 1 }, reasons: { type: 'array', items: str, minItems: 1 } } },
    },
  },
};

const found = { type: 'object', required: ['value', 'matched', 'by'], properties: { value: str, matched: nullable(str), by: str } };
export const AskResponse = {
  type: 'object',
  required: ['question', 'status', 'extracted', 'answers', 'gaps', 'clarification', 'passages', 'grounding', 'timestamp'],
  properties: {
    question: str,
    status: { enum: ['answered', 'partial', 'no_rule', 'clarification_needed'] },
    extracted: {
      type: 'object',
      required: ['state', 'program', 'subjects', 'assumptions'],
      properties: {
        state: nullable(found),
        program: nullable(found),
        subjects: { type: 'array', items: { ...subject, required: ['kind', 'code', 'label', 'matched', 'by'] } },
        assumptions: { type: 'array', items: str },
      },
    },
    answers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['state', 'program', 'query', 'result', 'next_steps', 'citations'],
        properties: {
          state: str,
          program: str,
          query: QueryEcho,
          result: PaRule,
          next_steps: { type: 'array', items: NextStep },
          citations: { type: 'array', minItems: 1, items: { type: 'object', required: ['source_url', 'last_verified'], properties: { source_url: str, last_verified: date, evidence: { type: 'array', items: Evidence } } } },
        },
      },
    },
    gaps: {
      type: 'array',
      items: {
        type: 'object',
        required: ['state', 'program', 'query', 'scope_gap'],
        description: 'notify_url, or outside_program where no rule will exist (a subject outside the program\'s benefit, such as a non-drug service under Part D, or Medicaid managed care in a state with no plans); other_program_rule where the question said only "Medicaid", the assumed delivery system has no rule and the other one has (within the caller\'s scope)',
        properties: {
          notify_url: str,
          outside_program: OutsideProgram,
          other_program_rule: { type: 'object', required: ['program', 'label', 'lookup'], properties: { program: { enum: ['medicaid_ffs', 'medicaid_mco'] }, label: str, lookup: str } },
          outside_population: {
            type: 'object',
            required: ['applies_to', 'rule_id', 'reason'],
            description: 'scope_gap false: a verified rule exists, but the question says the member is outside its population (an MA plan without drug coverage under the MA-PD rule), so it does not speak for them',
            properties: { applies_to: str, rule_id: str, reason: str },
          },
        },
      },
    },
    clarification: nullable({ type: 'object', required: ['missing', 'message', 'choices'], properties: { missing: { type: 'array', items: { enum: ['state', 'program', 'subject'] } }, message: str, choices: { type: 'object' } } }),
    passages: { type: 'array', items: { type: 'object', required: ['rule_id', 'text', 'score', 'source_url'] } },
    grounding: { const: 'keyword' },
    timestamp: isoMs,
  },
};
