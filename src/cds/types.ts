// CDS Hooks 1.0 request/response shapes (with the CRD 2.2 extensions we read and write).
import type { Bundle, Resource } from '../fhir/r4.js';

export interface CdsHookRequest {
  hook: string;
  hookInstance: string;
  fhirServer?: string;
  context: {
    patientId?: string;
    encounterId?: string;
    userId?: string;
    draftOrders?: Bundle;
    /** order-select: references (e.g. "MedicationRequest/123") of the orders just selected. */
    selections?: string[];
    [unknown: string]: unknown;
  };
  prefetch?: Record<string, Resource | null | undefined>;
  extension?: Record<string, unknown>;
}

export interface CdsCard {
  uuid: string;
  summary: string;
  detail?: string;
  indicator: 'info' | 'warning' | 'critical';
  source: { label: string; url?: string; topic: { system: string; code: string; display?: string } };
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

export interface CdsConfigurationOption {
  code: string;
  type: 'boolean' | 'integer';
  name: string;
  description: string;
  default: boolean | number;
}

export interface CdsServiceDescription {
  hook: string;
  id: string;
  title: string;
  description: string;
  prefetch: Record<string, string>;
  extension: { 'davinci-crd.version': string[]; 'davinci-crd.configuration-options': CdsConfigurationOption[] };
}
