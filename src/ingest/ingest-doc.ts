// The ingest format for operators, generated from the JSON Schemas the ingest validates with (src/ingest/schemas):
// docs/ingest.md is this module's output (`npm run docs:ingest`), a test fails when the two drift, and
// `prauth schema <kind>` prints a schema. One minimal valid record per kind; the test validates each.
import type { ResourceType } from '../domain/documents.js';
import { DOCUMENT_SCHEMAS } from './schemas/index.js';

type Schema = Record<string, unknown>;

/** The file each kind is usually kept in (the sample corpus's names), also accepted by `prauth schema`. */
export const KIND_FILES: Readonly<Record<ResourceType, string>> = {
  Jurisdiction: 'jurisdictions.ndjson',
  Payer: 'payers.ndjson',
  DrugCrosswalkEntry: 'drugs.ndjson',
  CodeMapping: 'code-mappings.ndjson',
  Topic: 'topics.ndjson',
  RegulatoryEvent: 'events.ndjson',
  CoverageRule: 'rules.ndjson',
};

const verification = { status: 'verified', lastVerified: '2026-11-01', confidence: 0.9, by: 'jane-reviewer', method: 'read the cited policy page' };

/** The smallest record of each kind that the ingest accepts. */
export const MINIMAL_RECORDS: Readonly<Record<ResourceType, Record<string, unknown>>> = {
  Jurisdiction: {
    resourceType: 'Jurisdiction', id: 'TX', name: 'Texas',
    medicaidAgency: { name: 'Texas Health and Human Services Commission', url: 'https://www.hhs.texas.gov' },
    flags: { medicaidExpansion: false, ffsDominant: false, wiser: true }, mcoBrands: [], carveOuts: [], contacts: [], sources: [], verification,
  },
  Payer: {
    resourceType: 'Payer', id: 'tx-example-health-plan', name: 'Example Health Plan', kind: 'medicaid_mco', programs: ['medicaid_mco'], jurisdictions: ['TX'], contacts: [], verification,
  },
  DrugCrosswalkEntry: { resourceType: 'DrugCrosswalkEntry', id: 'hepatitis-c.sofosbuvir-velpatasvir', drugClass: 'hepatitis_c', generic: 'sofosbuvir/velpatasvir', brands: ['Epclusa'] },
  CodeMapping: { resourceType: 'CodeMapping', id: 'tx.cpt.70553', system: 'CPT', code: '70553', serviceCategory: 'advanced_imaging', jurisdiction: 'TX', description: 'MRI brain without and with contrast' },
  Topic: { resourceType: 'Topic', id: 'hepatitis-c', displayName: 'Hepatitis C', kind: 'drug_class', description: 'Hepatitis C direct-acting antivirals', taxonomyLink: null, status: 'approved', match: { drugClasses: ['hepatitis_c'] } },
  RegulatoryEvent: {
    resourceType: 'RegulatoryEvent', id: 9001, jurisdiction: 'TX', eventKind: 'list_update', title: 'Texas updates its PA list', issuedAt: '2026-11-01', effectiveAt: '2026-12-01', paRelevant: true, topics: [],
  },
  CoverageRule: {
    resourceType: 'CoverageRule', id: 'tx.medicaid-mco.d.hepatitis-c', jurisdiction: 'TX', program: 'medicaid_mco', subject: { kind: 'drug', code: 'hepatitis_c' },
    requirement: { paRequired: true, paType: 'full', criteria: 'Confirmed chronic HCV; prescriber attestation', documentation: ['HCV RNA result'] },
    submission: { channel: 'portal', target: "The member's MCO pharmacy PA portal" },
    turnaround: { standardHours: 24, expeditedHours: 24, basis: 'SSA 1927(d)(5)' },
    federalOverride: false,
    source: { url: 'https://www.hhs.texas.gov', title: 'Texas Medicaid pharmacy prior authorization', publisher: 'Texas HHSC' },
    verification,
  },
};

/** A kind from its resourceType or its usual file name (case-insensitive): "rules", "CoverageRule", "rules.ndjson". */
export function kindOf(raw: string): ResourceType | undefined {
  const v = raw.toLowerCase().replace(/\.ndjson$/, '');
  return (Object.keys(DOCUMENT_SCHEMAS) as ResourceType[]).find((k) => k.toLowerCase() === v || KIND_FILES[k].replace('.ndjson', '') === v);
}

function typeOf(s: Schema): string {
  if ('const' in s) return `\`${JSON.stringify(s.const)}\``;
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).map(typeOf).join(' or ');
  if (s.type === 'array') return `array of ${typeOf((s.items ?? {}) as Schema)}`;
  return String(s.type ?? 'any');
}

function constraints(s: Schema): string {
  const out: string[] = [];
  const enumOf = (x: Schema) => (Array.isArray(x.enum) ? (x.enum as unknown[]) : undefined);
  const e = enumOf(s) ?? (s.type === 'array' ? enumOf((s.items ?? {}) as Schema) : undefined);
  if (e) out.push(e.length > 12 ? `one of ${e.length} values (${e.slice(0, 4).map(String).join(', ')}, ...)` : `one of ${e.map(String).join(', ')}`);
  if (typeof s.pattern === 'string') out.push(`pattern \`${s.pattern}\``);
  if (typeof s.minLength === 'number' || typeof s.maxLength === 'number') out.push(`${s.minLength ?? 0}-${s.maxLength ?? '...'} characters`);
  if (typeof s.minimum === 'number' || typeof s.maximum === 'number') out.push(`${s.minimum ?? '...'} to ${s.maximum ?? '...'}`);
  if (s.if) out.push('subject.code must be a drug class for kind "drug", a service category for kind "service"');
  return out.join('; ');
}

function rows(s: Schema, prefix: string, out: string[]): void {
  const required = new Set((s.required as string[] | undefined) ?? []);
  for (const [name, raw] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    const path = `${prefix}${name}`;
    out.push(`| \`${path}\` | ${typeOf(raw)} | ${required.has(name) ? 'yes' : ''} | ${constraints(raw)} |`);
    if (raw.type === 'object') rows(raw, `${path}.`, out);
    if (raw.type === 'array' && (raw.items as Schema | undefined)?.type === 'object') rows(raw.items as Schema, `${path}[].`, out);
  }
}

export function renderIngestDoc(): string {
  const parts = [
    '# The ingest format',
    '',
    '<!-- Generated from src/ingest/schemas by src/ingest/ingest-doc.ts (`npm run docs:ingest`); a test fails when it drifts. -->',
    '',
    '`prauth ingest <file|directory>` (and `POST /v1/admin/ingest`) reads canonical documents: NDJSON (one JSON object',
    'per line), a JSON array, or a directory of such files (loaded in the order of its `corpus.json` `files` list when',
    'there is one). Each record names its kind in `resourceType`; unknown fields are rejected. A record that does not',
    'validate is reported as `file:line: reason` and skipped; the command exits 2 when any record was rejected. An',
    'ingest is idempotent: a second run of the same files changes nothing. Load jurisdictions and payers before the',
    'rules that name them. `prauth schema <kind>` prints the JSON Schema of a kind.',
    '',
    '| Kind (`resourceType`) | Usual file |',
    '|---|---|',
    ...(Object.keys(KIND_FILES) as ResourceType[]).map((k) => `| ${k} | ${KIND_FILES[k]} |`),
  ];
  for (const kind of Object.keys(KIND_FILES) as ResourceType[]) {
    const out: string[] = [];
    rows(DOCUMENT_SCHEMAS[kind] as Schema, '', out);
    parts.push('', `## ${kind}`, '', 'A minimal valid record:', '', '```json', JSON.stringify(MINIMAL_RECORDS[kind]), '```', '', '| Field | Type | Required | Constraints |', '|---|---|---|---|', ...out);
  }
  return `${parts.join('\n')}\n`;
}
