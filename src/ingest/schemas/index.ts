// JSON Schemas (draft 2020-12 subset that ajv and OpenAPI 3.1 both read) for every canonical document kind.
// These are the truth for what an operator may ingest; the OpenAPI document reuses them.
import { DRUG_CLASSES, JURISDICTIONS, PA_EFFECTS, PA_TYPES, PROGRAMS, SERVICE_CATEGORIES, SUBJECT_KINDS, VERIFICATION_STATUSES } from '../../domain/vocabulary.js';
import type { ResourceType } from '../../domain/documents.js';

const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
const httpsUrl = { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 2048 } as const;
const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max }) as const;
const jurisdiction = { type: 'string', enum: [...JURISDICTIONS] } as const;
const program = { type: 'string', enum: [...PROGRAMS] } as const;
const fhirId = { type: 'string', pattern: '^[A-Za-z0-9.-]{1,64}$' } as const;

const verification = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'lastVerified', 'confidence', 'by', 'method'],
  properties: {
    status: { type: 'string', enum: [...VERIFICATION_STATUSES] },
    lastVerified: date,
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    by: text(200),
    method: text(200),
    caveat: text(1000),
  },
} as const;

const contact = {
  type: 'object',
  additionalProperties: false,
  required: ['role', 'name'],
  properties: {
    role: { type: 'string', pattern: '^[a-z_]{2,40}$' },
    name: text(200),
    phone: { type: 'string', pattern: '^[0-9+() .-]{7,30}$' },
    fax: { type: 'string', pattern: '^[0-9+() .-]{7,30}$' },
    url: httpsUrl,
    hours: text(200),
  },
} as const;

const phoneNumber = { type: 'string', pattern: '^[0-9+() .-]{7,30}$' } as const;

/** Where a PA request goes: one schema for ingested rules and for the curated facts they are derived from. */
export const submissionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['channel', 'target'],
  properties: {
    channel: { type: 'string', enum: ['portal', 'fax', 'phone', 'epa', 'x12_278', 'fhir_pas', 'mail', 'payer_process', 'none'] },
    target: text(500),
    url: httpsUrl,
    fax: phoneNumber,
    phone: phoneNumber,
  },
} as const;

const codeRef = {
  type: 'object',
  additionalProperties: false,
  required: ['system', 'code'],
  properties: { system: text(200), code: text(40), display: text(300) },
} as const;

export const coverageRuleSchema = {
  $id: 'CoverageRule',
  type: 'object',
  additionalProperties: false,
  required: [
    'resourceType', 'id', 'jurisdiction', 'program', 'subject', 'requirement', 'submission', 'turnaround',
    'federalOverride', 'source', 'verification',
  ],
  properties: {
    resourceType: { const: 'CoverageRule' },
    id: fhirId,
    jurisdiction,
    program,
    decidedBy: program,
    subject: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'code'],
      properties: { kind: { type: 'string', enum: ['drug', 'service'] }, code: { type: 'string' } },
      if: { properties: { kind: { const: 'drug' } } },
      then: { properties: { code: { enum: [...DRUG_CLASSES] } } },
      else: { properties: { code: { enum: [...SERVICE_CATEGORIES] } } },
    },
    payer: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'name'],
      properties: { id: fhirId, name: text(200) },
    },
    codes: { type: 'array', items: codeRef, maxItems: 200 },
    requirement: {
      type: 'object',
      additionalProperties: false,
      required: ['paRequired', 'paType', 'criteria', 'documentation'],
      properties: {
        paRequired: { type: 'boolean' },
        paType: { type: 'string', enum: [...PA_TYPES] },
        criteria: text(4000),
        documentation: { type: 'array', items: text(500), maxItems: 30 },
        newStartsOnly: { type: 'boolean' },
        population: text(200),
        ages: { type: 'object', additionalProperties: false, properties: { min: { type: 'integer', minimum: 0, maximum: 120 }, max: { type: 'integer', minimum: 0, maximum: 120 } } },
        paMode: { type: 'string', enum: ['required', 'plan_may_require', 'voluntary'] },
        quantityLimit: text(500),
        stepTherapy: text(1000),
        exclusion: {
          type: 'object',
          additionalProperties: false,
          required: ['reason', 'citation'],
          properties: { reason: text(4000), citation: text(500) },
        },
      },
    },
    submission: submissionSchema,
    turnaround: {
      type: 'object',
      additionalProperties: false,
      required: ['standardHours', 'expeditedHours'],
      properties: {
        standardHours: { type: 'integer', minimum: 0, maximum: 8760 },
        expeditedHours: { type: 'integer', minimum: 0, maximum: 8760 },
        basis: text(500),
      },
    },
    federalOverride: { type: 'boolean' },
    source: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'title', 'publisher'],
      properties: { url: httpsUrl, title: text(300), publisher: text(200) },
    },
    effective: {
      type: 'object',
      additionalProperties: false,
      properties: { start: date, end: date },
    },
    verification,
    evidence: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['url', 'title', 'publisher', 'locator', 'checked'],
        properties: { url: httpsUrl, title: text(300), publisher: text(200), effective: date, locator: text(300), checked: date },
      },
    },
    meta: {
      type: 'object',
      additionalProperties: false,
      properties: { versionId: { type: 'string' }, lastUpdated: { type: 'string' } },
    },
  },
} as const;

export const jurisdictionSchema = {
  $id: 'Jurisdiction',
  type: 'object',
  additionalProperties: false,
  required: ['resourceType', 'id', 'name', 'medicaidAgency', 'flags', 'mcoBrands', 'carveOuts', 'contacts', 'sources', 'verification'],
  properties: {
    resourceType: { const: 'Jurisdiction' },
    id: jurisdiction,
    name: text(100),
    medicaidAgency: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'url'],
      properties: { name: text(200), url: httpsUrl },
    },
    medicaidProgramName: text(100),
    chipProgramName: text(100),
    flags: {
      type: 'object',
      additionalProperties: false,
      required: ['medicaidExpansion', 'ffsDominant', 'wiser'],
      properties: {
        medicaidExpansion: { type: 'boolean' },
        ffsDominant: { type: 'boolean' },
        wiser: { type: 'boolean' },
      },
    },
    mcoBrands: { type: 'array', items: text(200), maxItems: 40 },
    carveOuts: { type: 'array', items: text(300), maxItems: 40 },
    contacts: { type: 'array', items: contact, maxItems: 40 },
    sources: {
      type: 'array',
      maxItems: 40,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['title', 'url'],
        properties: { title: text(300), url: httpsUrl },
      },
    },
    appealNotes: text(2000),
    verification,
  },
} as const;

export const payerSchema = {
  $id: 'Payer',
  type: 'object',
  additionalProperties: false,
  required: ['resourceType', 'id', 'name', 'kind', 'programs', 'jurisdictions', 'contacts', 'verification'],
  properties: {
    resourceType: { const: 'Payer' },
    id: fhirId,
    name: text(200),
    kind: { type: 'string', enum: ['medicaid_mco', 'medicaid_ffs', 'ma_plan', 'part_d_sponsor', 'chip_plan', 'mac', 'wiser_participant', 'dsnp'] },
    programs: { type: 'array', items: program, minItems: 1, uniqueItems: true },
    jurisdictions: { type: 'array', items: jurisdiction, minItems: 1, uniqueItems: true },
    contacts: { type: 'array', items: contact, maxItems: 20 },
    url: httpsUrl,
    verification,
  },
} as const;

export const drugCrosswalkSchema = {
  $id: 'DrugCrosswalkEntry',
  type: 'object',
  additionalProperties: false,
  required: ['resourceType', 'id', 'drugClass', 'generic', 'brands'],
  properties: {
    resourceType: { const: 'DrugCrosswalkEntry' },
    id: fhirId,
    drugClass: { type: 'string', enum: [...DRUG_CLASSES] },
    generic: text(200),
    brands: { type: 'array', items: text(200), maxItems: 30 },
    rxnorm: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ingredient: { type: 'string', pattern: '^[0-9]{1,10}$' },
        scd: { type: 'array', items: { type: 'string', pattern: '^[0-9]{1,10}$' }, maxItems: 20 },
        products: {
          type: 'array',
          maxItems: 20,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['code', 'tty', 'name'],
            properties: {
              code: { type: 'string', pattern: '^[0-9]{1,10}$' },
              tty: { type: 'string', enum: ['SCD', 'SBD', 'GPCK', 'BPCK'] },
              name: text(300),
              source: text(40),
            },
          },
        },
      },
    },
    notes: text(1000),
  },
} as const;

export const codeMappingSchema = {
  $id: 'CodeMapping',
  type: 'object',
  additionalProperties: false,
  required: ['resourceType', 'id', 'system', 'serviceCategory', 'description'],
  oneOf: [{ required: ['code'] }, { required: ['range'] }],
  properties: {
    resourceType: { const: 'CodeMapping' },
    id: fhirId,
    system: { type: 'string', enum: ['CPT', 'HCPCS'] },
    code: { type: 'string', pattern: '^[A-Z0-9]{5}$' },
    range: {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to'],
      properties: { from: { type: 'string', pattern: '^[A-Z0-9]{5}$' }, to: { type: 'string', pattern: '^[A-Z0-9]{5}$' } },
    },
    serviceCategory: { type: 'string', enum: [...SERVICE_CATEGORIES] },
    jurisdiction,
    description: text(500),
    source: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'title'],
      properties: { url: httpsUrl, title: text(300) },
    },
  },
} as const;

const subjectRef = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'code'],
  properties: { kind: { type: 'string', enum: ['drug', 'service'] }, code: { type: 'string', minLength: 1, maxLength: 60 } },
} as const;

export const regulatoryEventSchema = {
  $id: 'RegulatoryEvent',
  type: 'object',
  additionalProperties: false,
  required: ['resourceType', 'id', 'jurisdiction', 'eventKind', 'title', 'issuedAt', 'effectiveAt', 'paRelevant', 'topics'],
  properties: {
    resourceType: { const: 'RegulatoryEvent' },
    id: { type: 'integer', minimum: 1 },
    jurisdiction: { type: 'string', pattern: '^([A-Z]{2}|US)$' },
    eventKind: { type: 'string', pattern: '^[a-z_]{2,40}$' },
    title: text(500),
    issuedAt: date,
    effectiveAt: date,
    mmcComplianceAt: { anyOf: [date, { type: 'null' }] },
    commentDeadline: { anyOf: [date, { type: 'null' }] },
    paRelevant: { type: 'boolean' },
    sourceUrl: { anyOf: [httpsUrl, { type: 'null' }] },
    ruleId: { type: 'string', pattern: '^[A-Z0-9-]{3,32}$' },
    complianceStatus: { type: 'string', enum: ['in_compliance', 'partial', 'overdue', 'not_yet_due', 'unknown'] },
    topics: { type: 'array', items: { type: 'string', pattern: '^[a-z0-9-]+$' }, maxItems: 20 },
    subjects: { type: 'array', items: subjectRef, maxItems: 40 },
    subjectKinds: { type: 'array', items: { type: 'string', enum: [...SUBJECT_KINDS] }, uniqueItems: true, minItems: 1 },
    programs: { type: 'array', items: program, uniqueItems: true },
    paEffect: { type: 'string', enum: [...PA_EFFECTS] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
} as const;

export const topicSchema = {
  $id: 'Topic',
  type: 'object',
  additionalProperties: false,
  required: ['resourceType', 'id', 'displayName', 'kind', 'description', 'taxonomyLink', 'status', 'match'],
  properties: {
    resourceType: { const: 'Topic' },
    id: { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 80 },
    displayName: text(200),
    kind: { type: 'string', pattern: '^[a-z_]{2,40}$' },
    description: text(2000),
    taxonomyLink: { anyOf: [httpsUrl, { type: 'null' }] },
    status: { type: 'string', enum: ['approved', 'draft', 'retired'] },
    match: {
      type: 'object',
      additionalProperties: false,
      properties: {
        drugClasses: { type: 'array', items: { type: 'string', enum: [...DRUG_CLASSES] } },
        serviceCategories: { type: 'array', items: { type: 'string', enum: [...SERVICE_CATEGORIES] } },
        ruleIds: { type: 'array', items: { type: 'string' } },
        keywords: { type: 'array', items: text(100) },
        programs: { type: 'array', items: program, uniqueItems: true },
        jurisdictions: { type: 'array', items: jurisdiction, uniqueItems: true },
      },
    },
  },
} as const;

export const DOCUMENT_SCHEMAS: Readonly<Record<ResourceType, object>> = {
  CoverageRule: coverageRuleSchema,
  Jurisdiction: jurisdictionSchema,
  Payer: payerSchema,
  DrugCrosswalkEntry: drugCrosswalkSchema,
  CodeMapping: codeMappingSchema,
  RegulatoryEvent: regulatoryEventSchema,
  Topic: topicSchema,
};
