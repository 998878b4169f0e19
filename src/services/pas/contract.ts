// The PAS workflow's contract: who calls, what it may do (submit, update, inquire, read; an operator's queue,
// decisions and extensions; CMS-0057-F metrics) and what it needs. The use cases are one file each beside this one.
import type { Program } from '../../domain/vocabulary.js';
import type { Scope } from '../../domain/named-scope.js';
import type { CorpusHolder } from '../../corpus/corpus-holder.js';
import type { Failure } from '../../fhir/outcome.js';
import type { Bundle, ClaimResponse, Parameters } from '../../fhir/r4.js';
import type { ExplicitHints } from '../../fhir/resolve/coverage-context.js';
import type { DocumentStore } from '../../store/port.js';
import type { Outbox } from '../outbox.js';
import type { MetricsReport } from './metrics.js';
import type { PasSubmissionDoc, ResponseCause } from './store.js';

/** Who is calling, as the PAS service needs it. */
export interface PasCaller {
  /** The owner of what this call stores: `key:<id>`, `operator` (later `client:<id>`). */
  owner: string;
  /** Operators see every submission. */
  all: boolean;
  /** The caller's subscription, when it names exactly one state / program (used when the bundle names none). */
  onlyState?: string;
  onlyProgram?: Program;
  /** Throws the 403 when the scope is outside the caller's subscription; called before anything is stored. */
  authorize(scope: Scope): void;
  /** The service's base URL as the caller reached it (the DTR questionnaires a Task points at live under it). */
  base?: string;
}

/** A new ClaimResponse version to announce (the subscriptions service delivers it). */
export interface PasEvent {
  preAuthRef: string;
  owner: string;
  orgIdentifiers: string[];
  version: number;
  cause: ResponseCause;
}

/** What the PAS workflow needs from the shared durable outbox. */
export type DeferredWork = Pick<Outbox, 'enqueue' | 'handle'>;

export interface PasDeps {
  store: DocumentStore;
  corpus: Pick<CorpusHolder, 'current'>;
  now: () => Date;
  /** Announces a new version to subscriptions (after it is stored). */
  publish: (event: PasEvent) => Promise<void>;
  /** The durable outbox, for automatic decisions when configured. */
  outbox?: DeferredWork;
  autoDecide?: { action: 'approve' | 'deny'; afterSeconds: number };
}

export interface DecideInput {
  item?: number;
  decision: 'approve' | 'deny';
  /** X12 886 review decision reason code. */
  reasonCode?: string;
  note?: string;
  by?: string;
}
export type DecideOutcome =
  | { kind: 'ok'; submission: PasSubmissionDoc; bundle: Bundle }
  | { kind: 'not_found' }
  | { kind: 'conflict'; message: string };

export interface QueueEntry {
  preAuthRef: string;
  owner: string;
  state: string | null;
  program: Program | null;
  plan: { id: string | null; name: string | null };
  expedited: boolean;
  receivedAt: string;
  dueAt: string;
  overdue: boolean;
  items: { sequence: number; ruleId: string | null; missing: string[]; notes: string[] }[];
}

export interface PasService {
  submit(caller: PasCaller, body: unknown, hints: ExplicitHints): Promise<{ body: Bundle; scope?: Scope } | Failure>;
  inquire(caller: PasCaller, body: unknown): Promise<{ body: Parameters; scope?: Scope } | Failure>;
  read(caller: PasCaller, preAuthRef: string, version?: number): Promise<ClaimResponse | null>;
  /** The submission as stored (history included), for the caller's own submissions or an operator. */
  get(caller: PasCaller, preAuthRef: string): Promise<PasSubmissionDoc | null>;
  /** The response Bundle of a stored version (notifications). */
  responseBundle(preAuthRef: string, version: number): Promise<Bundle | null>;
  queue(): Promise<QueueEntry[]>;
  decide(preAuthRef: string, input: DecideInput): Promise<DecideOutcome>;
  /** Extends the decision timeframe of a pended request (reported by the CMS-0057-F metrics). */
  extend(preAuthRef: string, input: { days: number; reason: string; by?: string }): Promise<DecideOutcome>;
  list(filter: { year?: number }): Promise<PasSubmissionDoc[]>;
  /** CMS-0057-F metrics for a calendar year, per program and plan. */
  metrics(year: number): Promise<MetricsReport>;
}

/** CMS-0057-F decision timeframes for items and services: 7 calendar days standard, 72 hours expedited. */
export const CMS_0057_HOURS = { standardHours: 168, expeditedHours: 72 } as const;
export const AUTO_DECIDE_KIND = 'pas.auto-decide';
