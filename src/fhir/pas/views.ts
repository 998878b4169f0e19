// What a stored PAS submission version looks like to the response projections (ClaimResponse, Bundle, Task).
import type { ItemAction } from './decide-item.js';
import type { Bundle } from '../r4.js';

export interface PasItemView {
  sequence: number;
  action: ItemAction;
  notes: string[];
  /** X12 886 decision reason code (an operator's denial). */
  reasonCode?: string;
  certification?: { start: string; end: string };
  /** When the item's current decision was made (YYYY-MM-DD of the instant). */
  decidedAt?: string;
  /** A4 under a rule: the documentation still missing and the canonical of the DTR Questionnaire asking for it. */
  missing?: string[];
  questionnaire?: string;
}

export interface PasErrorView {
  code: { code: string; display: string };
  message: string;
  /** FHIRPath of the element concerned (errorPath). */
  path?: string;
  followup?: { code: string; display: string };
}

/** What one ClaimResponse version says: the stored request plus the current state of each item. */
export interface PasResponseView {
  preAuthRef: string;
  version: number;
  request: Bundle;
  items: PasItemView[];
  errors: PasErrorView[];
  /** Claim-level notes (cancellations, updates). */
  notes: string[];
  /** When this version was made (ClaimResponse.created). */
  createdAt: string;
  humanReviewed: boolean;
  /** The service's FHIR base the request was made to (Task.input PayerURL), when known. */
  payerUrl?: string;
}

export type PasResponseKind = 'submit' | 'inquiry';
