// What a request names, read from the request alone (never from data), for the one rule on scope: a request that
// names a state or program outside the caller's subscription is a 403 before anything is read (README "Choices").
// Each value is taken on its own: a valid state outside the subscription is a 403 even when another parameter is
// invalid (that 400 comes after); a value that is not a state or program names nothing and is left to the 400.
import { isJurisdiction, normalizeProgram, type Program } from './vocabulary.js';

/** The states and programs a request, an answer or a subscription covers (one shape for every layer). */
export interface Scope {
  states: string[];
  programs: string[];
}

export interface NamedScope {
  states: string[];
  programs: Program[];
}

/** Exactly a state as the interface spells it: an upper-case USPS code of the 50 states or DC (`^[A-Z]{2}$`). */
export const isStateCode = (raw: string): boolean => /^[A-Z]{2}$/.test(raw) && isJurisdiction(raw);
/** The one wording of a bad state or program, for the JSON 400s and the FHIR OperationOutcomes alike. */
export const invalidStateMessage = (raw: string, name = 'state'): string =>
  `Invalid ${name} '${raw.slice(0, 20)}': expected one of the 50 state USPS codes or DC, in upper case (^[A-Z]{2}$)`;
export const invalidProgramMessage = (raw: string): string =>
  `Invalid program '${raw.slice(0, 40)}': expected medicaid_mco, medicaid_ffs, medicare_advantage, medicare_traditional, dual_eligible, part_d or chip`;

/** A state as the interface spells it (upper-case USPS code, `^[A-Z]{2}$`), or undefined. */
export const namedState = (raw: unknown): string | undefined => (typeof raw === 'string' && /^[A-Z]{2}$/.test(raw.trim()) && isJurisdiction(raw.trim()) ? raw.trim() : undefined);

/** A program or one of its aliases, or undefined. */
export const namedProgram = (raw: unknown): Program | undefined => (typeof raw === 'string' && raw.trim() ? normalizeProgram(raw.trim()) : undefined);

/** The valid states and programs among raw values (repeats and invalid values dropped). */
export function namedScope(raw: { states?: readonly unknown[]; programs?: readonly unknown[] }): NamedScope {
  const states = [...new Set((raw.states ?? []).map(namedState).filter((s): s is string => !!s))];
  const programs = [...new Set((raw.programs ?? []).map(namedProgram).filter((p): p is Program => !!p))];
  return { states, programs };
}

type AnyScope = { states?: readonly string[]; programs?: readonly string[] };
/** Two named scopes as one. */
export const mergeScopes = (a: AnyScope, b: AnyScope): Scope => ({
  states: [...new Set([...(a.states ?? []), ...(b.states ?? [])])],
  programs: [...new Set([...(a.programs ?? []), ...(b.programs ?? [])])],
});

/**
 * The state and program a rule id names by its own text, in the forms the corpus uses: `tx.medicaid-mco.d.hepatitis-c`
 * (state.program.kind.code), `humana.tx.part-d.d.hepatitis-c` (payer.state.program...), `tx-superior.d.hepatitis-c`
 * (a state-prefixed payer: the state only). Empty for any other form (then only the rule found can tell).
 */
export function scopeOfRuleId(id: string): NamedScope {
  const std = /^([a-z]{2})\.([a-z-]+)\.[ds]\.[a-z0-9-]+$/.exec(id) ?? /^[a-z0-9-]+\.([a-z]{2})\.([a-z-]+)\.[ds]\.[a-z0-9-]+$/.exec(id);
  if (std) {
    const state = namedState(std[1]!.toUpperCase());
    const program = namedProgram(std[2]!.replace(/-/g, '_'));
    if (state) return { states: [state], programs: program ? [program] : [] };
  }
  const prefixed = /^([a-z]{2})-[a-z0-9-]+\.[ds]\.[a-z0-9-]+$/.exec(id);
  const state = prefixed ? namedState(prefixed[1]!.toUpperCase()) : undefined;
  return { states: state ? [state] : [], programs: [] };
}
