// The declarative route table's types. Handlers are framework-neutral: they take a RequestContext and return
// an HttpResult; every route, exact or parameterised, runs through the one dispatch (http/dispatch.ts).
import type { IncomingHttpHeaders } from 'node:http';
import type { AppDeps } from './app-deps.js';
import type { EndpointGroup } from '../domain/endpoint-groups.js';
import type { Principal } from '../domain/principal.js';
import type { SmartNeed } from '../domain/smart-scopes.js';
import type { BodyWarning } from '../fhir/shape/check-body.js';
import type { ReadSet } from '../fhir/shape/reads.js';

export type Surface = 'json' | 'fhir' | 'cds';


export interface ScopeRequest {
  states?: readonly string[];
  programs?: readonly string[];
  /** Appended to the 403 message, e.g. how to narrow a request that spans every program. */
  hint?: string;
}

export interface RequestContext {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly params: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly requestId: string;
  /** The peer address of the connection (used only for per-address limits, never logged). */
  readonly clientAddress: string;
  readonly now: Date;
  readonly principal: Principal | undefined;
  /** Problems of the body accepted as warnings by the acceptance check (FHIR and CDS bodies; else empty). */
  readonly bodyWarnings?: readonly BodyWarning[];
  /** Throws 403 naming what is outside the principal's subscription. */
  authorize(scope: ScopeRequest): void;
}

/** A body already serialised (precomputed text or bytes, e.g. a lookup's cached response). */
export interface RawBody {
  raw: string | Buffer;
}

export interface HttpResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface OpenApiOperation {
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Record<string, unknown>[];
  requestBody?: Record<string, unknown>;
  /** status -> { description, schema?, contentType?, headers?, links? (OpenAPI Link objects: what a client, or a
   *  stateful fuzzer, can call next with values from this answer) } */
  responses: Record<string, { description: string; schema?: Record<string, unknown>; contentType?: string; headers?: Record<string, unknown>; links?: Record<string, unknown> }>;
}

export interface RouteDef {
  id: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Express-style path, e.g. /v1/formulary/:state/:program */
  path: string;
  auth: 'none' | 'key' | 'key_or_demo' | 'admin';
  group?: EndpointGroup;
  /** An add-on the subscription must include (spec 5.5: compare). */
  addOn?: 'compare';
  surface: Surface;
  /**
   * What a POST body may be: JSON (default); an application/x-www-form-urlencoded form (FHIR POST _search), handed
   * over as a string; or `records`, a bulk JSON body of canonical documents (an admin ingest): bounded by
   * INGEST_BODY_LIMIT bytes rather than by the count of values every other body is held to.
   */
  bodyType?: 'json' | 'form' | 'records';
  /** What the operation at this address reads of a FHIR or CDS body (the acceptance check refuses wrong types there only). */
  reads?: (params: Readonly<Record<string, string>>) => ReadSet | undefined;
  /** The SMART scope a bearer access token must grant here (FHIR routes); none means no SMART scope applies. */
  smart?: (params: Readonly<Record<string, string>>) => SmartNeed | undefined;
  /** Cache-Control for successful responses. */
  cache?: string;
  deprecated?: boolean;
  /** Headers sent on every response of the route, errors included (e.g. Deprecation and Sunset of an alias). */
  headers?: Readonly<Record<string, string>>;
  /**
   * What the request names (states, programs), read from the request alone, never from data, and never failing: each
   * valid value on its own, invalid ones left to the handler's 400 (src/domain/named-scope.ts). The pipeline
   * authorizes it before the body is checked and the handler runs, so a request outside the subscription gets the
   * same 403 whether or not anything exists (no existence oracle) and whatever else is wrong with it. Every keyed
   * route that serves jurisdictional data declares it.
   */
  scope?(ctx: RequestContext): ScopeRequest;
  /** For a path template that also names other resources (POST /v1/{type}/{op} vs GET /v1/{type}/{id}): false
   * means this method is not allowed at this address (405, before anything else). */
  methodAllowed?(params: Readonly<Record<string, string>>): boolean;
  handle(ctx: RequestContext, deps: AppDeps): HttpResult | Promise<HttpResult>;
  openapi: OpenApiOperation;
}
