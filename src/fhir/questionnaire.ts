// DTR 2.2.0: a rule's documentation requirements and criteria as a static Questionnaire (dtr-std-questionnaire),
// and the $questionnaire-package output (one package Bundle per resolved rule: the Questionnaire plus a draft
// QuestionnaireResponse).
import type { ReadModel } from '../corpus/read-model.js';
import type { CoverageRuleDoc } from '../domain/documents.js';
import { isJurisdiction, isProgram, PROGRAM_LABELS, subjectLabel } from '../domain/vocabulary.js';
import {
  DTR_EXT,
  DTR_PACKAGE_PARAM,
  DTR_PACKAGE_PARAM_LEGACY,
  DTR_PROFILE,
  SDC_EXT,
  SDC_LAUNCH_CONTEXT_CS,
} from '../../fhir-profiles/canonicals.js';
import { fhirId, questionnaireUrl, questionnaireVersion, shortHash, uuidFrom } from './ids.js';
import type { Failure } from './outcome.js';
import type {
  Bundle,
  Coverage,
  OperationOutcome,
  OrderResource,
  Parameters,
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  Reference,
  Resource,
} from './r4.js';
import { bundleLookup, isOrder, orderCodings, resolveCoverageContext, resolveRule, type ExplicitHints } from './resolve.js';

const pascal = (s: string): string => s.replace(/(^|[^A-Za-z0-9])([a-z0-9])/g, (_m, _p, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');

function items(rule: CoverageRuleDoc): QuestionnaireItem[] {
  const r = rule.requirement;
  const out: QuestionnaireItem[] = [
    { linkId: 'criteria', type: 'display', text: `Coverage criteria: ${r.criteria}` },
    {
      linkId: 'source',
      type: 'display',
      text: `Source: ${rule.source.title} (${rule.source.publisher}), ${rule.source.url}; last verified ${rule.verification.lastVerified}`,
    },
  ];
  if (!r.paRequired) out.push({ linkId: 'no-pa', type: 'display', text: 'Prior authorization is not required; keep this documentation with the record for the claim.' });
  if (r.documentation.length) {
    out.push({
      linkId: 'documentation',
      type: 'group',
      text: 'Documentation the payer requires',
      item: r.documentation.flatMap((doc, i): QuestionnaireItem[] => [
        { linkId: `documentation.${i + 1}`, type: 'boolean', text: `${doc}: available and attached?`, required: r.paRequired },
        {
          linkId: `documentation.${i + 1}.detail`,
          type: 'text',
          text: `${doc}: summary or location in the record`,
          enableWhen: [{ question: `documentation.${i + 1}`, operator: '=', answerBoolean: true }],
        },
      ]),
    });
  }
  if (r.stepTherapy) out.push({ linkId: 'step-therapy', type: 'boolean', required: true, text: `Step therapy: ${r.stepTherapy}. Has the patient tried and failed, or have a contraindication to, the required prior therapies?` });
  if (r.quantityLimit) out.push({ linkId: 'quantity-limit', type: 'boolean', required: true, text: `Quantity limit: ${r.quantityLimit}. Is the requested quantity within the limit?` });
  if (r.newStartsOnly) out.push({ linkId: 'new-start', type: 'boolean', required: true, text: 'Is this a new start (the patient is not continuing this therapy)?' });
  return out;
}

export function toDtrQuestionnaire(rule: CoverageRuleDoc, base: string): Questionnaire {
  const label = subjectLabel(rule.subject.kind, rule.subject.code);
  return {
    resourceType: 'Questionnaire',
    id: fhirId('pa', rule.jurisdiction, rule.program, rule.subject.code),
    meta: { profile: [DTR_PROFILE.stdQuestionnaire], ...(rule.meta?.lastUpdated ? { lastUpdated: rule.meta.lastUpdated } : {}) },
    extension: [
      {
        url: SDC_EXT.launchContext,
        extension: [
          { url: 'name', valueCoding: { system: SDC_LAUNCH_CONTEXT_CS, code: 'patient' } },
          { url: 'type', valueCode: 'Patient' },
        ],
      },
    ],
    url: questionnaireUrl(base, rule),
    version: questionnaireVersion(rule),
    name: pascal(`pa ${rule.jurisdiction} ${rule.program} ${rule.subject.code}`).slice(0, 255),
    title: `Prior authorization documentation: ${label}, ${rule.jurisdiction} ${PROGRAM_LABELS[rule.program]}`,
    status: 'active',
    subjectType: ['Patient'],
    date: rule.verification.lastVerified,
    publisher: rule.source.publisher,
    description: `Documentation requirements of rule ${rule.id} (${rule.requirement.paRequired ? 'PA required' : 'PA not required'}, type ${rule.requirement.paType}).`,
    item: items(rule),
  };
}

// ---- $questionnaire-package ----

export interface PackageInput {
  coverage?: Coverage;
  orders: OrderResource[];
  questionnaires: string[];
  context?: string;
}

const asParameters = (body: unknown): Parameters | undefined =>
  body && typeof body === 'object' && (body as Parameters).resourceType === 'Parameters' ? (body as Parameters) : undefined;

export function parsePackageInput(body: unknown): PackageInput | Failure {
  const p = asParameters(body);
  if (!p) return { status: 400, code: 'invalid_body', message: 'Send a Parameters resource (dtr-qpackage-input-parameters)', expression: 'Parameters' };
  const params = p.parameter ?? [];
  const coverages = params.filter((x) => x.name === 'coverage');
  if (coverages.length !== 1 || coverages[0]!.resource?.resourceType !== 'Coverage') {
    return { status: 400, code: 'invalid_body', message: "Exactly one 'coverage' parameter holding a Coverage is required", expression: 'Parameters.parameter' };
  }
  const orders: OrderResource[] = [];
  for (const [i, x] of params.entries()) {
    if (x.name !== 'order') continue;
    const resource = x.resource as Resource | undefined;
    if (!isOrder(resource)) {
      return { status: 400, code: 'invalid_body', message: "An 'order' parameter must hold a ServiceRequest, DeviceRequest or MedicationRequest", expression: `Parameters.parameter[${i}].resource` };
    }
    orders.push(resource);
  }
  return {
    coverage: coverages[0]!.resource as Coverage,
    orders,
    questionnaires: params.filter((x) => x.name === 'questionnaire').map((x) => x.valueCanonical ?? x.valueUri ?? '').filter(Boolean),
    context: params.find((x) => x.name === 'context')?.valueString,
  };
}

function packageBundle(rule: CoverageRuleDoc, base: string, now: Date, coverage: Coverage | undefined, order?: OrderResource): Bundle {
  const q = toDtrQuestionnaire(rule, base);
  const qrId = uuidFrom(`${q.url}|${q.version}|${coverage?.id ?? ''}|${order?.id ?? ''}`);
  const orderRef: Reference | undefined = order?.id ? { reference: `${order.resourceType}/${order.id}` } : undefined;
  const qr: QuestionnaireResponse = {
    resourceType: 'QuestionnaireResponse',
    id: qrId,
    meta: { profile: [DTR_PROFILE.questionnaireResponse] },
    ...(orderRef ? { extension: [{ url: DTR_EXT.qrContext, valueReference: orderRef }] } : {}),
    questionnaire: `${q.url}|${q.version}`,
    status: 'in-progress',
    ...(coverage?.beneficiary ? { subject: coverage.beneficiary } : {}),
    authored: now.toISOString(),
  };
  return {
    resourceType: 'Bundle',
    id: `pkg-${shortHash(`${q.url}|${q.version}|${qrId}`)}`,
    meta: { profile: [DTR_PROFILE.packageBundle] },
    type: 'collection',
    timestamp: now.toISOString(),
    entry: [
      { fullUrl: `${q.url}`, resource: q },
      { fullUrl: `urn:uuid:${qrId}`, resource: qr },
    ],
  };
}

export type PackageOutcome = { kind: 'ok'; parameters: Parameters; scope: { states: string[]; programs: string[] } } | Failure;

/** The state and program a canonical we issue names: `${base}/v1/dtr/questionnaire/{state}/{program}/{code}`. */
function canonicalParts(canonical: string): { state: string; program: string; code: string } | undefined {
  const m = /\/v1\/dtr\/questionnaire\/([A-Z]{2})\/([a-z_]+)\/([a-z_]+)(\|.*)?$/.exec(canonical);
  if (!m || !isJurisdiction(m[1]!) || !isProgram(m[2]!)) return undefined;
  return { state: m[1]!, program: m[2]!, code: m[3]! };
}

export function questionnairePackage(
  model: ReadModel,
  input: PackageInput,
  opts: { base: string; now: Date; hints?: ExplicitHints; inScope?: (scope: { states: string[]; programs: string[] }) => boolean },
): PackageOutcome {
  const found = new Map<string, { rule: CoverageRuleDoc; order?: OrderResource }>();
  const warnings: string[] = [];
  // What the request names (canonicals, the coverage's state and program): the caller's key must cover it whether
  // or not a rule exists there, so a 404 never tells what exists outside the subscription.
  const named = { states: new Set<string>(), programs: new Set<string>() };
  const name = (state: string, program: string): void => {
    named.states.add(state);
    named.programs.add(program);
  };
  const known = input.context ? model.ruleById.get(input.context) : undefined;
  // A coverage-assertion-id outside the subscription is answered as unknown: its existence is not the caller's to learn.
  const ctxRule = known && (opts.inScope?.({ states: [known.jurisdiction], programs: [known.program] }) ?? true) ? known : undefined;
  if (input.context && !ctxRule) warnings.push(`context '${input.context}' is not a coverage-assertion-id we issued`);
  if (ctxRule) found.set(ctxRule.id, { rule: ctxRule, order: input.orders[0] });
  for (const canonical of input.questionnaires) {
    const parts = canonicalParts(canonical);
    if (parts) name(parts.state, parts.program);
    const r = parts ? (model.rules.get(`${parts.state}|${parts.program}|drug|${parts.code}`) ?? model.rules.get(`${parts.state}|${parts.program}|service|${parts.code}`)) : undefined;
    if (r) found.set(r.id, { rule: r });
    else warnings.push(`questionnaire '${canonical}' is not one we publish`);
  }
  if (!found.size && input.orders.length) {
    const lookup = bundleLookup(input.coverage ? [{ resource: input.coverage }] : []);
    const cc = resolveCoverageContext(model, { coverage: input.coverage, hints: opts.hints, lookup, today: opts.now.toISOString().slice(0, 10) });
    if (cc.state && cc.program) name(cc.state, cc.program);
    for (const order of input.orders) {
      if (!cc.state || !cc.program) {
        warnings.push(`${order.resourceType}/${order.id ?? '?'}: ${cc.basis.filter((b) => b.includes('unknown')).join('; ')}`);
        continue;
      }
      const res = resolveRule(model, { state: cc.state, program: cc.program, payer: cc.payer }, orderCodings(order, lookup));
      if (res.kind === 'rule') found.set(res.rule.id, { rule: res.rule, order });
      else if (res.kind === 'no-rule') warnings.push(`${order.resourceType}/${order.id ?? '?'}: no verified rule for ${cc.state} ${cc.program} ${res.subject.kind} '${res.subject.code}'`);
      else warnings.push(`${order.resourceType}/${order.id ?? '?'}: none of its codes is in our code lists`);
    }
  }
  if (!found.size) {
    return {
      status: 404,
      code: 'scope_gap',
      message: `No questionnaire applies: ${warnings.join('; ') || 'give a coverage-assertion-id (context), a questionnaire canonical or an order'}`,
      expression: 'Parameters.parameter',
      ...(named.states.size ? { scope: { states: [...named.states], programs: [...named.programs] } } : {}),
    };
  }
  const rules = [...found.values()];
  for (const x of rules) name(x.rule.jurisdiction, x.rule.program);
  const outcome: OperationOutcome | undefined = warnings.length
    ? { resourceType: 'OperationOutcome', issue: warnings.map((w) => ({ severity: 'warning' as const, code: 'not-found', diagnostics: w })) }
    : undefined;
  return {
    kind: 'ok',
    scope: { states: [...named.states], programs: [...named.programs] },
    parameters: {
      resourceType: 'Parameters',
      meta: { profile: [DTR_PROFILE.outputParameters] },
      parameter: [
        ...rules.map((x) => ({ name: DTR_PACKAGE_PARAM, resource: packageBundle(x.rule, opts.base, opts.now, input.coverage, x.order) })),
        ...(outcome ? [{ name: 'outcome', resource: outcome }] : []),
      ],
    },
  };
}

/** Reads the package bundles from an output Parameters, whichever DTR version named the parameter. */
export const packageBundlesOf = (p: Parameters): Bundle[] =>
  (p.parameter ?? []).filter((x) => x.name === DTR_PACKAGE_PARAM || x.name === DTR_PACKAGE_PARAM_LEGACY).map((x) => x.resource as Bundle);
