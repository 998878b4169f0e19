// CRD 2.2 coverage requirements for order-sign / order-select: one `update` system action per in-scope draft
// order carrying ext-coverage-information, plus an informational card only for what the extension cannot say
// (step therapy, quantity limits, new-starts-only). Incomplete data gives `indeterminate` with a reason.
import type { ReadModel } from '../corpus/read-model.js';
import type { CoverageRuleDoc } from '../domain/documents.js';
import { PROGRAM_LABELS } from '../domain/vocabulary.js';
import { CDS_CARD_TYPE_CS, PROCEDURE_CODE_SYSTEMS } from '../../fhir-profiles/canonicals.js';
import { isoDate, questionnaireUrl, questionnaireVersion, shortHash, uuidFrom } from '../fhir/ids.js';
import type { Coverage, OrderResource, Patient, Reference, Resource } from '../fhir/r4.js';
import {
  bundleLookup,
  coverageOf,
  isOrder,
  orderCodings,
  resolveCoverageContext,
  resolveRule,
  type CoverageContext,
  type ExplicitHints,
  type RuleResolution,
} from '../fhir/resolve.js';
import { reason, toCoverageInformation, type CoverageVerdict } from './coverage-info.js';
import type { CdsCard, CdsHookRequest, CdsResponse, CdsSystemAction } from './types.js';

export interface CrdOptions {
  base: string;
  now: Date;
  hints: ExplicitHints;
}

export interface CrdResult {
  response: CdsResponse;
  /** The states and programs the answer was computed for (the route checks them against the key). */
  scope: { states: string[]; programs: string[] };
}

const isResource = (v: unknown): v is Resource => typeof v === 'object' && v !== null && typeof (v as Resource).resourceType === 'string';

/** The draft orders in scope: every supported order (order-sign), or only the selected ones (order-select). */
export function ordersInScope(req: CdsHookRequest): OrderResource[] {
  const all = (req.context.draftOrders?.entry ?? []).map((e) => e.resource).filter(isOrder);
  if (req.hook !== 'order-select' || !Array.isArray(req.context.selections)) return all;
  const sel = new Set(req.context.selections);
  return all.filter((o) => sel.has(`${o.resourceType}/${o.id}`));
}

function config(req: CdsHookRequest): { coverageInfo: boolean; maxCards: number } {
  const c = (req.extension?.['davinci-crd.configuration'] ?? {}) as Record<string, unknown>;
  return {
    coverageInfo: c['coverage-info'] !== false,
    maxCards: typeof c['max-cards'] === 'number' && c['max-cards'] >= 0 ? c['max-cards'] : 10,
  };
}

function ruleVerdict(rule: CoverageRuleDoc, res: Extract<RuleResolution, { kind: 'rule' }>, base: Pick<CoverageVerdict, 'coverage' | 'date'>, site: string): CoverageVerdict {
  const r = rule.requirement;
  const details: NonNullable<CoverageVerdict['details']> = [
    { category: 'cat-other', code: 'policy-source', display: 'Policy source', value: { url: rule.source.url } },
    { category: 'cat-other', code: 'last-verified', display: 'Rule last verified', value: { string: rule.verification.lastVerified } },
    ...(r.criteria ? [{ category: 'cat-decisional' as const, code: 'criteria', display: 'Coverage criteria', value: { string: r.criteria } }] : []),
  ];
  const billingCode = res.coding.system && PROCEDURE_CODE_SYSTEMS.includes(res.coding.system) ? [{ system: res.coding.system, code: res.coding.code! }] : undefined;
  const common = { ...base, details, ...(billingCode ? { billingCode } : {}), assertionId: rule.id };
  if (!r.paRequired) return { ...common, covered: 'covered', paNeeded: 'no-auth' };
  const docs = r.documentation.length > 0;
  const withDocs = docs
    ? {
        docNeeded: ['clinical' as const],
        docPurpose: ['withpa' as const],
        questionnaire: [`${questionnaireUrl(site, rule)}|${questionnaireVersion(rule)}`],
      }
    : {};
  const reasons = docs ? [reason(undefined, `Send the documentation ${rule.source.publisher} lists with the PA request: ${r.documentation.join('; ')}`)] : [];
  if (r.paType === 'conditional') {
    return { ...common, ...withDocs, covered: 'covered', paNeeded: 'conditional', infoNeeded: ['OTH'], reason: [reason(undefined, `PA depends on the criteria: ${r.criteria}`), ...reasons] };
  }
  return { ...common, ...withDocs, covered: 'covered', paNeeded: 'auth-needed', ...(reasons.length ? { reason: reasons } : {}) };
}

function indeterminate(base: Pick<CoverageVerdict, 'coverage' | 'date'>, why: ReturnType<typeof reason>, seed: string): CoverageVerdict {
  return { ...base, covered: 'indeterminate', reason: [why], assertionId: `unresolved-${shortHash(seed, 16)}` };
}

function limitationCard(rule: CoverageRuleDoc, order: OrderResource, label: string, seed: string): CdsCard | undefined {
  const r = rule.requirement;
  const lines = [
    ...(r.stepTherapy ? [`**Step therapy:** ${r.stepTherapy}`] : []),
    ...(r.quantityLimit ? [`**Quantity limit:** ${r.quantityLimit}`] : []),
    ...(r.newStartsOnly ? ['**New starts only:** members continuing therapy are not subject to this requirement.'] : []),
  ];
  if (!lines.length) return undefined;
  const what = [r.stepTherapy ? 'step therapy' : '', r.quantityLimit ? 'quantity limit' : '', r.newStartsOnly ? 'new starts only' : ''].filter(Boolean).join(', ');
  return {
    uuid: uuidFrom(`card|${seed}`),
    summary: `Coverage limits apply: ${what}`.slice(0, 139),
    detail: `${lines.join('\n\n')}\n\nSource: [${rule.source.title}](${rule.source.url}), last verified ${rule.verification.lastVerified}.`,
    indicator: 'info',
    source: { label, url: rule.source.url, topic: { system: CDS_CARD_TYPE_CS, code: 'coverage-info', display: 'Coverage Information' } },
    extension: { 'davinci-crd.associated-resource': [{ reference: `${order.resourceType}/${order.id}` }] },
  };
}

function insurerLabel(model: ReadModel, cc: CoverageContext, rule: CoverageRuleDoc): string {
  // The insurer the patient would recognise: their payer when it serves this state and program.
  if (cc.payer?.jurisdictions.includes(rule.jurisdiction) && cc.payer.programs.includes(rule.program)) return cc.payer.name;
  if (rule.payer) return rule.payer.name;
  const j = model.jurisdictions.get(rule.jurisdiction);
  if (j && (rule.program === 'medicaid_ffs' || rule.program === 'medicaid_mco' || rule.program === 'chip')) return j.medicaidProgramName ?? j.medicaidAgency.name;
  return `${rule.jurisdiction} ${PROGRAM_LABELS[rule.program]}`;
}

export function runCoverageRequirements(model: ReadModel, req: CdsHookRequest, opts: CrdOptions): CrdResult {
  const orders = ordersInScope(req);
  const cfg = config(req);
  const prefetch = req.prefetch ?? {};
  const patient = isResource(prefetch.patient) && prefetch.patient.resourceType === 'Patient' ? (prefetch.patient as Patient) : undefined;
  const coverageBundle = isResource(prefetch.coverage) ? prefetch.coverage : undefined;
  const coverages = coverageOf(coverageBundle);
  const coverage: Coverage | undefined = coverages.find((c) => c.status === 'active') ?? coverages[0];
  const entries = [
    ...Object.values(prefetch).flatMap((p) => (isResource(p) && p.resourceType === 'Bundle' ? ((p as { entry?: { fullUrl?: string; resource?: Resource }[] }).entry ?? []) : isResource(p) ? [{ resource: p }] : [])),
    ...(req.context.draftOrders?.entry ?? []),
  ];
  const lookup = bundleLookup(entries);
  const today = isoDate(opts.now);
  const coverageEntry = (coverageBundle as { entry?: { fullUrl?: string; resource?: Resource }[] } | undefined)?.entry?.find((e) => e.resource === coverage);
  const coverageRef: Reference = coverage
    ? { reference: coverageEntry?.fullUrl ?? `Coverage/${coverage.id}` }
    : { display: 'No Coverage was supplied in prefetch' };

  const cc = resolveCoverageContext(model, { coverage, patient, hints: opts.hints, lookup, today });
  const prefetchNote = coverageBundle?.resourceType === 'OperationOutcome' ? ' (the coverage prefetch was an OperationOutcome)' : prefetch.coverage === null ? ' (the coverage prefetch was null)' : '';
  const noCoverage = !coverage && !(opts.hints.state && opts.hints.program);

  const systemActions: CdsSystemAction[] = [];
  const cards: CdsCard[] = [];
  const scope = { states: new Set<string>(), programs: new Set<string>() };
  for (const order of orders) {
    const seed = `${req.hookInstance}|${order.resourceType}/${order.id}`;
    const base = { coverage: coverageRef, date: today };
    let verdict: CoverageVerdict;
    if (noCoverage) {
      verdict = indeterminate(base, reason('coverage-not-found', `No Coverage for the patient was supplied${prefetchNote}; this service does not query the EHR's FHIR server`), seed);
    } else if (!cc.state || !cc.program) {
      verdict = indeterminate(base, reason(undefined, `Cannot tell the member's state and program: ${cc.basis.filter((b) => b.includes('unknown')).join('; ')}`), seed);
    } else {
      scope.states.add(cc.state);
      scope.programs.add(cc.program);
      const res = resolveRule(model, { state: cc.state, program: cc.program, payer: cc.payer }, orderCodings(order, lookup));
      if (res.kind === 'rule') {
        verdict = ruleVerdict(res.rule, res, base, opts.base);
        const card = limitationCard(res.rule, order, insurerLabel(model, cc, res.rule), seed);
        if (card) cards.push(card);
      } else if (res.kind === 'no-rule') {
        verdict = indeterminate(base, reason(undefined, `No verified rule yet for ${cc.state} ${cc.program} ${res.subject.kind} '${res.subject.code}' (${res.via})`), seed);
      } else {
        const codes = res.codings.map((c) => `${c.system ?? '?'}|${c.code ?? '?'}`).join(', ') || 'none';
        verdict = indeterminate(base, reason(undefined, `None of the order's codes is in our CPT/HCPCS/RxNorm code lists: ${codes}`), seed);
      }
    }
    const updated = structuredClone(order) as OrderResource;
    updated.extension = [...(updated.extension ?? []), toCoverageInformation(verdict)];
    systemActions.push({ type: 'update', description: `Coverage information for ${order.resourceType}/${order.id ?? '(no id)'}`, resource: updated });
  }
  return {
    response: { cards: cards.slice(0, cfg.maxCards), ...(cfg.coverageInfo ? { systemActions } : { systemActions: [] }) },
    scope: { states: [...scope.states], programs: [...scope.programs] },
  };
}
