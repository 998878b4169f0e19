// From what a FHIR client sends (Coverage, Patient, the request's jurisdiction, explicit hints) to a state, a program
// and a payer of our corpus. Pure: the read model and the parsed resources in, values out. Every "cannot tell" is a
// value with a reason, never an exception.
import type { ReadModel } from '../../corpus/read-model.js';
import type { JurisdictionDoc, PayerDoc } from '../../domain/documents.js';
import { isJurisdiction, normalizeProgram, type Program } from '../../domain/vocabulary.js';
import { SOPT_SYSTEMS } from '../../../fhir-profiles/canonicals.js';
import type { Address, Coverage, Organization, Patient } from '../r4.js';
import type { Lookup } from './lookup.js';

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
  /** The state's Medicaid program name: it covers fee-for-service and managed care members alike. */
  medicaidProgramName?: boolean;
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
  const add = (raw: string | undefined, program: Program, j: JurisdictionDoc, what: string, medicaidProgramName = false): void => {
    if (!raw) return;
    for (const variant of [raw, raw.replace(/\s*\(.*\)\s*$/, '')]) {
      const k = norm(variant);
      if (k.length < 4) continue;
      const prev = idx!.get(k);
      if (!prev) idx!.set(k, { program, states: [j.id], what, ...(medicaidProgramName ? { medicaidProgramName } : {}) });
      else if (!prev.states.includes(j.id)) prev.states.push(j.id);
    }
  };
  for (const j of model.jurisdictions.values()) {
    add(j.medicaidProgramName, j.flags.ffsDominant ? 'medicaid_ffs' : 'medicaid_mco', j, `${j.id} Medicaid program name`, true);
    add(j.chipProgramName, 'chip', j, `${j.id} CHIP program name`);
    for (const b of j.mcoBrands) add(b, 'medicaid_mco', j, 'Medicaid MCO brand');
  }
  planNameIndex.set(model, idx);
  return idx;
}

/** A program (and sometimes a state) named by free text: a plan name, a class value, a payer name. */
export function programFromName(model: ReadModel, raw: string | undefined): { program: Program; state?: string; basis: string; medicaidProgramName?: true; pattern?: true } | undefined {
  if (!raw || typeof raw !== 'string') return undefined;
  const alias = normalizeProgram(raw);
  if (alias) return { program: alias, basis: `'${raw.slice(0, 60)}'` };
  const text = norm(raw);
  const named = planNames(model).get(text);
  if (named) {
    return {
      program: named.program, ...(named.states.length === 1 ? { state: named.states[0] } : {}), basis: `'${raw.slice(0, 60)}' (${named.what})`,
      ...(named.medicaidProgramName ? { medicaidProgramName: true as const } : {}),
    };
  }
  for (const [re, program] of NAME_PATTERNS) if (re.test(text)) return { program, basis: `'${raw.slice(0, 60)}'`, pattern: true };
  return undefined;
}

/** The program a coded Coverage.type names (SOPT or an X12 claim filing indicator), if any. */
function programFromTypeCode(cov: Coverage): { program: Program; basis: string } | undefined {
  const codings = Array.isArray(cov.type?.coding) ? cov.type.coding : [];
  for (const coding of codings) {
    const code = typeof coding?.code === 'string' ? coding.code.trim() : '';
    if (!code) continue;
    if (coding.system && SOPT_SYSTEMS.includes(coding.system) && SOPT_PROGRAMS[code]) return { program: SOPT_PROGRAMS[code]!, basis: `Coverage.type SOPT ${code}` };
    if (coding.system && /x12/i.test(coding.system) && X12_CLAIM_FILING[code.toUpperCase()]) return { program: X12_CLAIM_FILING[code.toUpperCase()]!, basis: `Coverage.type X12 claim filing indicator ${code}` };
  }
  return undefined;
}

const MEDICAID_DELIVERY: ReadonlySet<Program> = new Set(['medicaid_ffs', 'medicaid_mco']);

function programFromCoverage(model: ReadModel, cov: Coverage): { program: Program; state?: string; basis: string } | undefined {
  const typed = programFromTypeCode(cov);
  const classes = Array.isArray(cov.class) ? cov.class : [];
  for (const c of classes) {
    for (const text of [c?.value, c?.name]) {
      const p = programFromName(model, text);
      if (!p) continue;
      // A coded type (SOPT, X12) is the payer's own classification. Where a name only hints at a program, the code
      // decides it and the name keeps the state it names: a state's Medicaid program name, which has both delivery
      // systems, under SOPT 213 "Medicaid FFS"; a word found in free text ("Original Medicare, dual eligible (QMB+)"
      // under SOPT 121, "... no Part D" under SOPT 112). A plan brand or an exact program name still decides.
      const both = p.medicaidProgramName && typed && MEDICAID_DELIVERY.has(typed.program) && MEDICAID_DELIVERY.has(p.program);
      if (typed && typed.program !== p.program && (both || p.pattern)) {
        const why = both ? "names the state's Medicaid program, which has both" : `reads as ${p.program} by a word in it; the coded type decides`;
        return { program: typed.program, ...(p.state ? { state: p.state } : {}), basis: `${typed.basis} (Coverage.class ${p.basis} ${why})` };
      }
      return { program: p.program, ...(p.state ? { state: p.state } : {}), basis: `Coverage.class ${p.basis}` };
    }
  }
  if (typed) return typed;
  const codings = Array.isArray(cov.type?.coding) ? cov.type.coding : [];
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
