// US Drug Formulary (2.0.1) declarations: the per-pair bundle (interface spec endpoint 19, key required) and the
// RESTful read/search of the usdf-server capability (InsurancePlan, Basic, MedicationKnowledge, Location), public
// while FORMULARY_PUBLIC is on. Search parameters are exactly those of the IG's usdf-server CapabilityStatement.
import { USDF_CAPABILITY, USDF_EXT, USDF_PROFILE, USDF_SP } from '../../../fhir-profiles/canonicals.js';
import { parseStateProgram, type FhirDecl, type FhirPathDecl, type FhirResourceDecl, type OpEnv, type OpResult } from '../decl-types.js';
import type { Scope } from '../../domain/named-scope.js';
import { toFormularyBundle } from '../../fhir/formulary.js';
import { isFailure } from '../../fhir/outcome.js';
import type { Basic, CodeableConcept, InsurancePlan, Location, MedicationKnowledge, Resource } from '../../fhir/r4.js';
import { runSearch, type DateValue, type IndexedParam, type SearchSpec, type TokenValue } from '../search.js';
import { usdfIndex, type UsdfResource } from '../../fhir/usdf/resources.js';
import { noneWillExist, programNotRun } from '../../corpus/program-gap.js';

const formulary: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-formulary',
  path: '/v1/formulary/:state/:program',
  pathParams: [
    { name: 'state', description: 'USPS code of a state or DC, upper case (^[A-Z]{2}$)' },
    { name: 'program', description: 'Program (aliases accepted)' },
  ],
  auth: 'key',
  summary: 'US Drug Formulary (2.0.1) Bundle of a state and program',
  description:
    'A searchset Bundle of the pair\'s Formulary InsurancePlan (usdf-Formulary), one Basic (usdf-FormularyItem: tier, prior-authorization, step-therapy and quantity-limit flags) per RxNorm-coded drug, and the MedicationKnowledge (usdf-FormularyDrug) each item points at: the result of Basic?formulary=InsurancePlan/{id}&_include=Basic:subject. 404 when the pair has no verified drug rule.',
  // The types the bundle returns (the SMART scope a token needs here); read/search declarations below describe them.
  capability: [
    { type: 'InsurancePlan', supportedProfile: [USDF_PROFILE.formulary] },
    { type: 'Basic', supportedProfile: [USDF_PROFILE.formularyItem] },
    { type: 'MedicationKnowledge', supportedProfile: [USDF_PROFILE.formularyDrug] },
  ],
  run(input, env) {
    const sp = parseStateProgram(input.params.state, input.params.program, '');
    if (isFailure(sp)) return sp;
    const bundle = toFormularyBundle(env.model, { ...sp, base: env.base, now: env.now });
    const scope = { states: [sp.state], programs: [sp.program] };
    if (!bundle) {
      // Medicaid managed care in a state with no plans: no drug rule will exist (corpus/program-gap.ts).
      const outside = programNotRun(env.model, sp.state, sp.program);
      const message = outside ? noneWillExist(`${sp.state} ${sp.program} drugs`, outside) : `No verified drug rule for ${sp.state} ${sp.program} yet`;
      return { status: 404, code: 'scope_gap', message, scope };
    }
    return { body: bundle, scope };
  },
};

// ---- value readers shared by the parameters ----
const codings = (cc: CodeableConcept | undefined): TokenValue[] => (cc?.coding ?? []).filter((c) => c.code).map((c) => ({ ...(c.system ? { system: c.system } : {}), code: c.code! }));
const ext = (r: { extension?: Basic['extension'] }, url: string) => (r.extension ?? []).filter((e) => e.url === url);
const lastUpdated = (r: Resource): DateValue[] => (r.meta?.lastUpdated ? [{ start: r.meta.lastUpdated, end: r.meta.lastUpdated }] : []);
const idParam = <R extends Resource>(): IndexedParam<R> => ({ name: '_id', type: 'token', definition: 'http://hl7.org/fhir/SearchParameter/Resource-id', values: (r) => [{ code: r.id! }] });
const lastUpdatedParam = <R extends Resource>(definition: string): IndexedParam<R> => ({ name: '_lastUpdated', type: 'date', definition, values: lastUpdated });
const normalizeInclude = (type: string, inc: string): string => (inc.includes(':') ? inc : `${type}:${inc}`);

const insurancePlanSpec: SearchSpec<InsurancePlan> = {
  resourceType: 'InsurancePlan',
  params: [
    idParam(),
    lastUpdatedParam(`${USDF_SP}/InsurancePlan-lastupdated`),
    { name: 'identifier', type: 'token', definition: `${USDF_SP}/InsurancePlan-identifier`, values: (r) => (r.identifier ?? []).filter((i) => i.value).map((i) => ({ ...(i.system ? { system: i.system } : {}), code: i.value! })) },
    { name: 'status', type: 'token', definition: `${USDF_SP}/InsurancePlan-status`, values: (r) => (r.status ? [{ system: 'http://hl7.org/fhir/publication-status', code: r.status }] : []) },
    { name: 'period', type: 'date', definition: `${USDF_SP}/InsurancePlan-period`, values: (r) => (r.period ? [r.period] : []) },
    { name: 'type', type: 'token', definition: `${USDF_SP}/InsurancePlan-type`, values: (r) => (r.type ?? []).flatMap(codings) },
    { name: 'name', type: 'string', definition: `${USDF_SP}/InsurancePlan-name`, values: (r) => [r.name ?? '', ...(r.alias ?? [])].filter(Boolean) },
    { name: 'coverage-type', type: 'token', definition: `${USDF_SP}/InsurancePlan-coverage-type`, values: (r) => (r.coverage ?? []).flatMap((c) => codings(c.type)) },
    {
      name: 'formulary-coverage',
      type: 'reference',
      definition: `${USDF_SP}/InsurancePlan-formulary-coverage`,
      values: (r) => (r.coverage ?? []).flatMap((c) => ext(c, USDF_EXT.formularyReference).map((e) => e.valueReference?.reference ?? '')).filter(Boolean),
    },
    { name: 'coverage-area', type: 'reference', definition: `${USDF_SP}/InsurancePlan-coverage-area`, values: (r) => (r.coverageArea ?? []).map((a) => a.reference ?? '').filter(Boolean) },
  ],
  includes: {
    'InsurancePlan:formulary-coverage': (r) => (r.coverage ?? []).flatMap((c) => ext(c, USDF_EXT.formularyReference).map((e) => e.valueReference?.reference ?? '')).filter(Boolean),
  },
};

const basicSpec: SearchSpec<Basic> = {
  resourceType: 'Basic',
  params: [
    idParam(),
    lastUpdatedParam(`${USDF_SP}/Basic-lastupdated`),
    { name: 'code', type: 'token', definition: `${USDF_SP}/Basic-code`, values: (r) => codings(r.code) },
    { name: 'subject', type: 'reference', definition: `${USDF_SP}/Basic-subject`, values: (r) => (r.subject?.reference ? [r.subject.reference] : []) },
    { name: 'status', type: 'token', definition: `${USDF_SP}/Basic-status`, values: (r) => ext(r, USDF_EXT.availabilityStatus).map((e) => ({ code: e.valueCode ?? '' })) },
    { name: 'period', type: 'date', definition: `${USDF_SP}/Basic-period`, values: (r) => ext(r, USDF_EXT.availabilityPeriod).flatMap((e) => (e.valuePeriod ? [e.valuePeriod] : [])) },
    { name: 'formulary', type: 'reference', definition: `${USDF_SP}/Basic-formulary`, values: (r) => ext(r, USDF_EXT.formularyReference).map((e) => e.valueReference?.reference ?? '').filter(Boolean) },
    { name: 'pharmacy-benefit-type', type: 'token', definition: `${USDF_SP}/Basic-pharmacy-benefit-type`, values: (r) => ext(r, USDF_EXT.pharmacyBenefitType).flatMap((e) => codings(e.valueCodeableConcept)) },
    { name: 'drug-tier', type: 'token', definition: `${USDF_SP}/Basic-drug-tier`, values: (r) => ext(r, USDF_EXT.drugTier).flatMap((e) => codings(e.valueCodeableConcept)) },
  ],
  includes: {
    'Basic:subject': (r) => (r.subject?.reference ? [r.subject.reference] : []),
    'Basic:formulary': (r) => ext(r, USDF_EXT.formularyReference).map((e) => e.valueReference?.reference ?? '').filter(Boolean),
  },
};

const medicationKnowledgeSpec: SearchSpec<MedicationKnowledge> = {
  resourceType: 'MedicationKnowledge',
  params: [
    idParam(),
    lastUpdatedParam(`${USDF_SP}/MedicationKnowledge-lastupdated`),
    { name: 'status', type: 'token', definition: 'http://hl7.org/fhir/SearchParameter/MedicationKnowledge-status', values: (r) => (r.status ? [{ system: 'http://hl7.org/fhir/CodeSystem/medicationKnowledge-status', code: r.status }] : []) },
    { name: 'code', type: 'token', definition: 'http://hl7.org/fhir/SearchParameter/MedicationKnowledge-code', values: (r) => codings(r.code) },
    {
      name: 'drug-name',
      type: 'string',
      definition: `${USDF_SP}/MedicationKnowledge-drug-name`,
      values: (r) => [...(r.code?.coding ?? []).map((c) => c.display ?? ''), ...(r.synonym ?? [])].filter(Boolean),
    },
    { name: 'doseform', type: 'token', definition: `${USDF_SP}/MedicationKnowledge-doseform`, values: (r) => codings(r.doseForm) },
  ],
};

const addressParts = (r: Location): string[] => {
  const a = r.address;
  return a ? [...(a.line ?? []), a.city, a.district, a.state, a.postalCode, a.country, a.text].filter((s): s is string => !!s) : [];
};
const locationSpec: SearchSpec<Location> = {
  resourceType: 'Location',
  params: [
    idParam(),
    lastUpdatedParam('http://hl7.org/fhir/SearchParameter/Resource-lastUpdated'),
    { name: 'address', type: 'string', definition: 'http://hl7.org/fhir/SearchParameter/Location-address', values: addressParts },
    { name: 'address-city', type: 'string', definition: 'http://hl7.org/fhir/SearchParameter/Location-address-city', values: (r) => (r.address?.city ? [r.address.city] : []) },
    { name: 'address-state', type: 'string', definition: 'http://hl7.org/fhir/SearchParameter/Location-address-state', values: (r) => (r.address?.state ? [r.address.state] : []) },
    { name: 'address-postalcode', type: 'string', definition: 'http://hl7.org/fhir/SearchParameter/Location-address-postalcode', values: (r) => (r.address?.postalCode ? [r.address.postalCode] : []) },
  ],
};

/** Whether the caller's subscription covers a resource (public routes: always); asked once per distinct scope. */
const visible = (env: OpEnv) => {
  const index = usdfIndex(env.model);
  const answers = new Map<Scope, boolean>();
  return (r: Resource): boolean => {
    const scope = index.scopeByResource.get(r);
    if (!scope || (!scope.states.length && !scope.programs.length)) return true;
    let ok = answers.get(scope);
    if (ok === undefined) answers.set(scope, (ok = env.inScope(scope)));
    return ok;
  };
};

function resourceDecl<R extends UsdfResource>(spec: SearchSpec<R>, profiles: string[], description: string): FhirResourceDecl {
  return {
    kind: 'resource',
    id: `fhir-usdf-${spec.resourceType.toLowerCase()}`,
    resourceType: spec.resourceType,
    auth: 'key',
    publicWhen: 'formularyPublic',
    instantiates: [USDF_CAPABILITY],
    summary: `US Drug Formulary ${spec.resourceType}`,
    description,
    supportedProfile: profiles,
    searchParams: spec.params.map(({ name, type, definition }) => ({ name, type, ...(definition ? { definition } : {}) })),
    searchInclude: Object.keys(spec.includes ?? {}),
    read(id, env): OpResult {
      const index = usdfIndex(env.model);
      const r = index.byRef.get(`${spec.resourceType}/${id}`);
      if (!r) return { status: 404, code: 'not_found', message: `No ${spec.resourceType} with id '${id.slice(0, 64)}'`, expression: 'id' };
      // A resource of a state or program outside the key's subscription is the 403 (authorized before it is answered).
      const scope = index.scopeByResource.get(r);
      return { body: r, ...(scope && (scope.states.length || scope.programs.length) ? { scope } : {}) };
    },
    search(input, env) {
      const index = usdfIndex(env.model);
      const params = new URLSearchParams();
      for (const [k, v] of input.params) params.append(k, k === '_include' ? v.split(',').map((i) => normalizeInclude(spec.resourceType, i)).join(',') : v);
      return runSearch(
        spec,
        { resources: (index.byType.get(spec.resourceType) ?? []) as R[], resolve: (ref) => index.byRef.get(ref), visible: visible(env) },
        { ...input, params },
        env,
      );
    },
  };
}

export const FORMULARY_DECLS: readonly FhirDecl[] = [
  formulary,
  resourceDecl(
    insurancePlanSpec,
    [USDF_PROFILE.payerInsurancePlan, USDF_PROFILE.formulary],
    'Formularies (usdf-Formulary: one per state and program with verified drug rules, and one per payer where it has its own drug rules) and the plans that use them (usdf-PayerInsurancePlan: the program in a state, and each payer per program). Public when FORMULARY_PUBLIC is on.',
  ),
  resourceDecl(basicSpec, [USDF_PROFILE.formularyItem], 'FormularyItems: one per formulary and RxNorm-coded drug, with the prior-authorization, step-therapy and quantity-limit flags of the rule. Public when FORMULARY_PUBLIC is on.'),
  resourceDecl(medicationKnowledgeSpec, [USDF_PROFILE.formularyDrug], 'FormularyDrugs: one per RxNorm semantic clinical drug (SCD) the crosswalk confirms. Public when FORMULARY_PUBLIC is on.'),
  resourceDecl(locationSpec, [USDF_PROFILE.insurancePlanLocation], 'Coverage areas (usdf-InsurancePlanLocation): one per state or DC a plan covers. Public when FORMULARY_PUBLIC is on.'),
];
