// The one registry of the FHIR and CDS Hooks surfaces. Each FHIR interaction / operation and each CDS service is
// declared once (id, path, definition canonical, hook, prefetch, parse + run); the routes (http/routes/fhir-routes.ts,
// cds-routes.ts), the CapabilityStatement, the CDS discovery document and /openapi.json are all generated from here.
import type { ReadModel } from '../corpus/read-model.js';
import { isDrugClass, isJurisdiction, isServiceCategory, normalizeProgram, type Program } from '../domain/vocabulary.js';
import { CAPABILITY_STATIC } from '../../capability/capability-statement.js';
import { CDS_SERVICE_TEXT, CRD_CONFIGURATION_OPTIONS } from '../../capability/cds-services.js';
import { CRD_VERSION, DTR_OPERATION, DTR_PROFILE, PAS_OPERATION, USDF_PROFILE } from '../../fhir-profiles/canonicals.js';
import { runCoverageRequirements } from '../cds/crd.js';
import type { CdsHookRequest, CdsResponse, CdsServiceDescription } from '../cds/types.js';
import { toFormularyBundle } from './formulary.js';
import { isFailure, type Failure } from './outcome.js';
import { decideItems, parsePasRequest, pasCoverageContext, toPasResponse } from './pas.js';
import { parsePackageInput, questionnairePackage, toDtrQuestionnaire } from './questionnaire.js';
import type { CapabilityStatement, CapabilityStatementResource, Resource } from './r4.js';
import type { ExplicitHints } from './resolve.js';

export interface OpInput {
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  body: unknown;
}
export interface OpEnv {
  model: ReadModel;
  /** Public base address, without /v1. */
  base: string;
  now: Date;
  softwareVersion: string;
}
export interface Scope {
  states: string[];
  programs: string[];
}
/** A run's answer: the resource, and the scope the caller's key must cover (checked before anything is sent). */
export type OpResult<B = Resource> = { body: B; scope?: Scope } | Failure;

interface FhirDeclBase {
  id: string;
  summary: string;
  description: string;
  auth: 'none' | 'key';
  /** What the CapabilityStatement says about the resources this declaration serves. */
  capability?: CapabilityStatementResource[];
  run(input: OpInput, env: OpEnv): OpResult;
}
/** An interaction at its own path (metadata, formulary, DTR questionnaire). */
export interface FhirPathDecl extends FhirDeclBase {
  kind: 'path';
  path: string;
  pathParams: { name: string; description: string; enum?: readonly string[] }[];
}
/** A type-level operation, POST [base]/{resourceType}/${name}. */
export interface FhirOperationDecl extends FhirDeclBase {
  kind: 'operation';
  resourceType: string;
  name: string;
  definition: string;
  queryParams: { name: string; description: string }[];
}
export type FhirDecl = FhirPathDecl | FhirOperationDecl;

export interface CdsServiceDecl {
  id: string;
  hook: 'order-sign' | 'order-select';
  prefetch: Record<string, string>;
  run(req: CdsHookRequest, hints: ExplicitHints, env: OpEnv): { body: CdsResponse; scope: Scope };
}

// ---- parsing shared by the declarations (pure; failures are values) ----

export function parseStateProgram(rawState: string | undefined, rawProgram: string | undefined, at: string): { state: string; program: Program } | Failure {
  const state = rawState?.toUpperCase();
  if (!state || !isJurisdiction(state)) {
    return { status: 400, code: 'invalid_parameter', message: `Invalid state '${(rawState ?? '').slice(0, 20)}': expected one of the 50 state USPS codes or DC`, expression: `${at}state` };
  }
  const program = rawProgram ? normalizeProgram(rawProgram) : undefined;
  if (!program) {
    return {
      status: 400,
      code: 'invalid_parameter',
      message: `Invalid program '${(rawProgram ?? '').slice(0, 40)}': expected medicaid_mco, medicaid_ffs, medicare_advantage, medicare_traditional, dual_eligible, part_d or chip`,
      expression: `${at}program`,
    };
  }
  return { state, program };
}

/** Optional explicit state/program (query parameters, or a CDS request's `prauth.state` / `prauth.program` extension). */
export function parseHints(rawState: unknown, rawProgram: unknown): ExplicitHints | Failure {
  const hints: ExplicitHints = {};
  if (rawState !== undefined && rawState !== '') {
    const s = typeof rawState === 'string' ? rawState.toUpperCase() : '';
    if (!isJurisdiction(s)) return { status: 400, code: 'invalid_parameter', message: `Invalid state '${String(rawState).slice(0, 20)}'`, expression: 'state' };
    hints.state = s;
  }
  if (rawProgram !== undefined && rawProgram !== '') {
    const p = typeof rawProgram === 'string' ? normalizeProgram(rawProgram) : undefined;
    if (!p) return { status: 400, code: 'invalid_parameter', message: `Invalid program '${String(rawProgram).slice(0, 40)}'`, expression: 'program' };
    hints.program = p;
  }
  return hints;
}

const queryHints = (q: URLSearchParams): ExplicitHints | Failure => parseHints(q.get('state') ?? undefined, q.get('program') ?? undefined);
const today = (d: Date): string => d.toISOString().slice(0, 10);

// ---- the FHIR declarations ----

const formulary: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-formulary',
  path: '/v1/formulary/:state/:program',
  pathParams: [
    { name: 'state', description: 'USPS code of a state or DC (case-insensitive)' },
    { name: 'program', description: 'Program (aliases accepted)' },
  ],
  auth: 'key',
  summary: 'US Drug Formulary (2.1.0) Bundle of a state and program',
  description:
    'A searchset Bundle of one InsurancePlan (usdf-Formulary), one Basic (usdf-FormularyItem: tier, prior-authorization, step-therapy and quantity-limit flags) per drug, and the MedicationKnowledge (usdf-FormularyDrug, RxNorm where the crosswalk knows it) each item points at. 404 when the pair has no verified drug rule.',
  capability: [
    { type: 'InsurancePlan', supportedProfile: [USDF_PROFILE.formulary], documentation: 'In the Bundle at GET /formulary/{state}/{program}; no read or search at /InsurancePlan.' },
    { type: 'Basic', supportedProfile: [USDF_PROFILE.formularyItem], documentation: 'FormularyItems, in the same Bundle; no read or search at /Basic.' },
    { type: 'MedicationKnowledge', supportedProfile: [USDF_PROFILE.formularyDrug], documentation: 'FormularyDrugs, in the same Bundle; no read or search at /MedicationKnowledge.' },
  ],
  run(input, env) {
    const sp = parseStateProgram(input.params.state, input.params.program, '');
    if (isFailure(sp)) return sp;
    const bundle = toFormularyBundle(env.model, { ...sp, base: env.base, now: env.now });
    const scope = { states: [sp.state], programs: [sp.program] };
    if (!bundle) return { status: 404, code: 'scope_gap', message: `No verified drug rule for ${sp.state} ${sp.program} yet`, scope };
    return { body: bundle, scope };
  },
};

const dtrQuestionnaire: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-dtr-questionnaire',
  path: '/v1/dtr/questionnaire/:state/:program/:drug',
  pathParams: [
    { name: 'state', description: 'USPS code of a state or DC (case-insensitive)' },
    { name: 'program', description: 'Program (aliases accepted)' },
    { name: 'drug', description: 'A drug class code; a service category is also accepted (the canonical of service-rule questionnaires)' },
  ],
  auth: 'key',
  summary: 'DTR (2.2.0) Questionnaire for a rule',
  description:
    "The rule's criteria and documentation requirements as a dtr-std-questionnaire. Its url is this address (the canonical CRD points at) and its version the rule's stored version. 404 when there is no verified rule.",
  capability: [
    { type: 'Questionnaire', supportedProfile: [DTR_PROFILE.stdQuestionnaire], documentation: 'Read by canonical at GET /dtr/questionnaire/{state}/{program}/{code}; no read or search at /Questionnaire.' },
  ],
  run(input, env) {
    const sp = parseStateProgram(input.params.state, input.params.program, '');
    if (isFailure(sp)) return sp;
    const code = (input.params.drug ?? '').toLowerCase();
    const kind = isDrugClass(code) ? 'drug' : isServiceCategory(code) ? 'service' : undefined;
    if (!kind) return { status: 400, code: 'invalid_parameter', message: `Invalid drug '${code.slice(0, 40)}': not a drug class code or service category`, expression: 'drug' };
    const scope = { states: [sp.state], programs: [sp.program] };
    const rule = env.model.rules.get(`${sp.state}|${sp.program}|${kind}|${code}`);
    if (!rule) return { status: 404, code: 'scope_gap', message: `No verified rule for ${sp.state} ${sp.program} ${kind} '${code}' yet`, scope };
    return { body: toDtrQuestionnaire(rule, env.base), scope };
  },
};

const questionnairePackageOp: FhirOperationDecl = {
  kind: 'operation',
  id: 'fhir-questionnaire-package',
  resourceType: 'Questionnaire',
  name: 'questionnaire-package',
  definition: DTR_OPERATION.questionnairePackage,
  auth: 'key',
  queryParams: [
    { name: 'state', description: 'Optional: the member state when the Coverage does not tell' },
    { name: 'program', description: 'Optional: the program when the Coverage does not tell' },
  ],
  summary: 'DTR $questionnaire-package',
  description:
    "Parameters in (coverage, order*, questionnaire*, context); Parameters out with one `packagebundle` per resolved rule (the Questionnaire and a draft QuestionnaireResponse) and an `outcome` with warnings. The rule is found from `context` (CRD's coverage-assertion-id), a questionnaire canonical we issued, or the orders' codes.",
  run(input, env) {
    const hints = queryHints(input.query);
    if (isFailure(hints)) return hints;
    const parsed = parsePackageInput(input.body);
    if (isFailure(parsed)) return parsed;
    const out = questionnairePackage(env.model, parsed, { base: env.base, now: env.now, hints });
    if (isFailure(out)) return out;
    return { body: out.parameters, scope: out.scope };
  },
};

const claimSubmit: FhirOperationDecl = {
  kind: 'operation',
  id: 'fhir-claim-submit',
  resourceType: 'Claim',
  name: 'submit',
  definition: PAS_OPERATION.submit,
  auth: 'key',
  queryParams: [
    { name: 'state', description: 'Optional: the member state (else the claim jurisdiction, the patient address or the payer)' },
    { name: 'program', description: 'Optional: the program (else Coverage.class naming a program, an SOPT Coverage.type or the payer)' },
  ],
  summary: 'PAS (2.2.1) Claim/$submit',
  description:
    'Body: a PAS request Bundle (first entry a Claim with use=preauthorization, every referenced resource included) or a bare Claim. Answers a response Bundle whose first entry is a ClaimResponse: each item echoes itemSequence with a reviewAction (A1 no PA needed, A4 pended with the documentation needed, A3 not certified when no code can be identified) and a preAuthRef for inquiry. 400 OperationOutcome pointing at the bad element.',
  capability: [{ type: 'Claim', supportedProfile: ['http://hl7.org/fhir/us/davinci-pas/StructureDefinition/profile-claim'], documentation: 'Only the $submit operation; no read, search or $inquire.' }],
  run(input, env) {
    const hints = queryHints(input.query);
    if (isFailure(hints)) return hints;
    const req = parsePasRequest(input.body);
    if (isFailure(req)) return req;
    const cc = pasCoverageContext(env.model, req, hints, today(env.now));
    if (!cc.state || !cc.program) {
      return {
        status: 400,
        code: 'missing_parameter',
        message: `Cannot tell the member's state and program: ${cc.basis.filter((b) => b.includes('unknown')).join('; ')}. Send ?state=&program= or a Coverage that names them.`,
        expression: `${req.claimPath}.insurance`,
      };
    }
    const decisions = decideItems(env.model, req, { state: cc.state, program: cc.program, payer: cc.payer });
    return { body: toPasResponse(req, decisions, env.now), scope: { states: [cc.state], programs: [cc.program] } };
  },
};

const metadata: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-metadata',
  path: '/v1/metadata',
  pathParams: [],
  auth: 'none',
  summary: 'FHIR R4 CapabilityStatement',
  description: 'What the FHIR surfaces serve, generated from the same registry as the routes.',
  run: (_input, env) => ({ body: buildCapabilityStatement(env) }),
};

export const FHIR_DECLS: readonly FhirDecl[] = [metadata, formulary, dtrQuestionnaire, questionnairePackageOp, claimSubmit];

// ---- CDS services ----

const CRD_PREFETCH = {
  patient: 'Patient/{{context.patientId}}',
  coverage: 'Coverage?patient={{context.patientId}}&status=active',
};

const crdService = (id: string, hook: CdsServiceDecl['hook']): CdsServiceDecl => ({
  id,
  hook,
  prefetch: CRD_PREFETCH,
  run(req, hints, env) {
    const out = runCoverageRequirements(env.model, req, { base: env.base, now: env.now, hints });
    return { body: out.response, scope: out.scope };
  },
});

export const CDS_SERVICES: readonly CdsServiceDecl[] = [
  crdService('service-coverage-requirements', 'order-sign'),
  crdService('service-coverage-requirements-select', 'order-select'),
];

// ---- generated documents ----

export function buildCdsDiscovery(): { services: CdsServiceDescription[] } {
  return {
    services: CDS_SERVICES.map((s) => ({
      hook: s.hook,
      id: s.id,
      title: CDS_SERVICE_TEXT[s.hook]!.title,
      description: CDS_SERVICE_TEXT[s.hook]!.description,
      prefetch: s.prefetch,
      extension: { 'davinci-crd.version': [CRD_VERSION], 'davinci-crd.configuration-options': CRD_CONFIGURATION_OPTIONS },
    })),
  };
}

export function buildCapabilityStatement(env: Pick<OpEnv, 'model' | 'base' | 'now' | 'softwareVersion'>): CapabilityStatement {
  const { restDocumentation, securityDescription, ...statics } = CAPABILITY_STATIC;
  const resources = new Map<string, CapabilityStatementResource>();
  const entry = (type: string): CapabilityStatementResource => {
    const found = resources.get(type);
    if (found) return found;
    const created: CapabilityStatementResource = { type: type as CapabilityStatementResource['type'] };
    resources.set(type, created);
    return created;
  };
  for (const d of FHIR_DECLS) {
    for (const c of d.capability ?? []) Object.assign(entry(c.type), { ...c, supportedProfile: [...(entry(c.type).supportedProfile ?? []), ...(c.supportedProfile ?? [])] });
    if (d.kind === 'operation') {
      const r = entry(d.resourceType);
      r.operation = [...(r.operation ?? []), { name: d.name, definition: d.definition, documentation: d.summary }];
    }
  }
  return {
    ...statics,
    software: { name: statics.software!.name, version: env.softwareVersion },
    date: env.model.lastVerified ?? today(env.now),
    implementation: { description: 'Prior-authorization rules service', url: `${env.base}/v1` },
    rest: [
      {
        mode: 'server',
        documentation: restDocumentation,
        security: { cors: true, service: [{ text: 'API key (x-api-key header)' }], description: securityDescription },
        resource: [...resources.values()].sort((a, b) => a.type.localeCompare(b.type)),
      },
    ],
  };
}
