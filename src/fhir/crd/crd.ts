// CRD coverage requirements for the six hooks (order-sign, order-select, order-dispatch, appointment-book,
// encounter-start, encounter-discharge). For every request resource resolved to a verified rule: one `update`
// system action carrying ext-coverage-information in the CRD 2.0.1 shape, and a verdict card. For every one we
// cannot answer: a card saying why and, on the primary hooks (appointment-book, order-sign, order-dispatch), coverage
// information saying `conditional` with that reason (2.0.1 has no `indeterminate`). Pure: the read model and the
// gathered hook data in, the response out.
import type { ReadModel } from '../../corpus/read-model.js';
import type { CoverageRuleDoc } from '../../domain/documents.js';
import { PROGRAM_LABELS } from '../../domain/vocabulary.js';
import { programNotRun } from '../../corpus/program-gap.js';
import { outsideProgram } from '../../domain/program-scope.js';
import { PRAUTH_DETAIL_CS, PROCEDURE_CODE_SYSTEMS } from '../../../fhir-profiles/canonicals.js';
import { questionnaireUrl, questionnaireVersion, shortHash } from '../ids.js';
import { isoDate } from '../../domain/time.js';
import { deepFreeze } from '../../domain/json.js';
import type { CodeableConcept, Coverage, Extension, Organization, Patient, Reference, Resource } from '../r4.js';
import { coverageOf } from '../resolve/lookup.js';
import { requestCodings, resolveRule } from '../resolve/rule-for-codes.js';
import { resolveCoverageContext, type CoverageContext, type ExplicitHints } from '../resolve/coverage-context.js';
import { externalReferenceCard, limitsCard, outsideBenefitCard, unresolvedCard, verdictCard } from './cards.js';
import { toCoverageInformation } from './coverage-info.js';
import { outsideBenefit, ruleVerdict, undetermined } from './verdict.js';
import { EVALUATED_TYPES, isResource, type HookData } from './hook-data.js';
import type { CdsCard, CdsHookRequest, CdsResponse, CdsSystemAction } from './types.js';
import { ageOutside } from '../../domain/population.js';

export interface CrdOptions {
  base: string;
  now: Date;
  hints: ExplicitHints;
  /** The caller's subscription when it names exactly one state / program (used last, and said on the card). */
  fallback?: ExplicitHints;
  /** SMART launch URL of the DTR app offered on verdict cards. */
  dtrLaunchUrl?: string;
}

export interface CrdResult {
  response: CdsResponse;
  /** The states and programs the answer was computed for (the route checks them against the subscription). */
  scope: { states: string[]; programs: string[] };
}

export interface CrdConfiguration {
  coverageInfo: boolean;
  limits: boolean;
  maxCards: number;
}

/**
 * The hook configuration (davinci-crd.configuration): `coverage-info` (also read as `coverage`, which the CRD test
 * kit sends) turns the coverage information (system actions and verdict cards) on or off, `limits` the limits
 * cards, `max-cards` caps the cards. Values of the wrong type are ignored (the defaults stand).
 */
export function configurationOf(req: CdsHookRequest): CrdConfiguration {
  const raw = req.extension && typeof req.extension === 'object' ? req.extension['davinci-crd.configuration'] : undefined;
  const c = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const bool = (v: unknown, d: boolean) => (typeof v === 'boolean' ? v : d);
  const max = c['max-cards'];
  return {
    coverageInfo: bool(c['coverage-info'], bool(c.coverage, true)),
    limits: bool(c.limits, true),
    maxCards: typeof max === 'number' && Number.isInteger(max) && max >= 0 ? max : 10,
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

/** The payer's name as the EHR wrote it, for cards about orders we could not answer. */
function payerName(coverage: Coverage | undefined, data: HookData, cc: CoverageContext): string {
  if (cc.payer) return cc.payer.name;
  for (const p of Array.isArray(coverage?.payor) ? coverage!.payor : []) {
    if (typeof p?.display === 'string' && p.display) return p.display;
    const org = data.lookup(p, coverage) as Organization | undefined;
    if (org?.resourceType === 'Organization' && typeof org.name === 'string' && org.name) return org.name;
  }
  return 'Coverage requirements';
}

/** The hooks CRD 2.0.1 calls primary: coverage information on every call, determined or not. */
export const PRIMARY_HOOKS: readonly string[] = ['appointment-book', 'order-sign', 'order-dispatch'];

/** The target with the coverage information added (resp-37: only the extension changes; a shallow copy). */
function updateAction(target: Resource, info: Extension): CdsSystemAction {
  const own = (target as { extension?: unknown }).extension;
  const updated = { ...target, extension: [...(Array.isArray(own) ? own : []), info] } as Resource;
  return { type: 'update', description: `Coverage information for ${target.resourceType}/${target.id ?? '(no id)'}`, resource: updated };
}

interface CoverageUse {
  coverage?: Coverage;
  /** The Coverage's fullUrl, else Coverage/{id}. */
  ref?: string;
  cc: CoverageContext;
  label: string;
}

export function runCoverageRequirements(model: ReadModel, req: CdsHookRequest, data: HookData, opts: CrdOptions): CrdResult {
  const cfg = configurationOf(req);
  const coverages = coverageOf(data.coverage);
  const entries = isResource(data.coverage) && data.coverage.resourceType === 'Bundle' ? (data.coverage as { entry?: unknown }).entry : undefined;
  const fullUrls = new Map<unknown, string>();
  for (const e of Array.isArray(entries) ? (entries as { fullUrl?: unknown; resource?: unknown }[]) : []) if (e && typeof e.fullUrl === 'string' && e.fullUrl) fullUrls.set(e.resource, e.fullUrl);
  const today = isoDate(opts.now);
  const uses = new Map<Coverage | undefined, CoverageUse>();
  const use = (coverage: Coverage | undefined): CoverageUse => {
    let u = uses.get(coverage);
    if (!u) {
      const cc = resolveCoverageContext(model, { coverage, patient: data.patient as Patient | undefined, hints: opts.hints, lookup: data.lookup, today, fallback: opts.fallback });
      const ref = coverage ? (fullUrls.get(coverage) ?? (typeof coverage.id === 'string' && coverage.id ? `Coverage/${coverage.id}` : undefined)) : undefined;
      u = { coverage, ...(ref ? { ref } : {}), cc, label: payerName(coverage, data, cc) };
      uses.set(coverage, u);
    }
    return u;
  };
  const defaultCoverage: Coverage | undefined = coverages.find((c) => c.status === 'active') ?? coverages[0];
  /** The Coverage an order names in `insurance` when the request holds it, else the patient's first active one. */
  const coverageOfTarget = (target: Resource): Coverage | undefined => {
    const insurance = (target as { insurance?: unknown }).insurance;
    for (const ref of Array.isArray(insurance) ? insurance : []) {
      const c = data.lookup(ref as Reference, target);
      if (c?.resourceType === 'Coverage' && coverages.includes(c as Coverage)) return c as Coverage;
    }
    return defaultCoverage;
  };
  const fetchNote = data.notes.length ? ` ${data.notes.join('; ')}.` : '';

  const systemActions: CdsSystemAction[] = [];
  const cards: CdsCard[] = [];
  const limits: CdsCard[] = [];
  const resolved: CoverageRuleDoc[] = [];
  /** Rules whose verdict card links the DTR app instead of the source: their sources go on the External Reference card. */
  const unlinked: CoverageRuleDoc[] = [];
  const scope = { states: new Set<string>(), programs: new Set<string>() };
  const evaluable = new Set<string>(EVALUATED_TYPES);

  const primary = PRIMARY_HOOKS.includes(req.hook);
  for (const target of data.targets) {
    const seed = `${req.hookInstance}|${target.resourceType}/${target.id}`;
    const u = use(coverageOfTarget(target));
    const { cc, coverage } = u;
    const unresolved = (why: string) => {
      // CRD 2.0.1 (hooks.html#hook-categories): appointment-book, order-sign and order-dispatch SHALL return coverage
      // information even when coverage cannot be determined; 2.0.1 says so with `conditional` and a reason. It needs
      // the Coverage it is about (coverage 1..1): without one, the card alone says why.
      const annotate = primary && evaluable.has(target.resourceType) && !!u.ref;
      if (annotate) systemActions.push(updateAction(target, toCoverageInformation(undetermined(why, u.ref!, seed, today))));
      cards.push(unresolvedCard(target, why, u.label, seed, annotate));
    };
    if (!evaluable.has(target.resourceType)) {
      unresolved(`This service evaluates ServiceRequest, DeviceRequest, MedicationRequest, Appointment and Encounter resources; a ${target.resourceType} is not evaluated.`);
      continue;
    }
    if (!coverage || !u.ref) {
      const why = data.coverageNull ? 'the EHR reported no Coverage for the patient (prefetch null)' : 'no Coverage was supplied in prefetch or could be read from the EHR';
      unresolved(`Coverage requirements need the patient's Coverage: ${why}.${fetchNote}`);
      continue;
    }
    if (!cc.state || !cc.program) {
      unresolved(`Cannot tell the member's state and program: ${cc.basis.filter((b) => b.includes('unknown')).join('; ')}.${fetchNote}`);
      continue;
    }
    scope.states.add(cc.state);
    scope.programs.add(cc.program);
    const res = resolveRule(model, { state: cc.state, program: cc.program, payer: cc.payer }, requestCodings(target, data.lookup));
    if (res.kind === 'no-rule') {
      const what = `${cc.state} ${PROGRAM_LABELS[cc.program]} ${res.subject.kind} '${res.subject.code}' (${res.via})`;
      // Outside the program's benefit (an MRI under Part D): not covered under this Coverage, said as such.
      const benefit = outsideProgram(cc.program, res.subject);
      if (benefit) {
        const why = `No rule for ${what}: ${benefit.reason}`;
        systemActions.push(updateAction(target, toCoverageInformation(outsideBenefit(why, u.ref, seed, today))));
        cards.push(outsideBenefitCard(target, why, u.label, seed));
        continue;
      }
      const notRun = programNotRun(model, cc.state, cc.program);
      unresolved(notRun ? `No rule for ${what}: ${notRun.reason}` : `No verified rule yet for ${what}.`);
      continue;
    }
    if (res.kind === 'unmapped') {
      const codes = res.codings.map((c) => `${c.system ?? '?'}|${c.code ?? '?'}`).join(', ') || 'none';
      unresolved(`None of the codes is in our CPT/HCPCS/RxNorm code lists: ${codes}.${fetchNote}`);
      continue;
    }
    const rule = res.rule;
    // A rule limited to an age group speaks only for it: the patient's age outside it leaves the order undetermined.
    const age = ageOutside(rule.requirement.ages, (data.patient as Patient | undefined)?.birthDate, today);
    if (age !== undefined) {
      unresolved(`The verified rule for ${cc.state} ${PROGRAM_LABELS[cc.program]} ${rule.subject.kind} '${rule.subject.code}' applies to ${rule.requirement.population} only; this patient (age ${age}) is outside it, so no verified rule speaks for this order.`);
      continue;
    }
    resolved.push(rule);
    const questionnaire = `${questionnaireUrl(opts.base, rule)}|${questionnaireVersion(rule)}`;
    const verdict = ruleVerdict(rule, res.coding, { coverage: { reference: u.ref }, date: today }, questionnaire);
    systemActions.push(updateAction(target, toCoverageInformation(verdict)));
    const insurer = insurerLabel(model, cc, rule);
    cards.push(
      verdictCard({
        rule,
        target,
        coding: res.coding,
        label: insurer,
        basis: cc.basis,
        ...(verdict.questionnaire ? { questionnaire } : {}),
        coverageRef: u.ref,
        ...(opts.dtrLaunchUrl ? { dtrLaunchUrl: opts.dtrLaunchUrl } : {}),
        seed,
      }),
    );
    if (verdict.questionnaire && opts.dtrLaunchUrl) unlinked.push(rule);
    const lim = limitsCard(rule, target, insurer, seed);
    if (lim) limits.push(lim);
  }
  for (const ref of data.missingTargets) {
    cards.push(unresolvedCard(ref, `${ref} was not in the request's prefetch and could not be read from the EHR.${fetchNote}`, use(defaultCoverage).label, `${req.hookInstance}|${ref}`));
  }
  const linked = new Set(resolved.filter((r) => !unlinked.includes(r)).map((r) => r.source.url));
  const sources = externalReferenceCard(
    unlinked.filter((r) => !linked.has(r.source.url)),
    unlinked[0] ? insurerLabel(model, use(defaultCoverage).cc, unlinked[0]) : use(defaultCoverage).label,
    req.hookInstance,
  );
  const out: CdsCard[] = [...(cfg.coverageInfo ? cards : []), ...(cfg.limits ? limits : []), ...(cfg.coverageInfo && sources ? [sources] : [])];
  return {
    response: { cards: out.slice(0, cfg.maxCards), systemActions: cfg.coverageInfo ? systemActions : [] },
    scope: { states: [...scope.states], programs: [...scope.programs] },
  };
}
