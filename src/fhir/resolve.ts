// From what a FHIR client sends (Coverage, Patient, order codes) to our vocabulary: a state, a program, a subject
// and the verified rule. Pure: the read model and the parsed resources in, values out. Every "cannot tell" is a
// value with a reason, never an exception.
import { ruleKey, payerRuleKey, type ReadModel } from '../corpus/read-model.js';
import type { CodeMappingDoc, CoverageRuleDoc, PayerDoc } from '../domain/documents.js';
import { isJurisdiction, normalizeProgram, type Program, type SubjectKind } from '../domain/vocabulary.js';
import { CODE_SYSTEMS, CRD_EXT, PROCEDURE_CODE_SYSTEMS, RXNORM_SYSTEMS } from '../../fhir-profiles/canonicals.js';
import type { Bundle, Coding, Coverage, Medication, OrderResource, Organization, Patient, Reference, Resource, DomainResource } from './r4.js';

/** Where each part of the context came from, for the reason text of an indeterminate answer. */
export interface CoverageContext {
  state?: string;
  program?: Program;
  payer?: PayerDoc;
  /** Human-readable notes on how state and program were (or were not) found. */
  basis: string[];
}

export interface ExplicitHints {
  state?: string;
  program?: Program;
}

/** A resource resolver over what the client sent (a request Bundle, prefetch, contained resources). */
export type Lookup = (ref: Reference | undefined, from?: Resource) => Resource | undefined;

export function bundleLookup(resources: readonly { fullUrl?: string; resource?: Resource }[]): Lookup {
  const byUrl = new Map<string, Resource>();
  for (const e of resources) {
    const r = e.resource;
    if (!r) continue;
    if (e.fullUrl) byUrl.set(e.fullUrl, r);
    if (r.id) byUrl.set(`${r.resourceType}/${r.id}`, r);
  }
  return (ref, from) => {
    const s = ref?.reference;
    if (!s) return undefined;
    if (s.startsWith('#')) return (from as DomainResource | undefined)?.contained?.find((c) => c.id === s.slice(1)) as Resource | undefined;
    const direct = byUrl.get(s);
    if (direct) return direct;
    const m = /([A-Za-z]+\/[A-Za-z0-9.-]{1,64})(\/_history\/[^/]+)?$/.exec(s);
    return m ? byUrl.get(m[1]!) : undefined;
  };
}

const SOPT_PROGRAMS: readonly [string, Program][] = [
  // Source of Payment Typology (nahdo.org/sopt), longest prefix first. 122 Medicare drug benefit, 11x Medicare
  // managed care, 12x Medicare non-managed, 14 dual-eligible organisation, 21x Medicaid managed care, 22 Medicaid
  // non-managed, 23 Medicaid/SCHIP.
  ['122', 'part_d'],
  ['11', 'medicare_advantage'],
  ['12', 'medicare_traditional'],
  ['14', 'dual_eligible'],
  ['21', 'medicaid_mco'],
  ['22', 'medicaid_ffs'],
  ['23', 'chip'],
];

function programFromCoverage(cov: Coverage): { program: Program; basis: string } | undefined {
  for (const c of cov.class ?? []) {
    const p = normalizeProgram(c.value ?? '');
    if (p) return { program: p, basis: `Coverage.class value '${c.value}'` };
  }
  for (const coding of cov.type?.coding ?? []) {
    if (coding.system !== CODE_SYSTEMS.sopt || !coding.code) continue;
    const hit = SOPT_PROGRAMS.find(([prefix]) => coding.code!.startsWith(prefix));
    if (hit) return { program: hit[1], basis: `Coverage.type SOPT ${coding.code}` };
  }
  return undefined;
}

function payerFromCoverage(model: ReadModel, cov: Coverage, lookup: Lookup): PayerDoc | undefined {
  for (const ref of cov.payor ?? []) {
    const org = lookup(ref, cov) as Organization | undefined;
    const ids = [ref.reference?.split('/').pop(), ref.identifier?.value, org?.id, ...(org?.identifier ?? []).map((i) => i.value)];
    for (const id of ids) {
      const p = id ? model.payers.get(id) : undefined;
      if (p) return p;
    }
    const names = [ref.display, org?.name].filter((n): n is string => !!n).map((n) => n.toLowerCase());
    for (const p of model.payers.values()) if (names.includes(p.name.toLowerCase())) return p;
  }
  return undefined;
}

/** The member's state: the current home address (an ended period is history, not residence). */
function stateFromPatient(patient: Patient | undefined, at: string): string | undefined {
  for (const a of patient?.address ?? []) {
    if (a.use === 'old' || a.use === 'billing' || (a.period?.end && a.period.end < at)) continue;
    const s = a.state?.toUpperCase();
    if (s && isJurisdiction(s)) return s;
  }
  return undefined;
}

/**
 * State and program for a member. Precedence: explicit hints (query parameters, request extension) > the
 * claim's jurisdiction > Coverage (class value naming a program, SOPT type) > the patient's current address >
 * the payer document when it serves exactly one state or program.
 */
export function resolveCoverageContext(
  model: ReadModel,
  input: { coverage?: Coverage; patient?: Patient; jurisdiction?: string; hints?: ExplicitHints; lookup: Lookup; today: string },
): CoverageContext {
  const basis: string[] = [];
  const ctx: CoverageContext = { basis };
  const { coverage, hints } = input;
  if (hints?.state) (ctx.state = hints.state), basis.push('state from the request parameters');
  if (hints?.program) (ctx.program = hints.program), basis.push('program from the request parameters');
  if (!ctx.state && input.jurisdiction && isJurisdiction(input.jurisdiction)) {
    ctx.state = input.jurisdiction;
    basis.push('state from the claim identifier jurisdiction');
  }
  if (coverage) {
    ctx.payer = payerFromCoverage(model, coverage, input.lookup);
    if (!ctx.program) {
      const p = programFromCoverage(coverage);
      if (p) (ctx.program = p.program), basis.push(`program from ${p.basis}`);
    }
  }
  const patient = input.patient ?? (coverage ? (input.lookup(coverage.beneficiary, coverage) as Patient | undefined) : undefined);
  if (!ctx.state) {
    const s = stateFromPatient(patient, input.today);
    if (s) (ctx.state = s), basis.push("state from the patient's current address");
  }
  const payer = ctx.payer;
  if (payer) {
    if (!ctx.program && payer.programs.length === 1) (ctx.program = payer.programs[0]), basis.push(`program from payer ${payer.name}`);
    if (!ctx.state && payer.jurisdictions.length === 1) (ctx.state = payer.jurisdictions[0]), basis.push(`state from payer ${payer.name}`);
  }
  if (!ctx.state) basis.push('state unknown: no request parameter, claim jurisdiction, current patient address or single-state payer');
  if (!ctx.program) basis.push('program unknown: no request parameter, Coverage.class value naming a program, SOPT Coverage.type or single-program payer');
  return ctx;
}

// ---- codes -> subject -> rule ----

export interface Subject {
  kind: SubjectKind;
  code: string;
}

export type RuleResolution =
  | { kind: 'rule'; rule: CoverageRuleDoc; coding: Coding; subject: Subject; via: string }
  | { kind: 'no-rule'; coding: Coding; subject: Subject; via: string }
  | { kind: 'unmapped'; codings: Coding[] };

const byDirectCode = new WeakMap<ReadModel, Map<string, CoverageRuleDoc>>();

/** rule.codes index, keyed `state|program|system|code` (program-level rules first, then payer-level). */
function directIndex(model: ReadModel): Map<string, CoverageRuleDoc> {
  let idx = byDirectCode.get(model);
  if (idx) return idx;
  idx = new Map();
  const rules = [...model.rules.values(), ...[...model.payerRules.values()].flat()];
  for (const r of rules) {
    for (const c of r.codes ?? []) {
      const k = `${r.jurisdiction}|${r.program}|${c.system}|${c.code}`;
      if (!idx.has(k)) idx.set(k, r);
    }
  }
  byDirectCode.set(model, idx);
  return idx;
}

function inRange(m: CodeMappingDoc, code: string): boolean {
  if (m.code) return m.code === code;
  const r = m.range!;
  return r.from.length === code.length && r.to.length === code.length && r.from <= code && code <= r.to;
}

/** CPT/HCPCS to a service category: the state's own PA code list first, then the national ranges. */
export function serviceForProcedureCode(model: ReadModel, state: string | undefined, code: string): CodeMappingDoc | undefined {
  const c = code.trim().toUpperCase();
  return (
    model.codeMappings.find((m) => m.jurisdiction === state && state !== undefined && inRange(m, c)) ??
    model.codeMappings.find((m) => !m.jurisdiction && inRange(m, c))
  );
}

export function drugClassForRxnorm(model: ReadModel, code: string): string | undefined {
  return model.drugs.find((d) => d.rxnorm?.ingredient === code || d.rxnorm?.scd?.includes(code))?.drugClass;
}

function ruleFor(model: ReadModel, state: string, program: Program, subject: Subject, payer?: PayerDoc): CoverageRuleDoc | undefined {
  if (payer) {
    const own = model.payerRules.get(payerRuleKey(state, subject.kind, subject.code))?.find((r) => r.payer?.id === payer.id && r.program === program);
    if (own) return own;
  }
  return model.rules.get(ruleKey(state, program, subject.kind, subject.code));
}

/**
 * The first coding that names a rule wins; a coding that maps to a subject without a verified rule is kept as
 * the answer only when nothing better is found.
 */
export function resolveRule(model: ReadModel, ctx: { state: string; program: Program; payer?: PayerDoc }, codings: readonly Coding[]): RuleResolution {
  let gap: RuleResolution | undefined;
  const direct = directIndex(model);
  for (const coding of codings) {
    if (!coding.code) continue;
    const hit = direct.get(`${ctx.state}|${ctx.program}|${coding.system}|${coding.code}`);
    if (hit) return { kind: 'rule', rule: hit, coding, subject: hit.subject, via: `rule code ${coding.code}` };
    let subject: Subject | undefined;
    let via = '';
    if (coding.system && RXNORM_SYSTEMS.includes(coding.system)) {
      const cls = drugClassForRxnorm(model, coding.code);
      if (cls) (subject = { kind: 'drug', code: cls }), (via = `RxNorm ${coding.code} in the drug crosswalk`);
    } else if (coding.system && PROCEDURE_CODE_SYSTEMS.includes(coding.system)) {
      const m = serviceForProcedureCode(model, ctx.state, coding.code);
      if (m) (subject = { kind: 'service', code: m.serviceCategory }), (via = `${m.system} ${coding.code} via ${m.jurisdiction ? `${m.jurisdiction} code list` : 'national range'} ${m.id}`);
    }
    if (!subject) continue;
    const rule = ruleFor(model, ctx.state, ctx.program, subject, ctx.payer);
    if (rule) return { kind: 'rule', rule, coding, subject, via };
    gap ??= { kind: 'no-rule', coding, subject, via };
  }
  return gap ?? { kind: 'unmapped', codings: [...codings] };
}

/** Every coding an order carries: its code, CRD billing options, and a referenced or contained Medication. */
export function orderCodings(order: OrderResource, lookup?: Lookup): Coding[] {
  switch (order.resourceType) {
    case 'ServiceRequest': {
      const billing = (order.code?.extension ?? [])
        .filter((e) => e.url === CRD_EXT.billingOptions)
        .flatMap((e) => e.valueCodeableConcept?.coding ?? []);
      return [...(order.code?.coding ?? []), ...billing];
    }
    case 'DeviceRequest':
      return order.codeCodeableConcept?.coding ?? [];
    case 'MedicationRequest': {
      if (order.medicationCodeableConcept) return order.medicationCodeableConcept.coding ?? [];
      const med = lookup?.(order.medicationReference, order) as Medication | undefined;
      return med?.code?.coding ?? [];
    }
  }
}

export const ORDER_TYPES = ['ServiceRequest', 'DeviceRequest', 'MedicationRequest'] as const;
export const isOrder = (r: Resource | undefined): r is OrderResource =>
  !!r && (ORDER_TYPES as readonly string[]).includes(r.resourceType);

export const coverageOf = (b: Bundle | Resource | null | undefined): Coverage[] => {
  if (!b || typeof b !== 'object') return [];
  if (b.resourceType === 'Coverage') return [b as Coverage];
  if (b.resourceType === 'Bundle') return ((b as Bundle).entry ?? []).map((e) => e.resource).filter((r): r is Coverage => r?.resourceType === 'Coverage');
  return [];
};
