/// <reference types="fhir" />
// FHIR R4 (4.0.1) types for the resources this service reads and emits.
// The installed @types/fhir (3.0.2) is the STU3 line: its data types below are reused as they are unchanged in R4,
// but its resources (no InsurancePlan, no MedicationKnowledge, STU3 ClaimResponse/Coverage/Questionnaire) are not
// R4, so the R4 resource shapes are declared here. Replace with `fhir/r4` once @types/fhir@0.0.x (R4) is installed.

export type Coding = fhir.Coding;
export type CodeableConcept = fhir.CodeableConcept;
export type Identifier = fhir.Identifier;
export type Period = fhir.Period;
export type ContactDetail = fhir.ContactDetail;

export interface Reference {
  reference?: string;
  type?: string;
  identifier?: Identifier;
  display?: string;
}

export interface Meta {
  versionId?: string;
  lastUpdated?: string;
  profile?: string[];
}

export interface Extension {
  url: string;
  extension?: Extension[];
  valueBoolean?: boolean;
  valueCode?: string;
  valueString?: string;
  valueUrl?: string;
  valueUri?: string;
  valueCanonical?: string;
  valueDate?: string;
  valueDateTime?: string;
  valueInteger?: number;
  valueMarkdown?: string;
  valueCoding?: Coding;
  valueCodeableConcept?: CodeableConcept;
  valueReference?: Reference;
  valuePeriod?: Period;
  valueIdentifier?: Identifier;
}

export interface Resource {
  resourceType: string;
  id?: string;
  meta?: Meta;
  extension?: Extension[];
  contained?: Resource[];
}

export interface OperationOutcomeIssue {
  severity: 'fatal' | 'error' | 'warning' | 'information';
  code: string;
  details?: CodeableConcept;
  diagnostics?: string;
  expression?: string[];
}
export interface OperationOutcome extends Resource {
  resourceType: 'OperationOutcome';
  issue: OperationOutcomeIssue[];
}

export interface BundleEntry<R extends Resource = Resource> {
  fullUrl?: string;
  resource?: R;
  search?: { mode?: 'match' | 'include' | 'outcome' };
}
export interface Bundle<R extends Resource = Resource> extends Resource {
  resourceType: 'Bundle';
  identifier?: Identifier;
  type: 'collection' | 'searchset' | 'batch' | 'transaction' | 'document' | 'message' | 'history' | 'batch-response' | 'transaction-response';
  timestamp?: string;
  total?: number;
  link?: { relation: string; url: string }[];
  entry?: BundleEntry<R>[];
}

export interface ParametersParameter {
  name: string;
  valueString?: string;
  valueCanonical?: string;
  valueInstant?: string;
  valueUri?: string;
  resource?: Resource;
  part?: ParametersParameter[];
}
export interface Parameters extends Resource {
  resourceType: 'Parameters';
  parameter?: ParametersParameter[];
}

export interface Address {
  use?: string;
  type?: string;
  line?: string[];
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  period?: Period;
}

export interface Patient extends Resource {
  resourceType: 'Patient';
  identifier?: Identifier[];
  address?: Address[];
}

export interface Organization extends Resource {
  resourceType: 'Organization';
  identifier?: Identifier[];
  name?: string;
  address?: Address[];
}

export interface Coverage extends Resource {
  resourceType: 'Coverage';
  status?: string;
  type?: CodeableConcept;
  beneficiary?: Reference;
  subscriberId?: string;
  payor?: Reference[];
  class?: { type: CodeableConcept; value: string; name?: string }[];
}

export interface ServiceRequest extends Resource {
  resourceType: 'ServiceRequest';
  status?: string;
  intent?: string;
  code?: CodeableConcept & { extension?: Extension[] };
  subject?: Reference;
}
export interface DeviceRequest extends Resource {
  resourceType: 'DeviceRequest';
  codeCodeableConcept?: CodeableConcept;
  codeReference?: Reference;
  subject?: Reference;
}
export interface MedicationRequest extends Resource {
  resourceType: 'MedicationRequest';
  medicationCodeableConcept?: CodeableConcept;
  medicationReference?: Reference;
  subject?: Reference;
}
export interface Medication extends Resource {
  resourceType: 'Medication';
  code?: CodeableConcept;
}
export type OrderResource = ServiceRequest | DeviceRequest | MedicationRequest;

export interface InsurancePlan extends Resource {
  resourceType: 'InsurancePlan';
  identifier: Identifier[];
  status: 'draft' | 'active' | 'retired' | 'unknown';
  type: CodeableConcept[];
  name: string;
  period?: Period;
}

export interface Basic extends Resource {
  resourceType: 'Basic';
  code: CodeableConcept;
  subject?: Reference;
}

export interface MedicationKnowledge extends Resource {
  resourceType: 'MedicationKnowledge';
  code: CodeableConcept;
  status: 'active' | 'inactive' | 'entered-in-error';
}

export interface QuestionnaireItem {
  linkId: string;
  text?: string;
  type: 'group' | 'display' | 'boolean' | 'string' | 'text' | 'attachment' | 'choice' | 'date';
  required?: boolean;
  repeats?: boolean;
  enableWhen?: { question: string; operator: 'exists' | '=' | '!='; answerBoolean?: boolean }[];
  item?: QuestionnaireItem[];
}
export interface Questionnaire extends Resource {
  resourceType: 'Questionnaire';
  url: string;
  version: string;
  name?: string;
  title?: string;
  status: 'draft' | 'active' | 'retired' | 'unknown';
  subjectType: string[];
  date?: string;
  publisher?: string;
  description?: string;
  useContext?: { code: Coding; valueCodeableConcept: CodeableConcept }[];
  item: QuestionnaireItem[];
}
export interface QuestionnaireResponse extends Resource {
  resourceType: 'QuestionnaireResponse';
  questionnaire: string;
  status: 'in-progress' | 'completed' | 'amended' | 'entered-in-error' | 'stopped';
  subject?: Reference;
  authored?: string;
}

export interface ClaimItem {
  sequence: number;
  extension?: Extension[];
  productOrService?: CodeableConcept;
}
export interface Claim extends Resource {
  resourceType: 'Claim';
  identifier?: (Identifier & { extension?: Extension[] })[];
  status?: string;
  type?: CodeableConcept;
  use?: string;
  patient?: Reference;
  created?: string;
  insurer?: Reference;
  provider?: Reference;
  insurance?: { sequence: number; focal: boolean; coverage: Reference }[];
  item?: ClaimItem[];
}
export interface ClaimResponseItem {
  extension?: Extension[];
  itemSequence: number;
  noteNumber?: number[];
  adjudication: { category: CodeableConcept; extension?: Extension[] }[];
}
export interface ClaimResponse extends Resource {
  resourceType: 'ClaimResponse';
  identifier?: Identifier[];
  status: 'active';
  type: CodeableConcept;
  use: 'preauthorization';
  patient: Reference;
  created: string;
  insurer: Reference;
  requestor?: Reference;
  request?: Reference;
  outcome: 'queued' | 'complete' | 'error' | 'partial';
  preAuthRef?: string;
  item?: ClaimResponseItem[];
  processNote?: { number?: number; type?: 'display' | 'print' | 'printoper'; text: string }[];
}

export interface CapabilityStatementResource {
  type: string;
  profile?: string;
  supportedProfile?: string[];
  documentation?: string;
  interaction?: { code: string }[];
  operation?: { name: string; definition: string; documentation?: string }[];
}
export interface CapabilityStatement extends Resource {
  resourceType: 'CapabilityStatement';
  url?: string;
  version?: string;
  name?: string;
  title?: string;
  status: 'draft' | 'active' | 'retired' | 'unknown';
  date: string;
  publisher?: string;
  description?: string;
  kind: 'instance' | 'capability' | 'requirements';
  software?: { name: string; version?: string };
  implementation?: { description: string; url?: string };
  fhirVersion: string;
  format: string[];
  implementationGuide?: string[];
  rest?: {
    mode: 'server' | 'client';
    documentation?: string;
    security?: { cors?: boolean; service?: CodeableConcept[]; description?: string };
    resource?: CapabilityStatementResource[];
  }[];
}
