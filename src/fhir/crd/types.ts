// CDS Hooks 1.0 request/response shapes (with the CRD 2.2 extensions we read and write).
import type { Bundle, Resource } from '../r4.js';
import type { CdsConfigurationOption } from '../../../capability/cds-services.js';

/** The six hooks CRD defines. */
export const CRD_HOOKS = ['order-sign', 'order-select', 'order-dispatch', 'appointment-book', 'encounter-start', 'encounter-discharge'] as const;
export type CrdHook = (typeof CRD_HOOKS)[number];

export interface FhirAuthorization {
  access_token: string;
  token_type: string;
  expires_in?: number;
  scope?: string;
  subject?: string;
  patient?: string;
}

export interface CdsHookRequest {
  hook: string;
  hookInstance: string;
  fhirServer?: string;
  fhirAuthorization?: FhirAuthorization | null;
  context: {
    patientId?: string;
    encounterId?: string;
    userId?: string;
    draftOrders?: Bundle;
    /** order-select: references (e.g. "MedicationRequest/123") of the orders just selected. */
    selections?: string[];
    /** order-dispatch: the order being dispatched ("ServiceRequest/123") and the chosen performer. */
    order?: string;
    performer?: string;
    /** appointment-book: the appointments being booked. */
    appointments?: Bundle;
    [unknown: string]: unknown;
  };
  prefetch?: Record<string, Resource | null | undefined>;
  extension?: Record<string, unknown>;
}

export interface CdsLink {
  label: string;
  url: string;
  type: 'absolute' | 'smart';
  /** smart links only: opaque context for the launched app (here a JSON string, see src/fhir/crd/cards.ts). */
  appContext?: string;
}

export interface CdsCard {
  uuid: string;
  summary: string;
  detail?: string;
  indicator: 'info' | 'warning' | 'critical';
  source: { label: string; url?: string; topic: { system: string; code: string; display?: string } };
  links?: CdsLink[];
  extension?: Record<string, unknown>;
}

export interface CdsSystemAction {
  type: 'create' | 'update' | 'delete';
  description: string;
  resource: Resource;
}

export interface CdsResponse {
  cards: CdsCard[];
  systemActions?: CdsSystemAction[];
}

export interface CdsServiceDescription {
  hook: string;
  id: string;
  title: string;
  description: string;
  prefetch: Record<string, string>;
  extension: { 'davinci-crd.version': string[]; 'davinci-crd.configuration-options': CdsConfigurationOption[] };
}
