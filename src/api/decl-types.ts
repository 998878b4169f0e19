// The shapes every FHIR interaction, operation and CDS service declaration has, and the parsing they share.
// Declarations live per implementation guide in src/api/fhir/ and src/api/cds-services.ts; src/api/registry.ts
// assembles them.
import type { ReadModel } from '../corpus/read-model.js';
import { normalizeProgram, type Program } from '../domain/vocabulary.js';
import { invalidProgramMessage, invalidStateMessage, isStateCode, type Scope } from '../domain/named-scope.js';
import type { CdsHookRequest, CdsResponse, CrdHook } from '../fhir/crd/types.js';
import type { EhrFetcher } from '../services/ehr-fetch.js';
import type { Failure } from '../fhir/outcome.js';
import type { Bundle, CapabilityStatementResource, Resource } from '../fhir/r4.js';
import type { ExplicitHints } from '../fhir/resolve/coverage-context.js';
import type { PasCaller, PasService } from '../services/pas/contract.js';
import type { SubscriptionService } from '../services/pas/subscriptions.js';
import type { BodyWarning } from '../fhir/shape/check-body.js';
import type { ReadSet } from '../fhir/shape/reads.js';

export interface OpInput {
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  body: unknown;
  /** Problems of the body accepted as warnings (returned where the operation's output has an OperationOutcome). */
  warnings?: readonly BodyWarning[];
}
export interface OpEnv {
  model: ReadModel;
  /** Public base address, without /v1. */
  base: string;
  now: Date;
  softwareVersion: string;
  /** PAS workflow: stored submissions, decisions, $inquire. */
  pas: PasService;
  /** PAS subscriptions (R4 Subscriptions Backport). */
  subscriptions: SubscriptionService;
  /** Who is calling: what they own, and the scope check to run before anything is stored. */
  caller: PasCaller;
  /** What the CDS services need beyond the read model: EHR reads, the DTR launch URL, the subscription's only state/program. */
  cds: { ehr: EhrFetcher; dtrLaunchUrl?: string; subscriptionDefault: ExplicitHints };
  /** Whether the caller's subscription covers a scope (always true on public routes): searches drop what it does not. */
  inScope(scope: Scope): boolean;
}
/** A run's answer: the resource, and the scope the caller's key must cover (checked before anything is sent). */
export type OpResult<B = Resource> = { body: B; scope?: Scope; status?: 200 | 201; headers?: Record<string, string> } | Failure;

/**
 * A configuration switch that makes a declaration's routes public (no key) when on, e.g. FORMULARY_PUBLIC.
 * Add a name here and a boolean field of the same name to Config.
 */
export type PublicSwitch = 'formularyPublic';

/**
 * A request that works against the bundled sample corpus: the OpenAPI document shows it (parameter and body
 * examples), so a reader can try it as it stands, and the API fuzzer (schemathesis) sends it first.
 */
export interface DeclExample {
  /** Path and query parameter values by name. */
  params?: Readonly<Record<string, string>>;
  body?: unknown;
}
/**
 * OpenAPI Link objects from this interaction's success answer: what a client (or a stateful fuzzer) can call next
 * with values taken from the answer, e.g. `$response.body#/entry/0/resource/id` -> a read's `id`.
 */
export type DeclLinks = Readonly<Record<string, { operationId: string; parameters: Readonly<Record<string, string>>; description?: string }>>;

interface FhirDeclBase {
  id: string;
  example?: DeclExample;
  links?: DeclLinks;
  summary: string;
  description: string;
  auth: 'none' | 'key';
  /** When set and the named config switch is on, the routes need no key (auth 'none'); off, `auth` applies. */
  publicWhen?: PublicSwitch;
  /** What the CapabilityStatement says about the resources this declaration serves. */
  capability?: CapabilityStatementResource[];
  /** Canonicals of CapabilityStatements this declaration lets the server claim (CapabilityStatement.instantiates). */
  instantiates?: readonly string[];
}
/** An interaction at its own path (metadata, formulary, DTR questionnaire). */
export interface FhirPathDecl extends FhirDeclBase {
  kind: 'path';
  /** GET unless stated (POST for a create). */
  method?: 'GET' | 'POST';
  /** POST: what the body's reader reads (acceptance policy, ./shape/reads.ts). */
  reads?: ReadSet;
  path: string;
  pathParams: { name: string; description: string; enum?: readonly string[] }[];
  run(input: OpInput, env: OpEnv): OpResult | Promise<OpResult>;
}
/** A type-level operation, POST [base]/{resourceType}/${name}. */
export interface FhirOperationDecl extends FhirDeclBase {
  kind: 'operation';
  resourceType: string;
  name: string;
  definition: string;
  queryParams: { name: string; description: string }[];
  /** Also served at the instance level, POST [base]/{resourceType}/{id}/${name} (`params.id` set). */
  instance?: boolean;
  /**
   * The states and programs the request names beyond its address (canonicals, ids in the body), read from the request
   * alone and never failing: the pipeline authorizes them before `run`, so outside the subscription is a 403 before
   * the body is validated or anything is read.
   */
  scope?(input: OpInput): Scope;
  /** What the operation reads of its body (acceptance policy, ./shape/reads.ts). */
  reads: ReadSet;
  run(input: OpInput, env: OpEnv): OpResult | Promise<OpResult>;
}

/** A search parameter as the CapabilityStatement lists it (rest.resource.searchParam). */
export interface SearchParamDecl {
  name: string;
  type: 'number' | 'date' | 'string' | 'token' | 'reference' | 'composite' | 'quantity' | 'uri' | 'special';
  /** Canonical of the SearchParameter (the IG's, or the base spec's). */
  definition?: string;
  documentation?: string;
}
/** A search request: the parameters of the query string, or of the query string plus a POST _search form body. */
export interface SearchInput {
  params: URLSearchParams;
  /** `Prefer: handling=strict`: unknown or unsupported parameters are a 400 instead of being ignored. */
  strict: boolean;
  /** The address the search was sent to (GET form), for the Bundle's self and next links. */
  selfBase: string;
}
/**
 * RESTful read and/or search of one resource type: GET [base]/{type}/{id}, GET [base]/{type}?params and
 * POST [base]/{type}/_search (form body). The CapabilityStatement entry (interactions, supportedProfile,
 * searchParam, searchInclude) is generated from these fields, so it lists exactly what is served.
 */
export interface FhirResourceDecl extends FhirDeclBase {
  kind: 'resource';
  resourceType: string;
  supportedProfile: readonly string[];
  /** Exactly the parameters `search` understands (result parameters such as _count are not listed). */
  searchParams: readonly SearchParamDecl[];
  searchInclude?: readonly string[];
  searchRevInclude?: readonly string[];
  /** Read by id; a 404 Failure when there is no such resource. Omit when read is not served. */
  read?(id: string, env: OpEnv): OpResult | Promise<OpResult>;
  /** A searchset Bundle. Omit when search is not served. */
  search?(input: SearchInput, env: OpEnv): OpResult<Bundle> | Promise<OpResult<Bundle>>;
}
export type FhirDecl = FhirPathDecl | FhirOperationDecl | FhirResourceDecl;

export interface CdsServiceDecl {
  id: string;
  hook: CrdHook;
  prefetch: Record<string, string>;
  /** A hook request a standard client sends (the OpenAPI example's body; ./examples/README.md). */
  example?: DeclExample;
  /** What the service reads of the request's resources (acceptance policy, ./shape/reads.ts). */
  reads: ReadSet;
  run(req: CdsHookRequest, hints: ExplicitHints, env: OpEnv): { body: CdsResponse; scope: Scope } | Promise<{ body: CdsResponse; scope: Scope }>;
}

// ---- parsing shared by the declarations (pure; failures are values) ----

export function parseStateProgram(rawState: string | undefined, rawProgram: string | undefined, at: string): { state: string; program: Program } | Failure {
  const state = rawState;
  if (!state || !isStateCode(state)) return { status: 400, code: 'invalid_parameter', message: invalidStateMessage(rawState ?? ''), expression: `${at}state` };
  const program = rawProgram ? normalizeProgram(rawProgram) : undefined;
  if (!program) return { status: 400, code: 'invalid_parameter', message: invalidProgramMessage(rawProgram ?? ''), expression: `${at}program` };
  return { state, program };
}

/** Optional explicit state/program (query parameters, or a CDS request's `prauth.state` / `prauth.program` extension). */
export function parseHints(rawState: unknown, rawProgram: unknown): ExplicitHints | Failure {
  const hints: ExplicitHints = {};
  if (rawState !== undefined && rawState !== '') {
    const s = typeof rawState === 'string' ? rawState : '';
    if (!isStateCode(s)) return { status: 400, code: 'invalid_parameter', message: invalidStateMessage(String(rawState)), expression: 'state' };
    hints.state = s;
  }
  if (rawProgram !== undefined && rawProgram !== '') {
    const p = typeof rawProgram === 'string' ? normalizeProgram(rawProgram) : undefined;
    if (!p) return { status: 400, code: 'invalid_parameter', message: invalidProgramMessage(String(rawProgram)), expression: 'program' };
    hints.program = p;
  }
  return hints;
}

export const queryHints = (q: URLSearchParams): ExplicitHints | Failure => parseHints(q.get('state') ?? undefined, q.get('program') ?? undefined);

