// Response schemas and parameters of the decision-support endpoints (compare, compare-payers, action-plan).
// Kept beside openapi-schemas.ts, whose shared pieces (PaRule, QueryEcho) they reuse.
import { DRUG_CLASSES, JURISDICTIONS, PA_EFFECTS, PROGRAMS, SERVED_FROM, SERVICE_CATEGORIES } from '../domain/vocabulary.js';
import { ACTION_KINDS, DENIAL_BASES, URGENCIES } from '../services/action-plan/rank-actions.js';
import { COMPARE_GAP_FIELDS, GAP_RULE_FIELDS } from '../services/pa-rule.js';
import { Evidence, OutsideProgram, PaRule, date, isoMs } from './openapi-schemas.js';

const nullableDate = { oneOf: [date, { type: 'null' }] };
/** Schema properties for the fields a gap row carries as null (the same lists the services use). */
const nullProps = (fields: readonly string[]) => Object.fromEntries(fields.map((f) => [f, { type: 'null' }]));
const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };

const DecisionQueryEcho = {
  type: 'object',
  description: '`drug_class` for a drug, `service_category` for a service (also when resolved from `code`), plus `code` when one was given.',
  properties: {
    drug_class: { enum: [...DRUG_CLASSES] },
    service_category: { enum: [...SERVICE_CATEGORIES] },
    code: { type: 'string', pattern: '^[A-Z0-9]{5}$' },
  },
  minProperties: 1,
};

export const CodeResolutionSchema = {
  description: 'How `code` was resolved to a service category: the state PA code list first, then national ranges, then the built-in range table.',
  oneOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['code', 'system', 'service_category', 'matched_by', 'mapping_id', 'description', 'source'],
      properties: {
        code: str,
        system: { enum: ['CPT', 'HCPCS'] },
        service_category: { enum: [...SERVICE_CATEGORIES] },
        matched_by: { enum: ['state_pa_list', 'national_range', 'builtin_range'] },
        mapping_id: nullableStr,
        description: str,
        source: { oneOf: [{ type: 'null' }, { type: 'object', required: ['title', 'url'], properties: { title: str, url: str } }] },
      },
    },
  ],
};

// ---- compare ---------------------------------------------------------------------------------------------------
const CompareRuleItem = {
  type: 'object',
  required: ['state_abbr', 'gap', 'pa_required', 'pa_type', 'confidence', 'notes', 'source_url', 'last_verified', 'rule_id'],
  properties: { ...PaRule.properties, state_abbr: { enum: [...JURISDICTIONS] }, gap: { const: false } },
};
const CompareGapItem = {
  type: 'object',
  description: 'A requested state with no verified rule: `gap: true` and every rule field null.',
  required: ['state_abbr', 'gap', ...COMPARE_GAP_FIELDS],
  properties: {
    state_abbr: { enum: [...JURISDICTIONS] },
    gap: { const: true },
    ...nullProps(COMPARE_GAP_FIELDS),
    outside_program: { ...OutsideProgram, description: 'Present when no rule will exist for this state and program (Medicaid managed care in a state with no plans): why, and which programs to ask instead' },
  },
};

export const CompareResponse = {
  type: 'object',
  required: ['states', 'program', 'query', 'summary', 'results', 'served_from', 'timestamp'],
  properties: {
    states: { type: 'array', items: { enum: [...JURISDICTIONS] }, minItems: 2, maxItems: 10 },
    program: { enum: [...PROGRAMS] },
    query: DecisionQueryEcho,
    summary: {
      type: 'object',
      required: ['total', 'require_pa', 'no_pa', 'divergence', 'divergence_summary'],
      properties: {
        total: { type: 'integer', description: 'Requested states; require_pa + no_pa + not_covered + gaps = total' },
        require_pa: { type: 'integer' },
        no_pa: { type: 'integer', description: 'States whose rule says PA is not required; a state that does not cover the subject is counted in not_covered instead' },
        not_covered: { type: 'integer', description: 'States whose program does not cover the subject (an exclusion: no PA route, a claim will be denied)' },
        gaps: { type: 'integer' },
        divergence: { type: 'boolean' },
        divergence_summary: str,
        outliers: {
          type: 'object',
          required: ['pa_required', 'pa_type'],
          properties: { pa_required: { type: 'array', items: str }, pa_type: { type: 'array', items: str } },
        },
        gap_states: { type: 'array', items: str },
        not_covered_states: { type: 'array', items: str, description: 'The states counted in not_covered, in request order' },
      },
    },
    results: { type: 'array', items: { oneOf: [CompareRuleItem, CompareGapItem] }, minItems: 2, maxItems: 10 },
    outside_program: { ...OutsideProgram, description: 'Present when the subject is outside the program\'s benefit (a non-drug service under Part D): every state is a gap no rule will fill; ask these programs instead' },
    served_from: { enum: [...SERVED_FROM] },
    timestamp: isoMs,
  },
};

// ---- compare-payers ----------------------------------------------------------------------------------------------
const payerHead = {
  payer_id: str,
  payer_name: str,
  payer_kind: nullableStr,
  program: { enum: [...PROGRAMS] },
};
const PayerRuleItem = {
  type: 'object',
  required: ['payer_id', 'payer_name', 'program', 'gap', 'pa_required', 'source_url', 'last_verified'],
  properties: { ...PaRule.properties, ...payerHead, gap: { const: false } },
};
const PayerGapItem = {
  type: 'object',
  description: 'A payer the corpus lists in the state for the program, without a verified rule for the subject.',
  required: ['payer_id', 'payer_name', 'program', 'gap', 'pa_required', 'source_url', 'last_verified'],
  properties: { ...payerHead, gap: { const: true }, ...nullProps(GAP_RULE_FIELDS) },
};

export const ComparePayersResponse = {
  type: 'object',
  required: ['state', 'program', 'query', 'code_resolution', 'summary', 'payers', 'program_rules', 'served_from', 'timestamp'],
  properties: {
    state: { enum: [...JURISDICTIONS] },
    program: { oneOf: [{ enum: [...PROGRAMS] }, { type: 'null' }], description: 'The program filter, or null for every program' },
    query: DecisionQueryEcho,
    code_resolution: CodeResolutionSchema,
    summary: {
      type: 'object',
      required: ['total', 'with_rule', 'gaps', 'require_pa', 'no_pa', 'not_covered', 'programs_not_covered', 'divergence', 'divergence_summary'],
      properties: {
        total: { type: 'integer' },
        with_rule: { type: 'integer' },
        gaps: { type: 'integer' },
        require_pa: { type: 'integer' },
        no_pa: { type: 'integer', description: 'Payers whose rule says PA is not required; a payer that does not cover the subject is counted in not_covered instead' },
        not_covered: { type: 'integer', description: 'Payers whose rule says the subject is not covered (an exclusion)' },
        programs_not_covered: {
          type: 'array',
          items: { enum: [...PROGRAMS] },
          description: "Programs whose program-level rule (program_rules) says the subject is not covered: a payer in such a program without a rule of its own follows it. divergence_summary ends with one sentence on the program rules",
        },
        divergence: { type: 'boolean' },
        divergence_summary: str,
      },
    },
    payers: { type: 'array', items: { oneOf: [PayerRuleItem, PayerGapItem] } },
    program_rules: {
      type: 'array',
      description: "The state's program-level rule for each program that has one: the default a payer-level rule refines",
      items: { type: 'object', required: ['program', 'pa_required', 'source_url', 'last_verified'], properties: { ...PaRule.properties, program: { enum: [...PROGRAMS] } } },
    },
    outside_program: {
      ...OutsideProgram,
      description: 'With a program filter, present when no rule will exist for that program here (a non-drug service under Part D; Medicaid managed care in a state with no plans): why, and which programs to ask instead',
    },
    served_from: { enum: [...SERVED_FROM] },
    timestamp: isoMs,
  },
};

// ---- action plan ---------------------------------------------------------------------------------------------------
const citation = { type: 'object', required: ['title', 'url'], properties: { title: str, url: nullableStr, evidence: { type: 'array', items: Evidence } } };
const signal = {
  type: 'object',
  required: ['name', 'value', 'weight'],
  properties: { name: str, value: { type: ['string', 'number', 'boolean'] }, weight: { type: 'number' } },
};
const RankedAction = {
  type: 'object',
  required: ['rank', 'kind', 'title', 'score', 'deadline', 'deadline_basis', 'rationale', 'signals', 'citations', 'confidence'],
  properties: {
    rank: { type: 'integer', minimum: 1 },
    kind: { enum: [...ACTION_KINDS] },
    title: str,
    score: { type: 'number', minimum: 0, maximum: 100 },
    deadline: { ...nullableDate, description: 'YYYY-MM-DD, or null when the action has no deadline of its own (deadline_basis says why)' },
    deadline_basis: str,
    decision_expected_by: date,
    rationale: str,
    signals: { type: 'array', items: signal },
    citations: { type: 'array', items: citation },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    caveat: { type: 'string', description: 'Present when the deadline rests on an unconfirmed ([M]) fact' },
  },
};
const contact = {
  type: 'object',
  required: ['role', 'name', 'source'],
  properties: {
    role: str,
    name: str,
    phone: str,
    fax: str,
    url: str,
    hours: str,
    source: { enum: ['rule', 'jurisdiction', 'payer'] },
    payer_id: str,
  },
};
const clock = { oneOf: [{ type: 'null' }, { type: 'object', required: ['text', 'status'], properties: { text: str, status: { enum: ['confirmed', 'unconfirmed'] } } }] };
const factStatus = { enum: ['confirmed', 'unconfirmed'] };
const ladderStep = {
  type: 'object',
  required: ['level', 'name', 'automatic', 'filing_window_days', 'filing_from', 'filing_deadline', 'decision', 'status', 'confidence', 'citations'],
  properties: {
    level: { type: 'integer' },
    name: str,
    automatic: { type: 'boolean' },
    filing_window_days: { type: ['integer', 'null'] },
    filing_from: nullableStr,
    filing_deadline: nullableDate,
    decision: { type: 'object', required: ['standard', 'expedited'], properties: { standard: clock, expedited: clock } },
    status: factStatus,
    confidence: { type: 'number' },
    caveat: str,
    citations: { type: 'array', items: citation },
  },
};
const changeWindow = {
  type: 'object',
  required: ['event_id', 'title', 'event_kind', 'jurisdiction', 'date', 'date_kind', 'days_until', 'rule_id', 'source_url', 'pa_effect', 'changes_answer'],
  properties: {
    event_id: { type: 'integer' },
    title: str,
    event_kind: str,
    jurisdiction: str,
    date,
    date_kind: { enum: ['effective', 'comment_deadline', 'compliance'] },
    days_until: { type: 'integer', minimum: 1 },
    rule_id: nullableStr,
    source_url: nullableStr,
    pa_effect: { enum: [...PA_EFFECTS, null], description: 'What the event changes: requirement, decision, process (APIs), reporting, announcement; null when not stated' },
    changes_answer: { type: 'boolean', description: 'The event changes the PA requirement or decision for this subject and this is its effective or compliance date: only such a window, within 180 days, supports `wait`' },
  },
};
const basisKind = { enum: ['verified_rule', 'payer_rules_estimate', 'appeal_ladder_only'] };

export const ActionPlanResponse = {
  type: 'object',
  required: ['state', 'program', 'query', 'rule', 'action_plan', 'provenance', 'supporting_criteria', 'grounding'],
  properties: {
    state: { enum: [...JURISDICTIONS] },
    program: { enum: [...PROGRAMS] },
    query: DecisionQueryEcho,
    code_resolution: CodeResolutionSchema,
    rule: { oneOf: [{ type: 'null' }, PaRule] },
    action_plan: {
      type: 'object',
      required: ['ranked_actions', 'primary', 'basis', 'contacts', 'state_specifics'],
      properties: {
        ranked_actions: { type: 'array', minItems: 1, items: RankedAction },
        primary: RankedAction,
        basis: {
          type: 'object',
          required: ['kind', 'summary', 'member_context', 'notice_date', 'as_of'],
          properties: { kind: basisKind, summary: str, member_context: { type: 'object' }, notice_date: nullableDate, as_of: date },
        },
        contacts: { type: 'array', items: contact },
        state_specifics: {
          type: 'object',
          required: ['jurisdiction', 'appeal_ladder', 'appeal_notes', 'change_windows'],
          properties: {
            jurisdiction: { type: ['object', 'null'] },
            appeal_ladder: {
              type: 'object',
              required: ['program', 'summary', 'status', 'steps', 'continued_benefits'],
              properties: {
                program: { enum: [...PROGRAMS] },
                summary: str,
                status: factStatus,
                steps: { type: 'array', items: ladderStep, minItems: 1 },
                continued_benefits: {
                  oneOf: [
                    { type: 'null' },
                    {
                      type: 'object',
                      required: ['window_days', 'from', 'condition', 'deadline', 'status', 'confidence', 'citations'],
                      properties: {
                        window_days: { type: 'integer' },
                        from: str,
                        condition: str,
                        deadline: nullableDate,
                        status: factStatus,
                        confidence: { type: 'number' },
                        caveat: str,
                        citations: { type: 'array', items: citation },
                      },
                    },
                  ],
                },
                notes: nullableStr,
              },
            },
            appeal_notes: nullableStr,
            change_windows: { type: 'array', items: changeWindow, maxItems: 10 },
          },
        },
        not_applicable: {
          type: 'array',
          description: 'The action kinds left out of the ranking, each with the reason',
          items: { type: 'object', required: ['kind', 'reason'], properties: { kind: { enum: [...ACTION_KINDS] }, reason: str } },
        },
      },
    },
    provenance: {
      type: 'object',
      required: ['verified', 'basis', 'label', 'confidence', 'last_verified', 'source_url'],
      properties: {
        verified: { type: 'boolean' },
        basis: basisKind,
        label: str,
        confidence: { type: 'number', minimum: 0, maximum: 1 },
        last_verified: nullableDate,
        source_url: nullableStr,
        caveats: { type: 'array', items: str },
      },
    },
    supporting_criteria: { type: 'array', items: { type: 'object', required: ['kind'], properties: { kind: str } } },
    grounding: { enum: ['semantic', 'keyword'] },
    timestamp: isoMs,
  },
};

// ---- parameters ------------------------------------------------------------------------------------------------------
const q = (name: string, description: string, schema: Record<string, unknown>, required = false) => ({ name, in: 'query', required, description, schema });
const bool = { type: 'string', enum: ['true', 'false'] };

export const statesParam = {
  ...q('states', '2 to 10 comma-separated USPS codes, no duplicates; lower case is upper-cased before the pattern is checked', { type: 'string', pattern: '^[A-Z]{2}(,[A-Z]{2}){1,9}$' }, true),
  example: 'TX,OK',
};
export const codeParam = q(
  'code',
  'A CPT or HCPCS code (e.g. 70553, E0601, 0042T), resolved to a service category through the state PA code list, then national ranges, then the built-in range table',
  { type: 'string', pattern: '^[A-Za-z0-9]{5}$' },
);
export const optionalProgramParam = q('program', 'Restrict to one program', { type: 'string', enum: [...PROGRAMS] });

export const memberContextParams = [
  q('denied', 'Whether the request was already denied', bool),
  q('denial_basis', 'Why it was denied (needs denied=true)', { type: 'string', enum: [...DENIAL_BASES] }),
  q('denial_days_ago', 'Days since the denial notice (needs denied=true); an integer, never a date', { type: 'integer', minimum: 0, maximum: 3650 }),
  q('urgency', 'urgent drives expedited clocks', { type: 'string', enum: [...URGENCIES] }),
  q('drug_cost_usd', 'Approximate out-of-pocket cost in USD (at most two decimals)', { type: 'number', minimum: 0, maximum: 10_000_000 }),
  q('has_alternative', 'A clinical alternative exists', bool),
  q('alternative_no_pa', 'The alternative needs no PA (implies has_alternative=true)', bool),
  q('open_enrollment_near', 'An enrollment window is near', bool),
  q('recurring', 'A recurring or repeat denial', bool),
];
