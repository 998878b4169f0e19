// Endpoints 6, 10, 11, 12, 13 and 15: free-text ask, the drug crosswalk, topics, the compliance grid and similar
// rules. Each reads the in-memory read model; scope is applied before anything is revealed.
import { planAnswer, ASK_MAX_QUESTION_CHARS } from '../../services/ask/answer.js';
import { complianceGrid, RULE_ID_PATTERN } from '../../services/explore/compliance.js';
import { crosswalk, type CrosswalkBy } from '../../services/explore/crosswalk.js';
import { mergeScopes, namedScope, scopeOfRuleId } from '../../domain/named-scope.js';
import { scopeFilter } from '../../services/explore/scope.js';
import { SIMILAR_LIMIT_DEFAULT, SIMILAR_LIMIT_MAX, SIMILAR_SCOPES, similarRules, type SimilarQuery, type SimilarScope } from '../../services/explore/similar.js';
import { listTopics, SLUG_PATTERN, topicDetail } from '../../services/explore/topics.js';
import { ApiError, badRequest, notFound } from '../../domain/api-error.js';
import { isoDate } from '../../domain/time.js';
import { AskResponse, ComplianceResponse, CrosswalkNotFound, CrosswalkResponse, SimilarResponse, TopicDetailResponse, TopicListResponse } from '../openapi-explore-schemas.js';
import { ErrorBody, RateLimitError } from '../openapi-schemas.js';
import { parseProgram, parseState, single } from '../params.js';
import type { RouteDef } from '../../api/route.js';

const err = (description: string, schema: Record<string, unknown> = ErrorBody) => ({ description, schema });
const q = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ name, in: 'query', required: false, description, schema });

/** Exactly one of the named parameters. */
function exactlyOne<N extends string>(query: URLSearchParams, names: readonly N[]): { name: N; value: string } {
  const given = names.map((name) => ({ name, value: single(query, name) })).filter((g): g is { name: N; value: string } => g.value !== undefined);
  if (given.length !== 1) {
    throw badRequest(`Give exactly one of ${names.join(', ')} (got ${given.length ? given.map((g) => g.name).join(' and ') : 'none'})`, given.length ? 'conflicting_parameters' : 'missing_parameter');
  }
  return given[0]!;
}

const crosswalkRoute: RouteDef = {
  id: 'drug-crosswalk',
  method: 'GET',
  path: '/v1/drug-crosswalk',
  auth: 'none',
  surface: 'json',
  cache: 'public, max-age=300, s-maxage=3600',
  handle(ctx, deps) {
    const by = exactlyOne<CrosswalkBy>(ctx.query, ['class', 'brand', 'generic']);
    const format = single(ctx.query, 'format') ?? 'flat';
    if (format !== 'flat' && format !== 'grouped') throw badRequest(`Invalid format '${format.slice(0, 20)}': expected flat or grouped`);
    if (by.value.length > 100) throw badRequest(`'${by.name}' is longer than 100 characters`);
    const out = crosswalk(deps.corpus.current, by.name, by.value, format);
    if (out.kind === 'not_found') {
      // An unknown class is an invalid drug_class_code (spec endpoint 10: 400); an unknown brand or generic name is a
      // name the crosswalk does not hold (404). Both list close names.
      if (by.name === 'class') throw new ApiError(400, 'invalid_parameter', `'${by.value.slice(0, 60)}' is not a drug class code or label`, { parameter: 'class', suggestions: out.suggestions }, {}, 'class');
      throw notFound(`No ${by.name} name matches '${by.value.slice(0, 60)}'`, { suggestions: out.suggestions });
    }
    return { status: 200, body: out.body };
  },
  openapi: {
    summary: 'Drug crosswalk: class to generic and brand names, or a name to its class',
    description:
      'Exactly one of `class` (a drug_class_code, or its label), `brand` or `generic`. Matching ignores case, spaces and punctuation; a combination generic also answers to each of its parts. `format=flat` (default) answers one row per generic; `grouped` one group per drug class. RxNorm ingredient codes appear where the crosswalk has them (null otherwise). Public: reference data. An unknown class is a 400 and an unknown brand or generic name a 404; both list close names.',
    tags: ['reference'],
    parameters: [q('class', 'A drug_class_code to expand'), q('brand', 'A brand name to resolve'), q('generic', 'A generic name to resolve'), q('format', 'flat (default) or grouped', { enum: ['flat', 'grouped'] })],
    responses: {
      '200': { description: 'Crosswalk rows', schema: CrosswalkResponse },
      '400': err('Not exactly one of class, brand, generic; a bad format; or a class that is not a drug class code or label (`suggestions` lists close ones)'),
      '404': err('No brand or generic name matches; `suggestions` lists close names', CrosswalkNotFound),
    },
  },
};

const topicsRoute: RouteDef = {
  id: 'topics',
  method: 'GET',
  path: '/v1/topics',
  auth: 'key',
  group: 'explore',
  surface: 'json',
  cache: 'private, max-age=300',
  handle: (ctx, deps) => ({ status: 200, body: listTopics(deps.corpus.current, scopeFilter(ctx.principal as never)) }),
  openapi: {
    summary: 'Approved topics with their match counts',
    description: 'Spec 2.8. A match is a regulatory event tagged with the topic (or naming its classes, categories, CMS rule or keywords) or a rule for one of its classes or categories; counts cover only the states and programs of the key.',
    tags: ['topics'],
    responses: { '200': { description: 'Topic list', schema: TopicListResponse }, '401': err('Missing or invalid x-api-key'), '429': err('Rate limit exceeded', RateLimitError) },
  },
};

const topicRoute: RouteDef = {
  id: 'topic-detail',
  method: 'GET',
  path: '/v1/topics/:slug',
  auth: 'key',
  group: 'explore',
  surface: 'json',
  cache: 'private, max-age=300',
  handle(ctx, deps) {
    const slug = ctx.params.slug ?? '';
    if (!SLUG_PATTERN.test(slug) || slug.length > 64) throw badRequest(`Invalid topic slug '${slug.slice(0, 40)}': expected ^[a-z0-9-]+$`, 'invalid_parameter', 'slug');
    const body = topicDetail(deps.corpus.current, slug, scopeFilter(ctx.principal as never), ctx.now);
    if (!body) throw notFound(`No approved topic '${slug}'`);
    return { status: 200, body };
  },
  openapi: {
    summary: 'One approved topic: per-jurisdiction counts and status hints, up to 50 sample events (newest first)',
    description: 'Spec 2.8 and 4.3 rule 6. A topic matches its own events (tagged with it or naming its CMS rule) and, within its scope (`match.programs` / `match.jurisdictions` when stated, e.g. WISeR: Original Medicare in its six states), events naming its classes, categories or keywords and rules for its classes or categories; a regulation topic does not take in another regulation\'s events that way. `by_jurisdiction` has every jurisdiction in the key scope; `status_hint` comes from the newest matched event there when it dates from the last two years (expanding for model starts and expansions, rule_change for rules, list updates and compliance events), `active` where only older events or only rules match, `no_data` where nothing does.',
    tags: ['topics'],
    parameters: [{ name: 'slug', in: 'path', required: true, description: 'Topic slug', schema: { type: 'string', pattern: '^[a-z0-9-]+$' } }],
    responses: {
      '200': { description: 'Topic detail', schema: TopicDetailResponse },
      '400': err('Invalid slug'),
      '401': err('Missing or invalid x-api-key'),
      '404': err('Unknown or unapproved topic'),
      '429': err('Rate limit exceeded', RateLimitError),
    },
  },
};

const complianceRoute: RouteDef = {
  id: 'compliance',
  method: 'GET',
  path: '/api/v1/compliance/:rule_id',
  auth: 'none',
  surface: 'json',
  cache: 'public, max-age=300, s-maxage=3600',
  handle(ctx, deps) {
    const id = ctx.params.rule_id ?? '';
    if (!RULE_ID_PATTERN.test(id)) throw badRequest(`Invalid rule_id '${id.slice(0, 40)}': expected a CMS rule identifier such as CMS-0057-F (^[A-Z0-9-]{3,32}$)`, 'invalid_parameter', 'rule_id');
    const body = complianceGrid(deps.corpus.current, id, isoDate(deps.now()));
    if (!body) throw notFound(`No announcement event names ${id}`);
    return { status: 200, body };
  },
  openapi: {
    summary: 'Per-jurisdiction compliance with a CMS rule, with summary counts',
    description: "Every jurisdiction's status (in_compliance, partial, overdue, not_yet_due, unknown) as of today (`as_of`). Each provision of the rule (a federal compliance or reporting date, or a date the jurisdiction's own event names) is read from the newest event that states a status for it: `not_yet_due` before its date; once in force, the stated status, or `unknown` when none is stated or the statement was `not_yet_due`. A jurisdiction is `not_yet_due` only while none of its provisions is in force; otherwise `in_compliance` when all in force are met, `overdue` when any is overdue, `partial` when some are met, `unknown` when none is known. `provisions` lists each one; `event_id` is the jurisdiction's event the status comes from. Federal events of the rule are listed in `federal_events`.",
    tags: ['reference'],
    parameters: [{ name: 'rule_id', in: 'path', required: true, description: 'A CMS rule identifier, e.g. CMS-0057-F', schema: { type: 'string', pattern: '^[A-Z0-9-]{3,32}$' } }],
    responses: { '200': { description: 'Compliance grid', schema: ComplianceResponse }, '400': err('Invalid rule_id format'), '404': err('No event names the rule') },
  },
};

const similarRoute: RouteDef = {
  id: 'rules-similar',
  method: 'GET',
  path: '/v1/rules/similar',
  auth: 'key',
  group: 'explore',
  surface: 'json',
  cache: 'private, max-age=300',
  // A rule id names a state and program by its own text (tx.medicaid-mco.d.hepatitis-c): authorized first.
  scope: (ctx) => [...ctx.query.getAll('rule_id'), ...ctx.query.getAll('drug_rule_id')].map((id) => scopeOfRuleId(id.trim())).reduce(mergeScopes, { states: [], programs: [] }),
  handle(ctx, deps) {
    const by = exactlyOne(ctx.query, ['rule_id', 'drug_rule_id', 'q'] as const);
    const scope = (single(ctx.query, 'scope') ?? 'same_subject') as SimilarScope;
    if (!SIMILAR_SCOPES.includes(scope)) throw badRequest(`Invalid scope '${scope.slice(0, 30)}': expected one of ${SIMILAR_SCOPES.join(', ')}`);
    const rawLimit = single(ctx.query, 'limit');
    const limit = rawLimit === undefined ? SIMILAR_LIMIT_DEFAULT : Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > SIMILAR_LIMIT_MAX || !/^\d+$/.test(rawLimit ?? '1')) throw badRequest(`Invalid limit '${String(rawLimit).slice(0, 10)}': an integer from 1 to ${SIMILAR_LIMIT_MAX}`);
    if (by.value.length > 200) throw badRequest(`'${by.name}' is longer than 200 characters`);
    const query: SimilarQuery = by.name === 'q' ? { by: 'q', text: by.value } : { by: by.name, id: by.value };
    const out = similarRules(deps.corpus.current, query, scope, limit, scopeFilter(ctx.principal as never));
    if (out.kind === 'outside_scope') ctx.authorize(out.scope); // throws the 403
    if (out.kind === 'not_found' || out.kind === 'outside_scope') throw notFound(`No rule '${by.value.slice(0, 64)}'`);
    if (out.kind === 'not_a_drug_rule') throw badRequest(`'${by.value.slice(0, 64)}' is a service rule; use rule_id`, 'invalid_parameter', 'drug_rule_id');
    return { status: 200, body: out.body };
  },
  openapi: {
    summary: 'Rules similar to a rule (or to a free-text query) across states, ranked, with reasons',
    description:
      'One of `rule_id`, `drug_rule_id` (a drug rule) or `q` (free text, full-text ranked). `scope`: `same_subject` (default: the same drug class or service in every state and program), `same_program` (same subject and program), `same_state` (every subject in the rule\'s state), `all`. `limit` 1-50 (default 10). Score = 0.35 same subject + 0.2 same program + 0.15 same PA requirement + 0.1 same pa_type + 0.2 word overlap of criteria and documentation; each result lists the reasons. Only rules in the key scope are compared or returned. A rule id outside the key scope is a 403 naming the state or program (`out_of_scope`), whether or not the rule exists when the id has the usual form (`tx.medicaid-mco.d.hepatitis-c`, `humana.tx.part-d.d.hepatitis-c`); an unknown id is a 404.',
    tags: ['decision-support'],
    parameters: [
      q('rule_id', 'A rule id (from rule_id in any answer)'),
      q('drug_rule_id', 'A drug rule id'),
      q('q', 'Free text'),
      q('scope', 'same_subject (default), same_program, same_state, all', { enum: [...SIMILAR_SCOPES] }),
      q('limit', `1 to ${SIMILAR_LIMIT_MAX}, default ${SIMILAR_LIMIT_DEFAULT}`, { type: 'integer', minimum: 1, maximum: SIMILAR_LIMIT_MAX }),
    ],
    responses: {
      '200': { description: 'Ranked similar rules', schema: SimilarResponse },
      '400': err('Not exactly one of rule_id, drug_rule_id, q; bad scope or limit'),
      '401': err('Missing or invalid x-api-key'),
      '403': err('The rule id names a state or program outside the key subscription (named in out_of_scope)'),
      '404': err('Unknown rule id'),
      '429': err('Rate limit exceeded', RateLimitError),
    },
  },
};

const askRoute: RouteDef = {
  id: 'ask',
  method: 'POST',
  path: '/v1/ask',
  auth: 'key',
  group: 'ask',
  surface: 'json',
  cache: 'no-store',
  handle(ctx, deps) {
    const body = ctx.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Send a JSON object: {"question": "...", "state": "TX", "program": "medicaid_mco"}', 'invalid_body');
    const { question, state, program } = body as Record<string, unknown>;
    // The hints name a state and program: outside the subscription, the 403 comes before any other check.
    ctx.authorize(namedScope({ states: [state], programs: [program] }));
    if (question === undefined || question === null || (typeof question === 'string' && !question.trim())) throw badRequest("'question' is required: a non-empty string", 'missing_parameter', 'question');
    if (typeof question !== 'string') throw badRequest("'question' must be a string", 'invalid_parameter', 'question');
    // Over the documented maximum is a 413, the same status as a body over BODY_LIMIT (the question is the payload).
    if (question.length > ASK_MAX_QUESTION_CHARS) throw new ApiError(413, 'payload_too_large', `'question' is ${question.length} characters; at most ${ASK_MAX_QUESTION_CHARS} are read`, { parameter: 'question', max_length: ASK_MAX_QUESTION_CHARS });
    if (state !== undefined && (typeof state !== 'string' || !/^[A-Z]{2}$/.test(state))) throw badRequest("'state' must be a USPS code such as TX (^[A-Z]{2}$)", 'invalid_parameter', 'state');
    if (program !== undefined && typeof program !== 'string') throw badRequest("'program' must be a string such as medicaid_mco", 'invalid_parameter', 'program');
    const plan = planAnswer(deps.corpus.current, {
      question: question.trim(),
      ...(state ? { state: parseState(state) } : {}),
      ...(program ? { program: parseProgram(program) } : {}),
    });
    ctx.authorize(plan.scope);
    return { status: 200, body: plan.answer(scopeFilter(ctx.principal as never), ctx.now) };
  },
  openapi: {
    summary: 'Ask in plain words: the rule, its citation and next steps, or what is missing',
    description: `Body: {question (1-${ASK_MAX_QUESTION_CHARS} characters), state?, program?}; the hints win over the text. The answer shows what was read (\`extracted\`: state by name (or a misspelt name: \`fuzzy_name\`), code, program name or plan name; program by synonym, plan name or a qualifier beside a program name (\"Ohio Medicaid fee-for-service\"), with any assumption stated; drugs by brand, generic (misspellings within a small edit distance), class words or class phrases (\"compounded topical pain cream\"); services by words or CPT/HCPCS codes). \`status\`: answered, partial (some subjects have no rule), no_rule, or clarification_needed with \`clarification.missing\` and the \`choices\`. \`passages\` are the best-matching rule sentences from a full-text index (MiniSearch, BM25-style); \`grounding\` is keyword. A state or program outside the key scope, named in the question or the hints, is a 403 before anything else is checked or answered (README, Choices: Outside your scope).`,
    tags: ['lookup'],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['question'],
            properties: { question: { type: 'string', minLength: 1, maxLength: ASK_MAX_QUESTION_CHARS }, state: { type: 'string', pattern: '^[A-Z]{2}$' }, program: { type: 'string' } },
          },
        },
      },
    },
    responses: {
      '200': { description: 'The answer, or a clarifying request', schema: AskResponse },
      '400': err('Missing or malformed question, bad state or program hint'),
      '401': err('Missing or invalid x-api-key'),
      '403': err('The state or program asked about is outside the key subscription'),
      '413': err(`Body larger than BODY_LIMIT, or a question over ${ASK_MAX_QUESTION_CHARS} characters (code payload_too_large, with parameter and max_length)`),
      '429': err('Rate limit exceeded', RateLimitError),
    },
  },
};

export const exploreRoutes: readonly RouteDef[] = [askRoute, crosswalkRoute, topicsRoute, topicRoute, complianceRoute, similarRoute];
