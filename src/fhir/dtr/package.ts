// DTR 2.0.1 $questionnaire-package: dtr-qpackage-input-parameters in, dtr-qpackage-output-parameters out. One
// DTR-QPackageBundle per questionnaire: the Questionnaire first, then the Libraries it uses (cqf-library and,
// recursively, their depends-on: CQL text and ELM JSON), the ValueSets its items bind (expanded), and a draft
// QuestionnaireResponse tied to the coverage and the order(s) by qr-context.
import type { Bundle, BundleEntry, Coverage, Extension, OperationOutcome, Parameters, ParametersParameter, Patient, Questionnaire, QuestionnaireResponse, QuestionnaireResponseItem, Reference, FhirResource as Resource } from 'fhir/r4';
import type { ReadModel } from '../../corpus/read-model.js';
import type { CoverageRuleDoc } from '../../domain/documents.js';
import { CRD_TEMP_CS, DTR_EXT, DTR_OUTCOME_PARAM, DTR_PACKAGE_PARAM, DTR_PROFILE } from '../../../fhir-profiles/canonicals.js';
import { ruleLastUpdated, shortHash, uuidFrom } from '../ids.js';
import type { Failure } from '../outcome.js';
import type { OrderResource } from '../r4.js';
import { bundleLookup, isOrder } from '../resolve/lookup.js';
import { orderCodings, resolveRule } from '../resolve/rule-for-codes.js';
import { resolveCoverageContext, type ExplicitHints } from '../resolve/coverage-context.js';
import { toLibraryResource, withDependencies } from './cql-libraries.js';
import { firstQuestions, toAdaptivePackageQuestionnaire } from './next-question.js';
import { PATTERN_LIBRARY, patternItems, patternOf } from './patterns.js';
import { mergeScopes, scopeOfRuleId } from '../../domain/named-scope.js';
import { adaptiveAddress, ruleFromCanonical, scopeOfCanonical, scopeOfQuestionnaireId, toDtrQuestionnaire } from './questionnaires.js';
import { toValueSet } from './value-sets.js';
import { isRecord } from '../../domain/json.js';

export interface PackageInput {
  coverages: Coverage[];
  orders: OrderResource[];
  /** Orders of types we take but do not evaluate (Encounter, Appointment, NutritionOrder...), for a warning. */
  unsupportedOrders: string[];
  referenced: Resource[];
  questionnaires: string[];
  context?: string;
  changedSince?: string;
}

const ORDER_PARAM_TYPES = ['Appointment', 'Encounter', 'CommunicationRequest', 'DeviceRequest', 'ImmunizationRecommendation', 'MedicationRequest', 'NutritionOrder', 'ServiceRequest', 'SupplyRequest', 'VisionPrescription'];
const KNOWN = new Set(['coverage', 'order', 'referenced', 'questionnaire', 'context', 'changedsince']);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

const bad = (message: string, expression: string): Failure => ({ status: 400, code: 'invalid_body', message, expression });

/**
 * The input Parameters, or a 400 naming the parameter that is not a valid package request. `questionnaires` are
 * canonicals the request names outside the body (the instance-level form names one in its path).
 */
export function parsePackageInput(body: unknown, questionnaires: string[] = []): PackageInput | Failure {
  if (!isRecord(body) || body.resourceType !== 'Parameters') return bad('Send a Parameters resource (dtr-qpackage-input-parameters)', 'Parameters');
  const params = body.parameter;
  if (params !== undefined && !Array.isArray(params)) return bad('Parameters.parameter must be an array', 'Parameters.parameter');
  const out: PackageInput = { coverages: [], orders: [], unsupportedOrders: [], referenced: [], questionnaires: [...questionnaires] };
  for (const [i, raw] of (params ?? []).entries()) {
    const at = `Parameters.parameter[${i}]`;
    if (!isRecord(raw) || typeof raw.name !== 'string') return bad('Every parameter needs a name', `${at}.name`);
    const p = raw as unknown as ParametersParameter;
    const resource = isRecord(p.resource) ? (p.resource as unknown as Resource) : undefined;
    switch (p.name) {
      case 'coverage':
        if (resource?.resourceType !== 'Coverage') return bad("A 'coverage' parameter must hold a Coverage resource", `${at}.resource`);
        out.coverages.push(resource as Coverage);
        break;
      case 'order':
        if (!resource || !ORDER_PARAM_TYPES.includes(resource.resourceType)) {
          return bad(`An 'order' parameter must hold one of ${ORDER_PARAM_TYPES.join(', ')}`, `${at}.resource`);
        }
        if (isOrder(resource)) out.orders.push(resource);
        else out.unsupportedOrders.push(`${resource.resourceType}/${resource.id ?? '?'}`);
        break;
      case 'referenced':
        if (!resource) return bad("A 'referenced' parameter must hold a resource", `${at}.resource`);
        out.referenced.push(resource);
        break;
      case 'questionnaire': {
        const v = p.valueCanonical ?? p.valueUri;
        if (typeof v !== 'string' || !v.trim()) return bad("A 'questionnaire' parameter must have a valueCanonical", `${at}.valueCanonical`);
        out.questionnaires.push(v.trim());
        break;
      }
      case 'context':
        if (typeof p.valueString !== 'string' || !p.valueString.trim()) return bad("The 'context' parameter must have a valueString (CRD's coverage-assertion-id)", `${at}.valueString`);
        if (out.context !== undefined) return bad("At most one 'context' parameter", at);
        out.context = p.valueString.trim();
        break;
      case 'changedsince': {
        const v = p.valueInstant ?? p.valueDateTime;
        if (typeof v !== 'string' || !INSTANT.test(v) || Number.isNaN(Date.parse(v))) return bad("The 'changedsince' parameter must have a valueInstant (e.g. 2026-01-01T00:00:00Z)", `${at}.valueInstant`);
        out.changedSince = v;
        break;
      }
      default:
        return bad(`Unknown parameter '${String(p.name).slice(0, 40)}'; expected one of ${[...KNOWN].join(', ')}`, `${at}.name`);
    }
  }
  if (!out.coverages.length) return bad("A 'coverage' parameter (the member's Coverage) is required", 'Parameters.parameter');
  if (!out.orders.length && !out.unsupportedOrders.length && !out.questionnaires.length && !out.context) {
    return bad("Give at least one of 'order', 'questionnaire' or 'context'", 'Parameters.parameter');
  }
  return out;
}

/**
 * What a package request names, read from the request alone and never failing (the body may be anything): each
 * questionnaire canonical's state and program, the coverage-assertion id's own text (`context`, a rule id), the
 * instance's questionnaire id. The pipeline authorizes it before the body is validated or anything is read.
 */
export function namedScopeOfPackageRequest(body: unknown, instanceId: string | undefined): { states: string[]; programs: string[] } {
  let scope: { states: string[]; programs: string[] } = { states: [], programs: [] };
  const add = (s: { states?: readonly string[]; programs?: readonly string[] } | undefined): void => {
    if (s) scope = mergeScopes(scope, s);
  };
  if (instanceId !== undefined) add(scopeOfQuestionnaireId(instanceId));
  const params = isRecord(body) && Array.isArray(body.parameter) ? body.parameter : [];
  for (const p of params) {
    if (!isRecord(p)) continue;
    const canonical = p.valueCanonical ?? p.valueUri;
    if (p.name === 'questionnaire' && typeof canonical === 'string') add(scopeOfCanonical(canonical.trim()));
    if (p.name === 'context' && typeof p.valueString === 'string') add(scopeOfRuleId(p.valueString.trim()));
  }
  return scope;
}

/** The coverage the member's documentation is for: the first active one, else the first. */
const primaryCoverage = (input: PackageInput): Coverage => input.coverages.find((c) => c.status === 'active') ?? input.coverages[0]!;

const ref = (r: Resource | undefined): Reference | undefined => (r?.id ? { reference: `${r.resourceType}/${r.id}` } : undefined);

/** Questionnaire items as unanswered response items (what a renderer fills in), groups with their questions. */
function responseItems(items: Questionnaire['item']): QuestionnaireResponseItem[] {
  return (items ?? [])
    .filter((it) => it.type !== 'display')
    .map((it) => (it.type === 'group' ? { linkId: it.linkId, text: it.text, item: responseItems(it.item) } : { linkId: it.linkId, text: it.text }))
    .filter((it) => !('item' in it) || (it.item?.length ?? 0) > 0);
}

/** The DTR QuestionnaireResponse envelope: contexts (coverage + orders), intended use, subject. */
export function responseEnvelope(rule: CoverageRuleDoc, coverage: Coverage, orders: OrderResource[]): Pick<QuestionnaireResponse, 'extension' | 'subject'> {
  const contexts: Extension[] = [ref(coverage), ...orders.map(ref)].filter((r): r is Reference => !!r).map((valueReference) => ({ url: DTR_EXT.qrContext, valueReference }));
  const subject = coverage.beneficiary ?? orders.map((o) => o.subject).find((s) => !!s);
  return {
    extension: [
      ...contexts,
      {
        url: DTR_EXT.intendedUse,
        valueCodeableConcept: {
          coding: [rule.requirement.paRequired ? { system: CRD_TEMP_CS, code: 'withpa', display: 'Include with PA request' } : { system: CRD_TEMP_CS, code: 'retain-doc', display: 'Retain documentation' }],
        },
      },
    ],
    ...(subject ? { subject } : {}),
  };
}

interface Selected {
  rule: CoverageRuleDoc;
  adaptive: boolean;
  orders: OrderResource[];
}

function packageBundle(sel: Selected, input: PackageInput, base: string, now: Date): Bundle {
  const { rule } = sel;
  const coverage = primaryCoverage(input);
  const questionnaire = sel.adaptive ? toAdaptivePackageQuestionnaire(rule, base) : toDtrQuestionnaire(rule, base);
  const libraries = withDependencies(PATTERN_LIBRARY[patternOf(rule)]).map((l) => toLibraryResource(l, base, rule.verification.lastVerified));
  const valueSets = patternItems(rule, base).valueSets.map((k) => toValueSet(k, base, now));
  const address = sel.adaptive ? adaptiveAddress(base, rule) : questionnaire.url!;
  const qrId = uuidFrom(`${address}|${questionnaire.version}|${coverage.id ?? ''}|${sel.orders.map((o) => o.id).join(',')}`);
  const envelope = responseEnvelope(rule, coverage, sel.orders);
  const qr: QuestionnaireResponse = sel.adaptive
    ? { ...firstQuestions(rule, base, envelope, now), id: qrId }
    : {
        resourceType: 'QuestionnaireResponse',
        id: qrId,
        meta: { profile: [DTR_PROFILE.questionnaireResponse] },
        ...envelope,
        questionnaire: `${questionnaire.url}|${questionnaire.version}`,
        status: 'in-progress',
        authored: now.toISOString(),
        item: responseItems(questionnaire.item),
      };
  const entries: BundleEntry[] = [
    { fullUrl: address, resource: questionnaire },
    ...libraries.map((l) => ({ fullUrl: l.url, resource: l })),
    ...valueSets.map((v) => ({ fullUrl: v.url, resource: v })),
    // A draft response needs its order as context (the DTR QuestionnaireResponse profile wants coverage and order):
    // a package asked for without an order carries none for the static form; the DTR app starts a new one.
    ...(sel.adaptive || sel.orders.length ? [{ fullUrl: `urn:uuid:${qrId}`, resource: qr }] : []),
  ];
  return {
    resourceType: 'Bundle',
    id: `pkg-${shortHash(`${address}|${questionnaire.version}|${qrId}`)}`,
    meta: { profile: [DTR_PROFILE.packageBundle] },
    type: 'collection',
    timestamp: now.toISOString(),
    entry: entries,
  };
}

export type PackageOutcome = { kind: 'ok'; parameters: Parameters; scope: { states: string[]; programs: string[] } } | Failure;

/**
 * The rules whose questionnaires apply: CRD's coverage-assertion-id (`context`), questionnaire canonicals we issued
 * (static or adaptive form), else each order's codes resolved against the member's coverage. Warnings for what
 * could not be used go to the output's OperationOutcome.
 */
export function questionnairePackage(
  model: ReadModel,
  input: PackageInput,
  opts: {
    base: string;
    now: Date;
    hints?: ExplicitHints;
    fallback?: ExplicitHints;
    /** Problems of the request body accepted as warnings (the acceptance check), returned in the output's OperationOutcome. */
    bodyWarnings?: readonly { message: string; expression: string }[];
  },
): PackageOutcome {
  const found = new Map<string, Selected>();
  const warnings: string[] = input.unsupportedOrders.map((o) => `${o}: orders of this type are not evaluated (ServiceRequest, DeviceRequest and MedicationRequest are)`);
  const add = (rule: CoverageRuleDoc, adaptive: boolean, orders: OrderResource[]): void => {
    const key = `${rule.id}|${adaptive}`;
    const prior = found.get(key);
    if (prior) for (const o of orders) if (!prior.orders.includes(o)) prior.orders.push(o);
    if (!prior) found.set(key, { rule, adaptive, orders: [...orders] });
  };
  // What the request names (canonicals, the coverage's state and program): the caller's key must cover it whether
  // or not a rule exists there, so a 404 never tells what exists outside the subscription.
  const named = { states: new Set<string>(), programs: new Set<string>() };
  const name = (scope: { states: string[]; programs: string[] } | undefined): void => {
    scope?.states.forEach((x) => named.states.add(x));
    scope?.programs.forEach((x) => named.programs.add(x));
  };
  // A coverage-assertion-id names its rule's state and program: outside the subscription, that is the 403 (the route
  // authorizes the returned scope before anything else is answered), as for every other out-of-scope request.
  const ctxRule = input.context ? model.ruleById.get(input.context) : undefined;
  if (input.context && !ctxRule) warnings.push(`context '${input.context.slice(0, 80)}' is not a coverage-assertion-id we issued`);
  if (ctxRule) {
    name({ states: [ctxRule.jurisdiction], programs: [ctxRule.program] });
    add(ctxRule, false, input.orders);
  }
  for (const canonical of input.questionnaires) {
    name(scopeOfCanonical(canonical));
    const hit = ruleFromCanonical(model, canonical);
    if (hit) add(hit.rule, hit.adaptive, input.orders);
    else warnings.push(`questionnaire '${canonical.slice(0, 120)}' is not one we publish`);
  }
  if (!found.size && input.orders.length) {
    const coverage = primaryCoverage(input);
    const lookup = bundleLookup([coverage, ...input.referenced, ...input.orders].map((resource) => ({ resource })));
    const patient = input.referenced.find((r) => r.resourceType === 'Patient') ?? lookup(coverage.beneficiary);
    const cc = resolveCoverageContext(model, {
      coverage,
      patient: patient?.resourceType === 'Patient' ? (patient as Patient) : undefined,
      hints: opts.hints,
      fallback: opts.fallback,
      lookup,
      today: opts.now.toISOString().slice(0, 10),
    });
    if (cc.state && cc.program) name({ states: [cc.state], programs: [cc.program] });
    for (const order of input.orders) {
      const label = `${order.resourceType}/${order.id ?? '?'}`;
      if (!cc.state || !cc.program) {
        warnings.push(`${label}: ${cc.basis.filter((b) => /unknown|not/i.test(b)).join('; ') || 'the member state and program could not be told from the Coverage'}`);
        continue;
      }
      const res = resolveRule(model, { state: cc.state, program: cc.program, payer: cc.payer }, orderCodings(order, lookup));
      if (res.kind === 'rule') add(res.rule, false, [order]);
      else if (res.kind === 'no-rule') warnings.push(`${label}: no verified rule for ${cc.state} ${cc.program} ${res.subject.kind} '${res.subject.code}'`);
      else warnings.push(`${label}: none of its codes is in our code lists`);
    }
  }
  const selected = [...found.values()];
  if (!selected.length) {
    return {
      status: 404,
      code: 'scope_gap',
      message: `No questionnaire applies: ${warnings.join('; ') || 'nothing to resolve'}`,
      expression: 'Parameters.parameter',
      ...(named.states.size ? { scope: { states: [...named.states], programs: [...named.programs] } } : {}),
    };
  }
  for (const x of selected) name({ states: [x.rule.jurisdiction], programs: [x.rule.program] });
  const scope = { states: [...named.states], programs: [...named.programs] };
  let fresh = selected;
  if (input.changedSince) {
    const since = Date.parse(input.changedSince);
    fresh = selected.filter((x) => Date.parse(ruleLastUpdated(x.rule)) > since);
    if (!fresh.length) warnings.push(`nothing changed since ${input.changedSince}`);
  }
  const issues: OperationOutcome['issue'] = [
    ...warnings.map((w) => ({ severity: 'warning' as const, code: 'not-found' as const, diagnostics: w })),
    ...(opts.bodyWarnings ?? []).map((w) => ({ severity: 'warning' as const, code: 'structure' as const, diagnostics: w.message, expression: [w.expression] })),
  ];
  const outcome: OperationOutcome | undefined = issues.length ? { resourceType: 'OperationOutcome', issue: issues } : undefined;
  if (!fresh.length) return { kind: 'ok', scope, parameters: { resourceType: 'Parameters', parameter: [{ name: DTR_OUTCOME_PARAM, resource: outcome! }] } };
  return {
    kind: 'ok',
    scope,
    parameters: {
      resourceType: 'Parameters',
      meta: { profile: [DTR_PROFILE.outputParameters] },
      parameter: [
        ...fresh.map((x) => ({ name: DTR_PACKAGE_PARAM, resource: packageBundle(x, input, opts.base, opts.now) })),
        ...(outcome ? [{ name: DTR_OUTCOME_PARAM, resource: outcome }] : []),
      ],
    },
  };
}
