// Query-parameter parsing for the JSON endpoints: the controlled vocabulary, the aliases real clients send
// (drug_class, category, ma, dual), and one clear 400 for each way a request can be wrong.
import {
  invalidProgramMessage,
  invalidStateMessage,
  isStateCode,
  namedScope,
  type NamedScope,
} from '../domain/named-scope.js';
import { isDrugClass, isServiceCategory, normalizeProgram, type Program } from '../domain/vocabulary.js';
import type { SubjectQuery } from '../services/lookup.js';
import { badRequest } from '../domain/api-error.js';

/** One value of a parameter; a repeated parameter is an error, not a silent pick. */
export function single(q: URLSearchParams, name: string): string | undefined {
  const all = q.getAll(name);
  if (all.length > 1) throw badRequest(`Parameter '${name}' was given more than once`, 'invalid_parameter');
  const v = all[0]?.trim();
  return v === '' ? undefined : v;
}

/** The first of several accepted names that is present; two different values under aliases conflict. */
function aliased(q: URLSearchParams, names: readonly string[]): { name: string; value: string } | undefined {
  let found: { name: string; value: string } | undefined;
  for (const name of names) {
    const value = single(q, name);
    if (value === undefined) continue;
    if (found && found.value !== value) {
      throw badRequest(`'${found.name}' and '${name}' name the same parameter with different values`, 'conflicting_parameters');
    }
    found ??= { name, value };
  }
  return found;
}

export function parseState(raw: string | undefined, name = 'state'): string {
  if (raw === undefined) throw badRequest(`Missing required parameter '${name}' (a USPS code such as TX)`, 'missing_parameter');
  // The spec's pattern is ^[A-Z]{2}$: lower case is not silently accepted.
  if (!isStateCode(raw)) throw badRequest(invalidStateMessage(raw, name));
  return raw;
}

export function requireState(q: URLSearchParams, name = 'state'): string {
  return parseState(single(q, name), name);
}

export function parseProgram(raw: string | undefined): Program {
  if (raw === undefined) throw badRequest("Missing required parameter 'program'", 'missing_parameter');
  const p = normalizeProgram(raw);
  if (!p) throw badRequest(invalidProgramMessage(raw));
  return p;
}

export function requireProgram(q: URLSearchParams): Program {
  return parseProgram(single(q, 'program'));
}

export const DRUG_PARAM_NAMES = ['drug', 'drug_class'] as const;
export const SERVICE_PARAM_NAMES = ['service', 'category', 'service_category'] as const;

export function parseDrug(raw: string, name = 'drug'): SubjectQuery {
  const v = raw.toLowerCase();
  if (!isDrugClass(v)) throw badRequest(`Invalid ${name} '${raw.slice(0, 40)}': not one of the 20 drug class codes (see /v1/lookup-options)`);
  return { kind: 'drug', code: v };
}

export function parseService(raw: string, name = 'service'): SubjectQuery {
  const v = raw.toLowerCase();
  if (!isServiceCategory(v)) throw badRequest(`Invalid ${name} '${raw.slice(0, 40)}': not one of the 20 service categories (see /v1/lookup-options)`);
  return { kind: 'service', code: v };
}

/** Exactly one of drug or service (spec 4.3 rule 1). `extra` names other accepted alternatives, e.g. code. */
export function requireSubject(q: URLSearchParams): SubjectQuery {
  const drug = aliased(q, DRUG_PARAM_NAMES);
  const service = aliased(q, SERVICE_PARAM_NAMES);
  if (drug && service) throw badRequest("Give exactly one of 'drug' or 'service', not both", 'conflicting_parameters');
  if (!drug && !service) throw badRequest("Give exactly one of 'drug' (a drug class code) or 'service' (a service category)", 'missing_parameter');
  return drug ? parseDrug(drug.value, drug.name) : parseService(service!.value, service!.name);
}

export function optionalSubject(q: URLSearchParams): { drug?: { name: string; value: string }; service?: { name: string; value: string } } {
  return { drug: aliased(q, DRUG_PARAM_NAMES), service: aliased(q, SERVICE_PARAM_NAMES) };
}

/**
 * The states and programs a query names (each valid value of the named parameters, repeats included), for a route's
 * declared scope: authorized before anything else, so a state outside the subscription is a 403 whatever else is
 * wrong with the request. `states` parameters may hold comma-separated lists (compare's `states=TX,CA`).
 */
export function namedInQuery(q: URLSearchParams, names: { states?: readonly string[]; programs?: readonly string[] }): NamedScope {
  return namedScope({
    states: (names.states ?? []).flatMap((n) => q.getAll(n).flatMap((v) => v.split(','))),
    programs: (names.programs ?? []).flatMap((n) => q.getAll(n)),
  });
}
