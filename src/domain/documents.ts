// Canonical document kinds, as stored and as an operator ingests them. The JSON Schemas in
// src/ingest/schemas are the validators for these shapes; keep the two in step (a test checks samples).
import type { PaEffect, PaType, Program, SubjectKind, VerificationStatus } from './vocabulary.js';

export interface SourceCitation {
  url: string;
  title: string;
  publisher: string;
}

/** Where one served claim of a rule is stated: a document, the place in it, and when it was read (curated facts). */
export interface Evidence {
  url: string;
  title: string;
  publisher: string;
  /** The document's own effective or revision date (YYYY-MM-DD), when it prints one. */
  effective?: string;
  /** Section, table, class heading or page. */
  locator: string;
  /** YYYY-MM-DD: the day the fact was read from the source. */
  checked: string;
}

/**
 * required: the source requires PA; plan_may_require: the source allows plans to require it (Part D protected classes
 * for new starts); voluntary: PA is offered but not required (an alternative such as prepayment review applies).
 */
export const PA_MODES = ['required', 'plan_may_require', 'voluntary'] as const;
export type PaMode = (typeof PA_MODES)[number];

export interface Verification {
  status: VerificationStatus;
  /** YYYY-MM-DD */
  lastVerified: string;
  /** 0..1 */
  confidence: number;
  by: string;
  method: string;
  /** Why confidence is lowered, e.g. a fact not yet confirmed against its source. */
  caveat?: string;
}

export interface CodeRef {
  system: string;
  code: string;
  display?: string;
}

export interface ContactPoint {
  /** What the contact is for: pa_submission, appeals, member_services, provider_services, fair_hearing, ... */
  role: string;
  name: string;
  phone?: string;
  fax?: string;
  url?: string;
  hours?: string;
}

export interface CoverageRuleDoc {
  resourceType: 'CoverageRule';
  /** FHIR-id safe: [A-Za-z0-9.-]{1,64} */
  id: string;
  jurisdiction: string;
  program: Program;
  subject: { kind: SubjectKind; code: string };
  /** Absent for a program-level rule; present for a payer-level rule (an MCO, an MA plan, a Part D sponsor). */
  payer?: { id: string; name: string };
  /**
   * Another program whose rule this is (a hand-over: corpus/facts FORMAT.md, "follows"), for example Part D for a dual
   * eligible's drugs: its plan decides the request, so its appeal ladder applies. Absent: `program` decides.
   */
  decidedBy?: Program;
  /** CPT/HCPCS/RxNorm codes the rule is known to cover (examples, not an exhaustive list). */
  codes?: CodeRef[];
  requirement: {
    paRequired: boolean;
    paType: PaType;
    criteria: string;
    documentation: string[];
    /** How binding the requirement is (absent: required). */
    paMode?: PaMode;
    /** Part D protected-class style restrictions that apply only to new starts. */
    newStartsOnly?: boolean;
    /** Whom the requirement is limited to, in the source's terms (members under 18, ...); nothing is claimed for others. */
    population?: string;
    /** The population's ages in whole years, inclusive (CRD and PAS read the patient's age against them). */
    ages?: { min?: number; max?: number };
    quantityLimit?: string;
    stepTherapy?: string;
    /**
     * The subject is not a covered benefit under this rule (a statutory or program exclusion). PAS answers A3
     * (not certified) with `reason` as the denial reason; nothing the provider attaches changes that.
     */
    exclusion?: { reason: string; citation: string };
  };
  submission: {
    /**
     * How the request is sent. `payer_process`: the source names where the request goes (the payer in `target`) but
     * no channel; the payer's own process applies, and the requester asks the payer how to send it.
     */
    channel: 'portal' | 'fax' | 'phone' | 'epa' | 'x12_278' | 'fhir_pas' | 'mail' | 'payer_process' | 'none';
    target: string;
    url?: string;
    fax?: string;
    phone?: string;
  };
  turnaround: { standardHours: number; expeditedHours: number; basis?: string };
  federalOverride: boolean;
  source: SourceCitation;
  effective?: { start?: string; end?: string };
  verification: Verification;
  /** The curated facts' citations behind the served fields (present on rules derived from corpus/facts). */
  evidence?: Evidence[];
  meta?: { versionId?: string; lastUpdated?: string };
}

export interface JurisdictionDoc {
  resourceType: 'Jurisdiction';
  /** USPS code */
  id: string;
  name: string;
  medicaidAgency: { name: string; url: string };
  /** The state's own name for its Medicaid program, e.g. Medi-Cal. */
  medicaidProgramName?: string;
  chipProgramName?: string;
  flags: { medicaidExpansion: boolean; ffsDominant: boolean; wiser: boolean };
  mcoBrands: string[];
  carveOuts: string[];
  contacts: ContactPoint[];
  sources: { title: string; url: string }[];
  /** Fair-hearing / state review specifics where known. */
  appealNotes?: string;
  verification: Verification;
}

export interface PayerDoc {
  resourceType: 'Payer';
  id: string;
  name: string;
  /** Organization type: medicaid_mco, medicaid_ffs (the state agency), ma_plan, part_d_sponsor, chip_plan, mac, ... */
  kind: string;
  programs: Program[];
  jurisdictions: string[];
  contacts: ContactPoint[];
  url?: string;
  verification: Verification;
}

export interface DrugCrosswalkDoc {
  resourceType: 'DrugCrosswalkEntry';
  id: string;
  drugClass: string;
  generic: string;
  brands: string[];
  rxnorm?: {
    ingredient?: string;
    scd?: string[];
    /** The RxNorm products behind `scd`, with their NLM names (usdf-FormularyDrug code.coding). */
    products?: { code: string; tty: 'SCD' | 'SBD' | 'GPCK' | 'BPCK'; name: string; source?: string }[];
  };
  notes?: string;
}

export interface CodeMappingDoc {
  resourceType: 'CodeMapping';
  id: string;
  system: 'CPT' | 'HCPCS';
  /** A single code or an inclusive range "70551-70553". */
  code?: string;
  range?: { from: string; to: string };
  serviceCategory: string;
  /** Present when the mapping comes from a state's PA code list; absent for the national range fallback. */
  jurisdiction?: string;
  description: string;
  source?: { url: string; title: string };
}

export interface RegulatoryEventDoc {
  resourceType: 'RegulatoryEvent';
  id: number;
  jurisdiction: string;
  eventKind: string;
  title: string;
  issuedAt: string;
  effectiveAt: string;
  mmcComplianceAt?: string | null;
  commentDeadline?: string | null;
  paRelevant: boolean;
  sourceUrl?: string | null;
  /** Federal rule id (e.g. CMS-0057-F) this event announces or implements, for the compliance grid. */
  ruleId?: string;
  complianceStatus?: 'in_compliance' | 'partial' | 'overdue' | 'not_yet_due' | 'unknown';
  topics: string[];
  subjects?: { kind: SubjectKind; code: string }[];
  /** The kinds of subject the event applies to (CMS-0057-F: services, not drugs); absent: every kind. */
  subjectKinds?: SubjectKind[];
  programs?: Program[];
  /** What the event changes (PA_EFFECTS); absent: not stated, so it is never a reason to wait for its date. */
  paEffect?: PaEffect;
  confidence?: number;
}

export interface TopicDoc {
  resourceType: 'Topic';
  id: string; // slug
  displayName: string;
  kind: string;
  description: string;
  taxonomyLink: string | null;
  status: 'approved' | 'draft' | 'retired';
  match: {
    drugClasses?: string[];
    serviceCategories?: string[];
    ruleIds?: string[];
    keywords?: string[];
    /** Where the topic applies: a class or category matches only rules and events of these programs (absent: all). */
    programs?: Program[];
    /** ... and of these jurisdictions (absent: all; WISeR: its six states). */
    jurisdictions?: string[];
  };
}

export type CanonicalDoc =
  | CoverageRuleDoc
  | JurisdictionDoc
  | PayerDoc
  | DrugCrosswalkDoc
  | CodeMappingDoc
  | RegulatoryEventDoc
  | TopicDoc;

export type ResourceType = CanonicalDoc['resourceType'];

export const RESOURCE_TYPES: readonly ResourceType[] = [
  'CoverageRule',
  'Jurisdiction',
  'Payer',
  'DrugCrosswalkEntry',
  'CodeMapping',
  'RegulatoryEvent',
  'Topic',
];

/** Which store collection each document kind lives in. */
export const COLLECTION_OF: Readonly<Record<ResourceType, string>> = {
  CoverageRule: 'rules',
  Jurisdiction: 'jurisdictions',
  Payer: 'payers',
  DrugCrosswalkEntry: 'drugs',
  CodeMapping: 'code_mappings',
  RegulatoryEvent: 'events',
  Topic: 'topics',
};
