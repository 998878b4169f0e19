// From the codes an order or a claim item carries to our subject (drug class or service category) and the rule for
// it in a state and program (a payer's own rule first). Pure.
import { ruleKey, payerRuleKey, type ReadModel } from '../../corpus/read-model.js';
import type { CoverageRuleDoc, PayerDoc } from '../../domain/documents.js';
import type { Program, ServiceCategory, SubjectKind } from '../../domain/vocabulary.js';
import { CODE_PATTERN, resolveCode, type CodeResolution } from '../../corpus/resolve-code.js';
import { CODE_SYSTEMS, CRD_EXT, PROCEDURE_CODE_SYSTEMS, RXNORM_SYSTEMS } from '../../../fhir-profiles/canonicals.js';
import type { Coding, Medication, OrderResource, Reference, Resource } from '../r4.js';
import { isOrder, type Lookup } from './lookup.js';

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

/**
 * CPT/HCPCS to a service category, through the one resolver the JSON API uses (corpus/resolve-code.ts): the
 * state's own PA code list first, then the national ranges of the corpus, then the built-in range table.
 */
type ProcedureResolution = CodeResolution & { serviceCategory: CodeResolution['service_category'] };
const procedureMemo = new WeakMap<ReadModel, Map<string, ProcedureResolution | null>>();

export function serviceForProcedureCode(model: ReadModel, state: string | undefined, code: string): ProcedureResolution | undefined {
  const c = typeof code === 'string' ? code.trim().toUpperCase() : '';
  if (!CODE_PATTERN.test(c)) return undefined;
  // Memoised per read model (a new corpus version is a new model): hooks resolve the same few codes all day.
  let memo = procedureMemo.get(model);
  if (!memo) procedureMemo.set(model, (memo = new Map()));
  const key = `${state ?? ''}|${c}`;
  const hit = memo.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const r = resolveCode(model, state ?? '', c);
  const out = r ? { ...r, serviceCategory: r.service_category } : null;
  if (memo.size < 50_000) memo.set(key, out);
  return out ?? undefined;
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
    if (!coding || typeof coding !== 'object' || typeof coding.code !== 'string' || !coding.code) continue;
    const hit = direct.get(`${ctx.state}|${ctx.program}|${coding.system}|${coding.code}`);
    if (hit) return { kind: 'rule', rule: hit, coding, subject: hit.subject, via: `rule code ${coding.code}` };
    let subject: Subject | undefined;
    let via = '';
    if (coding.system && RXNORM_SYSTEMS.includes(coding.system)) {
      const cls = drugClassForRxnorm(model, coding.code);
      if (cls) (subject = { kind: 'drug', code: cls }), (via = `RxNorm ${coding.code} in the drug crosswalk`);
    } else if (coding.system === CODE_SYSTEMS.actCode && ENCOUNTER_CLASS_SERVICES[coding.code]) {
      subject = { kind: 'service', code: ENCOUNTER_CLASS_SERVICES[coding.code]! };
      via = `Encounter class ${coding.code}`;
    } else if (coding.system && PROCEDURE_CODE_SYSTEMS.includes(coding.system)) {
      const m = serviceForProcedureCode(model, ctx.state, coding.code);
      if (m) (subject = { kind: 'service', code: m.serviceCategory }), (via = `${m.system} ${m.code} via ${m.matched_by === 'state_pa_list' ? `${ctx.state} code list` : m.matched_by === 'national_range' ? 'national range' : 'built-in national range'} ${m.mapping_id ?? m.description}`);
    }
    if (!subject) continue;
    const rule = ruleFor(model, ctx.state, ctx.program, subject, ctx.payer);
    if (rule) return { kind: 'rule', rule, coding, subject, via };
    gap ??= { kind: 'no-rule', coding, subject, via };
  }
  return gap ?? { kind: 'unmapped', codings: [...codings] };
}

const codingsOf = (cc: unknown): Coding[] => {
  const list = cc && typeof cc === 'object' ? (cc as { coding?: unknown }).coding : undefined;
  return Array.isArray(list) ? list.filter((c): c is Coding => !!c && typeof c === 'object') : [];
};

/** Every coding an order carries: its code, CRD billing options, and a referenced or contained Medication. */
export function orderCodings(order: OrderResource, lookup?: Lookup): Coding[] {
  switch (order.resourceType) {
    case 'ServiceRequest': {
      const exts = order.code?.extension;
      const billing = (Array.isArray(exts) ? exts : []).filter((e) => e?.url === CRD_EXT.billingOptions).flatMap((e) => codingsOf(e.valueCodeableConcept));
      return [...codingsOf(order.code), ...billing];
    }
    case 'DeviceRequest':
      return codingsOf(order.codeCodeableConcept);
    case 'MedicationRequest': {
      if (order.medicationCodeableConcept) return codingsOf(order.medicationCodeableConcept);
      const med = lookup?.(order.medicationReference, order) as Medication | undefined;
      return med?.resourceType === 'Medication' ? codingsOf(med.code) : [];
    }
    default:
      return [];
  }
}

/** Encounter classes (v3 ActCode) that name one of our service categories: inpatient stays and home health. */
export const ENCOUNTER_CLASS_SERVICES: Readonly<Record<string, ServiceCategory>> = {
  IMP: 'inpatient_hospital',
  ACUTE: 'inpatient_hospital',
  NONAC: 'inpatient_hospital',
  HH: 'home_health',
};

/**
 * The codings a CRD request resource carries: an order's (orderCodings); an Appointment's service types plus the
 * codes of the orders it is based on; an Encounter's types plus its class.
 */
export function requestCodings(r: Resource, lookup?: Lookup): Coding[] {
  if (isOrder(r)) return orderCodings(r, lookup);
  const o = r as unknown as Record<string, unknown>;
  if (r.resourceType === 'Appointment') {
    const types = Array.isArray(o.serviceType) ? o.serviceType.flatMap(codingsOf) : [];
    const based = (Array.isArray(o.basedOn) ? o.basedOn : []).map((b) => lookup?.(b as Reference, r)).filter(isOrder).flatMap((ord) => orderCodings(ord, lookup));
    return [...types, ...based];
  }
  if (r.resourceType === 'Encounter') {
    const types = Array.isArray(o.type) ? o.type.flatMap(codingsOf) : [];
    const cls = o.class && typeof o.class === 'object' ? [o.class as Coding] : [];
    return [...types, ...cls];
  }
  return [];
}
