// The declarative route table's types. Handlers are framework-neutral: they take a RequestContext and return
// an HttpResult, so the same route runs on the fast path (node:http) and through Express.
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { CorpusHolder } from '../corpus/corpus-holder.js';
import type { EndpointGroup } from '../domain/endpoint-groups.js';
import type { DocumentStore } from '../store/port.js';
import type { KeyService } from '../services/keys.js';
import type { ClientService } from '../services/clients/records.js';
import type { AuthThrottle } from '../services/auth-throttle.js';
import type { Principal } from '../domain/principal.js';
import type { SmartNeed } from '../domain/smart-scopes.js';
import type { IngestProgress, IngestReport, IngestSource } from '../ingest/run-ingest.js';
import type { DemoSessionService } from '../services/demo-sessions.js';
import type { AccessGate } from '../services/access-gate.js';
import type { UsageMeter } from '../services/usage.js';
import type { PasService } from '../services/pas/contract.js';
import type { SubscriptionService } from '../services/pas/subscriptions.js';
import type { EhrFetcher } from '../services/ehr-fetch.js';
import type { Outbox } from '../services/outbox.js';
import type { ChangeFeed } from '../services/change-feed.js';
import type { NotifyService } from '../services/notify-when-ready.js';
import type { IngestRuns } from '../services/ingest-runs.js';
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

/** A body already serialised (the fast path's precomputed bytes). */
export interface RawBody {
  raw: string;
}

export interface HttpResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface AppDeps {
  config: Config;
  store: DocumentStore;
  corpus: CorpusHolder;
  keys: KeyService;
  /** Registered clients (SMART backend services, CDS Hooks EHRs), their access tokens and signed-JWT checks. */
  clients: ClientService;
  /** Failed authentication counted per client address (429 past the limit). */
  authThrottle: AuthThrottle;
  log: Logger;
  now: () => Date;
  gate: AccessGate;
  demo: DemoSessionService;
  usage: UsageMeter;
  /** Runs an ingest in this process (the admin interface and the CLI through a running server use it). */
  ingest: (source: IngestSource, onProgress?: IngestProgress) => Promise<IngestReport>;
  /** Reads from an EHR's FHIR server for CDS Hooks calls whose prefetch is missing (CRD). */
  ehrFetch: EhrFetcher;
  /** Durable outbox for messages leaving the service (notifications, subscription deliveries). */
  outbox: Outbox;
  /** The change log as a paged feed (Atom and JSON twin). */
  changeFeed: ChangeFeed;
  /** Notify-when-ready watches, their dispatch from the change log and their delivery through the outbox. */
  notify: NotifyService;
  /** Stored ingest run reports and the no-overlap scheduled run. */
  ingestRuns: IngestRuns;
  /** The token the local CLI presents to the admin interface (embedded store only). */
  operatorToken?: string;
  /** PAS: stored submissions, decisions, $inquire, metrics. */
  pas: PasService;
  /** PAS subscriptions and their notifications. */
  subscriptions: SubscriptionService;
}

export interface OpenApiOperation {
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Record<string, unknown>[];
  requestBody?: Record<string, unknown>;
  /** status -> { description, schema?, contentType? } */
  responses: Record<string, { description: string; schema?: Record<string, unknown>; contentType?: string; headers?: Record<string, unknown> }>;
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
  /** What a POST body may be: JSON (default), or an application/x-www-form-urlencoded form (FHIR POST _search), handed over as a string. */
  bodyType?: 'json' | 'form';
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
