// From what a FHIR client sends (Coverage, Patient, order codes) to our vocabulary: a state, a program, a subject
// and the verified rule. Pure: the read model and the parsed resources in, values out. Every "cannot tell" is a
// value with a reason, never an exception.
import { ruleKey, payerRuleKey, type ReadModel } from '../corpus/read-model.js';
import type { CoverageRuleDoc, JurisdictionDoc, PayerDoc } from '../domain/documents.js';
import { isJurisdiction, normalizeProgram, type Program, type ServiceCategory, type SubjectKind } from '../domain/vocabulary.js';
import { CODE_PATTERN, resolveCode, type CodeResolution } from '../corpus/resolve-code.js';
import { CODE_SYSTEMS, CRD_EXT, PROCEDURE_CODE_SYSTEMS, RXNORM_SYSTEMS, SOPT_SYSTEMS } from '../../fhir-profiles/canonicals.js';
import type { Address, Bundle, Coding, Coverage, Medication, OrderResource, Organization, Patient, Reference, Resource, DomainResource } from './r4.js';

/** Where each part of the context came from, for the card that says how the plan was identified (or why it was not). */
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
    const r = e?.resource;
    if (!r || typeof r !== 'object' || typeof r.resourceType !== 'string') continue;
    if (typeof e.fullUrl === 'string') byUrl.set(e.fullUrl, r);
    if (typeof r.id === 'string') byUrl.set(`${r.resourceType}/${r.id}`, r);
  }
  return (ref, from) => {
    const s = ref && typeof ref === 'object' ? ref.reference : undefined;
    if (typeof s !== 'string' || !s) return undefined;
    if (s.startsWith('#')) {
      const contained = (from as DomainResource | undefined)?.contained;
      return (Array.isArray(contained) ? contained.find((c) => c?.id === s.slice(1)) : undefined) as Resource | undefined;
    }
    const direct = byUrl.get(s);
    if (direct) return direct;
    const m = /([A-Za-z]+\/[A-Za-z0-9.-]{1,64})(\/_history\/[^/]+)?$/.exec(s);
    return m ? byUrl.get(m[1]!) : undefined;
  };
}

/**
 * Source of Payment Typology (PHDSC/NAHDO, `https://nahdo.org/sopt`, OID 2.16.840.1.113883.3.221.5) codes that
 * name one of our programs. Every code is listed explicitly (no prefix matching), checked against the published
 * table: 11 Medicare (Managed Care), 111 Medicare HMO, 112 Medicare PPO, 113 Medicare POS, 119 Medicare Managed
 * Care Other, 12 Medicare (Non-managed Care), 121 Medicare FFS, 122 Medicare Drug Benefit, 123 Medicare Medical
 * Savings Account (MSA), 129 Medicare Non-managed Care Other, 13 Medicare Hospice, 14 Dual Eligibility
 * Medicare/Medicaid Organization, 21 Medicaid (Managed Care), 211 Medicaid HMO, 212 Medicaid PPO, 213 Medicaid PCCM,
 * 219 Medicaid Managed Care Other, 22 Medicaid (Non-managed Care Plan), 23 Medicaid/SCHIP, 361 State SCHIP program.
 * US Core's Coverage guidance: Parts A and B = 121, Part C = 111/112/113, Part D = 122.
 * Codes left out on purpose: 1 / 2 (Medicare / Medicaid, no plan type), 19, 191, 24-29, 291, 299 (cannot name a
 * program whose PA rules apply).
 */
export const SOPT_PROGRAMS: Readonly<Record<string, Program>> = {
  '11': 'medicare_advantage',
  '111': 'medicare_advantage',
  '112': 'medicare_advantage',
  '113': 'medicare_advantage',
  '119': 'medicare_advantage',
  // A Medicare MSA plan is a Medicare Advantage plan type (SOPT files it under non-managed care).
  '123': 'medicare_advantage',
  '12': 'medicare_traditional',
  '121': 'medicare_traditional',
  '129': 'medicare_traditional',
  '13': 'medicare_traditional',
  '122': 'part_d',
  '14': 'dual_eligible',
  '21': 'medicaid_mco',
  '211': 'medicaid_mco',
  '212': 'medicaid_mco',
  '219': 'medicaid_mco',
  // PCCM is managed care under 42 CFR 438 but services are paid (and prior-authorized) fee-for-service.
  '213': 'medicaid_ffs',
  '22': 'medicaid_ffs',
  '23': 'chip',
  '361': 'chip',
};

/** X12 claim filing indicator codes (1032) EHRs put in Coverage.type as a translation (US Core: Medicare Part A). */
const X12_CLAIM_FILING: Readonly<Record<string, Program>> = { MA: 'medicare_traditional', MB: 'medicare_traditional', '16': 'medicare_advantage' };

// camelCase words are split first: plan names arrive as "MedicarePartA" (the DTR test kit's Coverage.class value).
const norm = (s: string): string => s.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().replace(/[^a-z0-9+]+/g, ' ').trim();

/**
 * Plan and program names as EHRs write them in Coverage.class value/name, Coverage.type text or the payer's
 * name. Order matters: the most specific pattern first ("Medicare Part D" before "Medicare").
 */
const NAME_PATTERNS: readonly [RegExp, Program][] = [
  [/\b(dual|d snp|dsnp|medi medi|medicare medicaid plan|mmp|fide snp)\b/, 'dual_eligible'],
  [/\b(part d|pdp|prescription drug plan|medicare rx|partd)\b/, 'part_d'],
  [/\b(part c|medicare advantage|ma pd|mapd|medicare hmo|medicare ppo)\b/, 'medicare_advantage'],
  [/\b(part a|part b|parts a and b|part a and b|original medicare|traditional medicare|medicare ffs|medicare fee for service)\b/, 'medicare_traditional'],
  [/\b(chip|schip|children s health insurance)\b/, 'chip'],
  [/\bmedicaid\b.*\b(managed care|mco|hmo)\b|\b(managed care|mco)\b.*\bmedicaid\b/, 'medicaid_mco'],
  [/\bmedicaid\b.*\b(fee for service|ffs)\b/, 'medicaid_ffs'],
];

interface PlanName {
  program: Program;
  states: string[];
  what: string;
}

const planNameIndex = new WeakMap<ReadModel, Map<string, PlanName>>();

/**
 * The states' own Medicaid and CHIP program names (Medi-Cal, TennCare, Apple Health...) and Medicaid MCO brands,
 * from the jurisdiction documents. A Medicaid program name gives medicaid_ffs where the state is fee-for-service
 * dominant and medicaid_mco elsewhere; a brand gives medicaid_mco. A name used by one state also gives the state.
 */
function planNames(model: ReadModel): Map<string, PlanName> {
  let idx = planNameIndex.get(model);
  if (idx) return idx;
  idx = new Map();
  const add = (raw: string | undefined, program: Program, j: JurisdictionDoc, what: string): void => {
    if (!raw) return;
    for (const variant of [raw, raw.replace(/\s*\(.*\)\s*$/, '')]) {
      const k = norm(variant);
      if (k.length < 4) continue;
      const prev = idx!.get(k);
      if (!prev) idx!.set(k, { program, states: [j.id], what });
      else if (!prev.states.includes(j.id)) prev.states.push(j.id);
    }
  };
  for (const j of model.jurisdictions.values()) {
    add(j.medicaidProgramName, j.flags.ffsDominant ? 'medicaid_ffs' : 'medicaid_mco', j, `${j.id} Medicaid program name`);
    add(j.chipProgramName, 'chip', j, `${j.id} CHIP program name`);
    for (const b of j.mcoBrands) add(b, 'medicaid_mco', j, 'Medicaid MCO brand');
  }
  planNameIndex.set(model, idx);
  return idx;
}

/** A program (and sometimes a state) named by free text: a plan name, a class value, a payer name. */
export function programFromName(model: ReadModel, raw: string | undefined): { program: Program; state?: string; basis: string } | undefined {
  if (!raw || typeof raw !== 'string') return undefined;
  const alias = normalizeProgram(raw);
  if (alias) return { program: alias, basis: `'${raw.slice(0, 60)}'` };
  const text = norm(raw);
  const named = planNames(model).get(text);
  if (named) return { program: named.program, ...(named.states.length === 1 ? { state: named.states[0] } : {}), basis: `'${raw.slice(0, 60)}' (${named.what})` };
  for (const [re, program] of NAME_PATTERNS) if (re.test(text)) return { program, basis: `'${raw.slice(0, 60)}'` };
  return undefined;
}

function programFromCoverage(model: ReadModel, cov: Coverage): { program: Program; state?: string; basis: string } | undefined {
  const classes = Array.isArray(cov.class) ? cov.class : [];
  for (const c of classes) {
    for (const text of [c?.value, c?.name]) {
      const p = programFromName(model, text);
      if (p) return { ...p, basis: `Coverage.class ${p.basis}` };
    }
  }
  const codings = Array.isArray(cov.type?.coding) ? cov.type.coding : [];
  for (const coding of codings) {
    const code = typeof coding?.code === 'string' ? coding.code.trim() : '';
    if (!code) continue;
    if (coding.system && SOPT_SYSTEMS.includes(coding.system) && SOPT_PROGRAMS[code]) return { program: SOPT_PROGRAMS[code]!, basis: `Coverage.type SOPT ${code}` };
    if (coding.system && /x12/i.test(coding.system) && X12_CLAIM_FILING[code.toUpperCase()]) return { program: X12_CLAIM_FILING[code.toUpperCase()]!, basis: `Coverage.type X12 claim filing indicator ${code}` };
  }
  for (const text of [cov.type?.text, ...codings.map((c) => c?.display)]) {
    const p = programFromName(model, text);
    if (p) return { ...p, basis: `Coverage.type ${p.basis}` };
  }
  return undefined;
}

function payerFromCoverage(model: ReadModel, cov: Coverage, lookup: Lookup): PayerDoc | undefined {
  for (const ref of Array.isArray(cov.payor) ? cov.payor : []) {
    if (!ref || typeof ref !== 'object') continue;
    const org = lookup(ref, cov) as Organization | undefined;
    const ids = [typeof ref.reference === 'string' ? ref.reference.split('/').pop() : undefined, ref.identifier?.value, org?.id, ...(Array.isArray(org?.identifier) ? org.identifier : []).map((i) => i?.value)];
    for (const id of ids) {
      const p = typeof id === 'string' ? model.payers.get(id) : undefined;
      if (p) return p;
    }
    const names = [ref.display, org?.name].filter((n): n is string => typeof n === 'string' && !!n).map((n) => n.toLowerCase());
    for (const p of model.payers.values()) if (names.includes(p.name.toLowerCase())) return p;
  }
  return undefined;
}

/** The current address's state (an ended period or `use=old` is history, not residence); names of states are read too. */
function stateFromAddresses(addresses: unknown, at: string, skipBilling: boolean): string | undefined {
  for (const a of Array.isArray(addresses) ? (addresses as Address[]) : []) {
    if (!a || typeof a !== 'object') continue;
    if (a.use === 'old' || (skipBilling && a.use === 'billing') || (typeof a.period?.end === 'string' && a.period.end < at)) continue;
    const s = typeof a.state === 'string' ? stateCode(a.state) : undefined;
    if (s) return s;
  }
  return undefined;
}

const STATE_NAMES: Readonly<Record<string, string>> = {
  alabama: 'AL', alaska: 'AK', arizona: 'AZ', arkansas: 'AR', california: 'CA', colorado: 'CO', connecticut: 'CT', delaware: 'DE',
  'district of columbia': 'DC', florida: 'FL', georgia: 'GA', hawaii: 'HI', idaho: 'ID', illinois: 'IL', indiana: 'IN', iowa: 'IA',
  kansas: 'KS', kentucky: 'KY', louisiana: 'LA', maine: 'ME', maryland: 'MD', massachusetts: 'MA', michigan: 'MI', minnesota: 'MN',
  mississippi: 'MS', missouri: 'MO', montana: 'MT', nebraska: 'NE', nevada: 'NV', 'new hampshire': 'NH', 'new jersey': 'NJ',
  'new mexico': 'NM', 'new york': 'NY', 'north carolina': 'NC', 'north dakota': 'ND', ohio: 'OH', oklahoma: 'OK', oregon: 'OR',
  pennsylvania: 'PA', 'rhode island': 'RI', 'south carolina': 'SC', 'south dakota': 'SD', tennessee: 'TN', texas: 'TX', utah: 'UT',
  vermont: 'VT', virginia: 'VA', washington: 'WA', 'west virginia': 'WV', wisconsin: 'WI', wyoming: 'WY',
};

/** A USPS code or a state's full name (EHRs send both) to the USPS code. */
export function stateCode(raw: string): string | undefined {
  const up = raw.trim().toUpperCase();
  if (isJurisdiction(up)) return up;
  return STATE_NAMES[raw.trim().toLowerCase().replace(/\./g, '').replace(/\s+/g, ' ')];
}

/**
 * State and program for a member. Precedence: explicit hints (query parameters, request extension) > the
 * claim's jurisdiction > Coverage (class value or name naming a program or plan, SOPT or X12 type, type text) >
 * the patient's current address > a state-specific plan name > the payer document when it serves exactly one
 * state or program > the payer Organization's address > the caller's subscription when it names exactly one
 * state / program (`fallback`). Never throws on odd input: a field of the wrong type is skipped.
 */
export function resolveCoverageContext(
  model: ReadModel,
  input: {
    coverage?: Coverage;
    patient?: Patient;
    jurisdiction?: string;
    hints?: ExplicitHints;
    lookup: Lookup;
    today: string;
    /** The caller's subscription, used only when it names exactly one state or program. */
    fallback?: ExplicitHints;
  },
): CoverageContext {
  const basis: string[] = [];
  const ctx: CoverageContext = { basis };
  const { hints, fallback } = input;
  const coverage = input.coverage && typeof input.coverage === 'object' && input.coverage.resourceType === 'Coverage' ? input.coverage : undefined;
  if (hints?.state) (ctx.state = hints.state), basis.push('state from the request parameters');
  if (hints?.program) (ctx.program = hints.program), basis.push('program from the request parameters');
  if (!ctx.state && typeof input.jurisdiction === 'string' && isJurisdiction(input.jurisdiction)) {
    ctx.state = input.jurisdiction;
    basis.push('state from the claim identifier jurisdiction');
  }
  let planState: { state: string; basis: string } | undefined;
  if (coverage) {
    ctx.payer = payerFromCoverage(model, coverage, input.lookup);
    const p = programFromCoverage(model, coverage);
    if (p && !ctx.program) (ctx.program = p.program), basis.push(`program from ${p.basis}`);
    if (p?.state) planState = { state: p.state, basis: `state from ${p.basis}` };
  }
  const beneficiary = coverage ? input.lookup(coverage.beneficiary, coverage) : undefined;
  const patient = input.patient ?? (beneficiary?.resourceType === 'Patient' ? (beneficiary as Patient) : undefined);
  if (!ctx.state) {
    const s = stateFromAddresses(patient?.address, input.today, true);
    if (s) (ctx.state = s), basis.push("state from the patient's current address");
  }
  if (!ctx.state && planState) (ctx.state = planState.state), basis.push(planState.basis);
  const payer = ctx.payer;
  if (payer) {
    if (!ctx.program && payer.programs.length === 1) (ctx.program = payer.programs[0]), basis.push(`program from payer ${payer.name}`);
    if (!ctx.state && payer.jurisdictions.length === 1) (ctx.state = payer.jurisdictions[0]), basis.push(`state from payer ${payer.name}`);
  }
  if (coverage && (!ctx.state || !ctx.program)) {
    for (const ref of Array.isArray(coverage.payor) ? coverage.payor : []) {
      const org = input.lookup(ref, coverage);
      if (org?.resourceType !== 'Organization') continue;
      const o = org as Organization;
      if (!ctx.program) {
        const p = programFromName(model, o.name);
        if (p) (ctx.program = p.program), basis.push(`program from the payer Organization name ${p.basis}`);
      }
      if (!ctx.state) {
        const s = stateFromAddresses(o.address, input.today, false);
        if (s) (ctx.state = s), basis.push("state from the payer Organization's address");
      }
    }
  }
  if (!ctx.state && fallback?.state) (ctx.state = fallback.state), basis.push("state from the caller's subscription (its only state)");
  if (!ctx.program && fallback?.program) (ctx.program = fallback.program), basis.push("program from the caller's subscription (its only program)");
  if (!ctx.state) basis.push("state unknown: no request parameter, claim jurisdiction, current patient address, state-specific plan name, single-state payer or payer Organization address");
  if (!ctx.program) basis.push('program unknown: no request parameter, Coverage.class value or type naming a program (SOPT, X12, plan name) or single-program payer');
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

/**
 * CPT/HCPCS to a service category, through the one resolver the JSON API uses (services/resolve-code.ts): the
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

export const ORDER_TYPES = ['ServiceRequest', 'DeviceRequest', 'MedicationRequest'] as const;
export const isOrder = (r: Resource | undefined): r is OrderResource =>
  !!r && (ORDER_TYPES as readonly string[]).includes(r.resourceType);

export const coverageOf = (b: Bundle | Resource | null | undefined): Coverage[] => {
  if (!b || typeof b !== 'object') return [];
  if (b.resourceType === 'Coverage') return [b as Coverage];
  if (b.resourceType === 'Bundle') {
    const entries = (b as Bundle).entry;
    return (Array.isArray(entries) ? entries : []).map((e) => e?.resource).filter((r): r is Coverage => !!r && typeof r === 'object' && r.resourceType === 'Coverage');
  }
  return [];
};
