// Endpoints 3, 4, 5: multi-state compare, cross-payer compare, ranked action plans. Parameter parsing lives here
// (one parse step per endpoint); the services are pure and take the read model and the clock.
import type { ReadModel } from '../../corpus/read-model.js';
import { isJurisdiction, PROGRAMS, type Program } from '../../domain/vocabulary.js';
import { buildActionPlan } from '../../services/action-plan/build-plan.js';
import type { ActionPlanQuery } from '../../services/action-plan/plan-types.js';
import { DEFAULT_CONTEXT, DENIAL_BASES, URGENCIES, type DenialBasis, type MemberContext, type Urgency } from '../../services/action-plan/rank-actions.js';
import { comparePayers } from '../../services/compare-payers.js';
import { completeCompareBody, compareStatesPrefix, type CompareQuery } from '../../services/compare-states.js';
import { gapDetails, toQueryEcho, type SubjectQuery } from '../../services/lookup.js';
import { CODE_PATTERN, resolveCode, type CodeResolution } from '../../corpus/resolve-code.js';
import { ApiError, badRequest } from '../../domain/api-error.js';
import {
  ActionPlanResponse,
  ComparePayersResponse,
  CompareResponse,
  codeParam,
  memberContextParams,
  optionalProgramParam,
  statesParam,
} from '../openapi-decision-schemas.js';
import { categoryAlias, drugClassAlias, drugParam, programParam, serviceParam, stateParam } from '../openapi-params.js';
import { ErrorBody, RateLimitError, ScopeGapError } from '../openapi-schemas.js';
import { namedInQuery, optionalSubject, parseDrug, parseProgram, parseService, requireProgram, requireState, requireSubject, single } from '../params.js';
import type { RouteDef } from '../../api/route.js';

// ---- compare -------------------------------------------------------------------------------------------------------
export const STATES_PATTERN = /^[A-Z]{2}(,[A-Z]{2}){1,9}$/;

export function parseStates(raw: string | undefined): string[] {
  if (raw === undefined) throw badRequest("Missing required parameter 'states' (2 to 10 comma-separated USPS codes, e.g. TX,CA)", 'missing_parameter');
  const v = raw;
  if (!STATES_PATTERN.test(v)) {
    throw badRequest(`Invalid states '${raw.slice(0, 40)}': expected 2 to 10 comma-separated USPS codes matching ^[A-Z]{2}(,[A-Z]{2}){1,9}$`);
  }
  const states = v.split(',');
  const unknown = states.filter((s) => !isJurisdiction(s));
  if (unknown.length) throw badRequest(`Invalid states: ${unknown.join(', ')} ${unknown.length > 1 ? 'are not' : 'is not'} a state USPS code or DC`);
  const seen = new Set<string>();
  const dupes = [...new Set(states.filter((s) => (seen.has(s) ? true : (seen.add(s), false))))];
  if (dupes.length) throw badRequest(`Invalid states: ${dupes.join(', ')} ${dupes.length > 1 ? 'are' : 'is'} listed more than once`);
  return states;
}

function parseCompare(query: URLSearchParams): CompareQuery {
  return { states: parseStates(single(query, 'states')), program: requireProgram(query), subject: requireSubject(query) };
}

function optionalProgram(query: URLSearchParams): Program | undefined {
  const raw = single(query, 'program');
  return raw === undefined ? undefined : parseProgram(raw);
}

// ---- drug / service / code ---------------------------------------------------------------------------------------------
interface DecisionSubject {
  subject: SubjectQuery;
  code?: CodeResolution;
}

export function parseCode(raw: string): string {
  const v = raw.toUpperCase();
  if (!CODE_PATTERN.test(v)) {
    throw badRequest(`Invalid code '${raw.slice(0, 20)}': expected a CPT code (5 digits, or 4 digits and F/T/U) or a HCPCS Level II code (a letter and 4 digits)`);
  }
  return v;
}

/** Exactly one of drug, service or code; a code resolves to a service category for the state. */
function requireDecisionSubject(query: URLSearchParams, state: string, model: ReadModel): DecisionSubject {
  const { drug, service } = optionalSubject(query);
  const rawCode = single(query, 'code');
  const given = [drug && 'drug', service && 'service', rawCode !== undefined && 'code'].filter(Boolean);
  if (given.length > 1) throw badRequest(`Give exactly one of 'drug', 'service' or 'code', not ${given.join(' and ')}`, 'conflicting_parameters');
  if (!given.length) {
    throw badRequest("Give exactly one of 'drug' (a drug class code), 'service' (a service category) or 'code' (a CPT/HCPCS code)", 'missing_parameter');
  }
  if (drug) return { subject: parseDrug(drug.value, drug.name) };
  if (service) return { subject: parseService(service.value, service.name) };
  const code = parseCode(rawCode!);
  const resolved = resolveCode(model, state, code);
  if (!resolved) {
    throw badRequest(`Code ${code} does not resolve to a service category: it is on no ${state} PA code list and in no known CPT/HCPCS range`);
  }
  return { subject: { kind: 'service', code: resolved.service_category }, code: resolved };
}

// ---- action plan -----------------------------------------------------------------------------------------------------
const SUBJECT_NAMES = ['drug', 'drug_class', 'service', 'category', 'service_category', 'code'];
const CONTEXT_NAMES = [
  'denied',
  'denial_basis',
  'denial_days_ago',
  'urgency',
  'drug_cost_usd',
  'has_alternative',
  'alternative_no_pa',
  'open_enrollment_near',
  'recurring',
];
export const ACTION_PLAN_PARAMS: ReadonlySet<string> = new Set(['state', 'program', ...SUBJECT_NAMES, ...CONTEXT_NAMES]);

const printable = (name: string): string => (/^[A-Za-z0-9_.-]{1,40}$/.test(name) ? name : '(unprintable name)');

function rejectUnknown(query: URLSearchParams, allowed: ReadonlySet<string>): void {
  const unknown = [...new Set([...query.keys()].filter((k) => !allowed.has(k)))];
  if (unknown.length) {
    throw badRequest(
      `Unknown parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `'${printable(u)}'`).join(', ')}: member context is a controlled vocabulary (${CONTEXT_NAMES.join(', ')}); free text is not accepted`,
    );
  }
}

// Values of member-context parameters are never echoed in errors: they describe a patient.
function parseBool(query: URLSearchParams, name: string): boolean | undefined {
  const v = single(query, name);
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw badRequest(`Invalid ${name}: expected true or false`);
}

function parseEnum<T extends string>(query: URLSearchParams, name: string, values: readonly T[]): T | undefined {
  const v = single(query, name);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v)) throw badRequest(`Invalid ${name}: expected one of ${values.join(', ')}`);
  return v as T;
}

function parseDays(query: URLSearchParams): number | undefined {
  const v = single(query, 'denial_days_ago');
  if (v === undefined) return undefined;
  if (!/^\d{1,4}$/.test(v) || Number(v) > 3650) throw badRequest('Invalid denial_days_ago: expected a whole number of days from 0 to 3650');
  return Number(v);
}

function parseCost(query: URLSearchParams): number | undefined {
  const v = single(query, 'drug_cost_usd');
  if (v === undefined) return undefined;
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(v) || Number(v) > 10_000_000) {
    throw badRequest('Invalid drug_cost_usd: expected a number of US dollars from 0 to 10000000 with at most two decimals');
  }
  return Number(v);
}

export function parseMemberContext(query: URLSearchParams): MemberContext {
  const denied = parseBool(query, 'denied') ?? false;
  const denialBasis = parseEnum<DenialBasis>(query, 'denial_basis', DENIAL_BASES);
  const denialDaysAgo = parseDays(query);
  const urgency = parseEnum<Urgency>(query, 'urgency', URGENCIES);
  const costUsd = parseCost(query);
  const hasAlternative = parseBool(query, 'has_alternative');
  const alternativeNoPa = parseBool(query, 'alternative_no_pa');
  const openEnrollmentNear = parseBool(query, 'open_enrollment_near');
  const recurring = parseBool(query, 'recurring');
  if (!denied) {
    const needs = [denialBasis !== undefined && 'denial_basis', denialDaysAgo !== undefined && 'denial_days_ago'].filter(Boolean);
    if (needs.length) throw badRequest(`${needs.join(' and ')} need${needs.length > 1 ? '' : 's'} denied=true`, 'conflicting_parameters');
  }
  if (alternativeNoPa === true && hasAlternative === false) {
    throw badRequest('alternative_no_pa=true contradicts has_alternative=false', 'conflicting_parameters');
  }
  return {
    ...DEFAULT_CONTEXT,
    denied,
    denialBasis: denialBasis ?? null,
    denialDaysAgo: denialDaysAgo ?? null,
    urgency: urgency ?? 'routine',
    costUsd: costUsd ?? null,
    hasAlternative: hasAlternative ?? alternativeNoPa ?? false,
    alternativeNoPa: alternativeNoPa ?? false,
    openEnrollmentNear: openEnrollmentNear ?? false,
    recurring: recurring ?? false,
  };
}

function actionPlanGap(model: ReadModel, q: ActionPlanQuery): ApiError {
  const details = gapDetails(model, q);
  return new ApiError(
    404,
    'scope_gap',
    'outside_program' in details
      ? `No rule for ${q.state} ${q.program} ${q.subject.kind} '${q.subject.code}': none will exist (see outside_program), so there is no plan to build here; ask the programs in outside_program.try_programs.`
      : `No verified rule for ${q.state} ${q.program} ${q.subject.kind} '${q.subject.code}' yet, so there is nothing to ground a plan before a decision. After a denial, send denied=true for a plan built on the program's appeal ladder.`,
    {
      scope_gap: true,
      state: q.state,
      program: q.program,
      query: q.code ? { ...toQueryEcho(q.subject), code: q.code.code } : toQueryEcho(q.subject),
      ...details,
    },
  );
}

// ---- the routes -------------------------------------------------------------------------------------------------------
const common401 = { description: 'Missing or invalid x-api-key', schema: ErrorBody };
const common429 = { description: 'Rate limit exceeded', schema: RateLimitError };

export const decisionRoutes: RouteDef[] = [
  {
    id: 'compare',
    method: 'GET',
    path: '/v1/compare',
    auth: 'key',
    group: 'compare',
    addOn: 'compare',
    surface: 'json',
    cache: 'private, max-age=3600',
    scope: (ctx) => namedInQuery(ctx.query, { states: ['states'], programs: ['program'] }),
    handle(ctx, deps) {
      const q = parseCompare(ctx.query);
      return { status: 200, body: { raw: completeCompareBody(compareStatesPrefix(deps.corpus.current, q), ctx.now) } };
    },
    openapi: {
      summary: 'One program and drug class or service category compared across 2 to 10 states',
      description:
        'Results come in the requested order. A state without a verified rule is a gap item (`gap: true`, rule fields null), never dropped. ' +
        '`summary.divergence_summary` names the outlier states: the minority answer on PA required and, among states requiring PA, a pa_type that differs from the most common one. Needs the Compare add-on.',
      tags: ['compare'],
      parameters: [statesParam, programParam, drugParam, serviceParam, drugClassAlias, categoryAlias],
      responses: {
        '200': { description: 'Per-state results and the divergence summary', schema: CompareResponse },
        '400': { description: 'Invalid parameters: states list malformed, unknown or duplicated; both or neither of drug and service; bad program', schema: ErrorBody },
        '401': common401,
        '403': { description: 'A state or program outside the subscription (named in out_of_scope), or no Compare add-on', schema: ErrorBody },
        '429': common429,
      },
    },
  },
  {
    id: 'compare-payers',
    method: 'GET',
    path: '/v1/compare-payers',
    auth: 'key',
    group: 'compare_payers',
    surface: 'json',
    cache: 'private, max-age=3600',
    // Without a program the answer spans every program: the key must cover them all (or name one).
    scope(ctx) {
      const named = namedInQuery(ctx.query, { states: ['state'], programs: ['program'] });
      // A program given but invalid names nothing (its 400 comes after the state's 403); none given spans them all.
      if (ctx.query.getAll('program').some((v) => v.trim())) return named;
      return { ...named, programs: PROGRAMS, hint: 'name one with program= to compare the payers of a program this key covers' };
    },
    handle(ctx, deps) {
      const state = requireState(ctx.query);
      const program = optionalProgram(ctx.query);
      const { subject, code } = requireDecisionSubject(ctx.query, state, deps.corpus.current);
      return { status: 200, body: { ...comparePayers(deps.corpus.current, { state, subject, program, code }), timestamp: ctx.now.toISOString() } };
    },
    openapi: {
      summary: 'Every payer the corpus knows in one state, with its rule for one drug class, service category or CPT/HCPCS code',
      description:
        'Exactly one of drug, service or code. A code resolves to a service category through the state PA code list, then national CPT/HCPCS ranges (see `code_resolution`). ' +
        'Payers listed for the state without a rule for the subject are gap items. `program_rules` holds the program-level rules of the state, the defaults a payer rule refines.',
      tags: ['compare'],
      parameters: [stateParam(), drugParam, serviceParam, codeParam, optionalProgramParam, drugClassAlias, categoryAlias],
      responses: {
        '200': { description: 'Per-payer rules', schema: ComparePayersResponse },
        '400': { description: 'Invalid parameters: not exactly one of drug, service, code; malformed or unresolvable code; bad state or program', schema: ErrorBody },
        '401': common401,
        '403': { description: 'State or program outside the subscription', schema: ErrorBody },
        '429': common429,
      },
    },
  },
  {
    id: 'action-plan',
    method: 'GET',
    path: '/v1/action-plan',
    auth: 'key_or_demo',
    group: 'action_plan',
    surface: 'json',
    cache: 'private, no-store',
    scope: (ctx) => namedInQuery(ctx.query, { states: ['state'], programs: ['program'] }),
    handle(ctx, deps) {
      rejectUnknown(ctx.query, ACTION_PLAN_PARAMS);
      const state = requireState(ctx.query);
      const program = requireProgram(ctx.query);
      const { subject, code } = requireDecisionSubject(ctx.query, state, deps.corpus.current);
      const context = parseMemberContext(ctx.query);
      const q: ActionPlanQuery = { state, program, subject, context, ...(code ? { code } : {}) };
      const out = buildActionPlan(deps.corpus.current, q, ctx.now);
      if (out.kind === 'scope_gap') throw actionPlanGap(deps.corpus.current, q);
      return { status: 200, body: out.body };
    },
    openapi: {
      summary: 'Ranked next actions before or after a PA decision, with deadlines, contacts, the appeal ladder and change windows',
      description:
        'Exactly one of drug, service or code. Member context is a controlled vocabulary: unknown parameters and free text are 400; denial_basis and denial_days_ago need denied=true. ' +
        'Each ranked action has a score (the sum of the weights of its signals, 0..100), a deadline date (or null with the reason), a rationale and citations. ' +
        'Deadlines marked [M] in the service reference carry lower confidence and a caveat. Without a verified rule the plan is an estimate (`provenance.verified: false`); ' +
        'with no rule at all and no denial there is nothing to ground a plan: 404 scope_gap. Accepts x-api-key or x-demo-session.',
      tags: ['decision'],
      parameters: [stateParam(), programParam, drugParam, serviceParam, codeParam, ...memberContextParams, drugClassAlias, categoryAlias],
      responses: {
        '200': { description: 'The action plan', schema: ActionPlanResponse },
        '400': { description: 'Invalid or unknown parameters (controlled vocabulary), not exactly one of drug, service, code', schema: ErrorBody },
        '401': { description: 'Missing or invalid x-api-key or x-demo-session', schema: ErrorBody },
        '403': { description: 'State or program outside the subscription', schema: ErrorBody },
        '404': { description: 'No verified rule and nothing to ground a plan (scope_gap)', schema: ScopeGapError },
        '429': common429,
      },
    },
  },
];
