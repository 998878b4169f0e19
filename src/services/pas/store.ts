// PAS documents on the store port: one document per authorization (its request, per-item state with history, the
// decision clock) and one per ClaimResponse version. Plain data, readable by both adapters.
import type { Program } from '../../domain/vocabulary.js';
import type { ItemAction } from '../../fhir/pas/decide-item.js';
import type { PasErrorView, PasItemView, PasResponseView } from '../../fhir/pas/views.js';
import type { Bundle } from '../../fhir/r4.js';
import { COLLECTIONS } from '../../store/collections.js';

export const PAS_COLLECTIONS = {
  submissions: COLLECTIONS.pasSubmissions,
  responses: COLLECTIONS.pasResponses,
  subscriptions: COLLECTIONS.pasSubscriptions,
} as const;

export interface ItemHistoryEntry {
  action: ItemAction;
  at: string;
  /** `rules`, `operator`, `auto`, or the owner of an update. */
  by: string;
  reasonCode?: string;
}

export interface PasItemDoc extends PasItemView {
  ruleId: string | null;
  subjectKind: 'drug' | 'service' | null;
  /** Documentation still missing (A4 under a rule). */
  missing: string[];
  history: ItemHistoryEntry[];
}

export type SubmissionStatus = 'pended' | 'decided' | 'cancelled';

export interface PasSubmissionDoc {
  /** The preAuthRef. */
  id: string;
  /** Who submitted it (`key:<id>`, `operator`): only they can inquire, update or subscribe to it. */
  owner: string;
  /** Idempotency keys of every request Bundle accepted for this authorization. */
  dedupeKeys: string[];
  status: SubmissionStatus;
  state: string | null;
  program: Program | null;
  plan: { id: string | null; name: string | null };
  expedited: boolean;
  /** The decision clock starts when the request is received. */
  receivedAt: string;
  dueAt: string;
  /** Set when an operator extended the timeframe (CMS-0057-F reports approvals after an extension). */
  extendedAt: string | null;
  /** When the last pended item was decided (or the request was decided at once). */
  decidedAt: string | null;
  claimIdentifiers: string[];
  claimRefs: string[];
  memberIds: string[];
  providerIds: string[];
  orgIdentifiers: string[];
  itemCodes: string[];
  request: Bundle;
  items: PasItemDoc[];
  errors: PasErrorView[];
  notes: string[];
  humanReviewed: boolean;
  /** The service's FHIR base the request was made to (`{base}/v1`), when known. */
  payerUrl?: string;
  version: number;
  /** What made the current version (absent on submissions stored by earlier releases). */
  cause?: ResponseCause;
  updatedAt: string;
}

export type ResponseCause = 'submitted' | 'decided' | 'updated' | 'cancelled';

/**
 * A stored version's view. The request Bundle is stored once, in the submission: a version's view carries it only
 * when a later version replaced it (an update), and otherwise reads it from the next version that carries one, or
 * from the submission (./workflow.ts). Views stored by earlier releases all carry it.
 */
export type StoredView = Omit<PasResponseView, 'request'> & { request?: Bundle };

/**
 * One past version of an authorization (the current one is the submission itself): stored when the submission
 * changes, so a $submit writes one document, the submission.
 */
export interface PasResponseDoc {
  /** `<preAuthRef>/<version>` */
  id: string;
  preAuthRef: string;
  owner: string;
  version: number;
  cause: ResponseCause;
  createdAt: string;
  view: StoredView;
}


export function toView(doc: PasSubmissionDoc, createdAt: string): PasResponseView {
  return { ...toStoredView(doc, createdAt), request: doc.request };
}

/** The view of a submission's version without its request Bundle (which the submission holds). */
export function toStoredView(doc: PasSubmissionDoc, createdAt: string): StoredView {
  return {
    preAuthRef: doc.id,
    version: doc.version,
    items: doc.items.map(({ sequence, action, notes, reasonCode, certification, decidedAt, missing, questionnaire }) => ({
      sequence,
      action,
      notes,
      ...(reasonCode ? { reasonCode } : {}),
      ...(certification ? { certification } : {}),
      ...(decidedAt ? { decidedAt } : {}),
      ...(action === 'A4' && missing?.length ? { missing } : {}),
      ...(action === 'A4' && questionnaire ? { questionnaire } : {}),
    })),
    errors: doc.errors,
    notes: doc.notes,
    createdAt,
    humanReviewed: doc.humanReviewed,
    ...(doc.payerUrl ? { payerUrl: doc.payerUrl } : {}),
  };
}
