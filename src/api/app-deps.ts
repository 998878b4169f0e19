// What every route and declaration may use: the service's use cases and stores, wired once by src/service.ts.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { CorpusHolder } from '../corpus/corpus-holder.js';
import type { DocumentStore } from '../store/port.js';
import type { KeyService } from '../services/keys.js';
import type { ClientService } from '../services/clients/records.js';
import type { AuthThrottle } from '../services/auth-throttle.js';
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
