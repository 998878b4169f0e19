// Spec 2.6. Mandate dates are the federal facts in shared/reference/regulatory-facts.md:
// CMS-0057-F effective 2024-04-08 (final, 89 FR 8758); CMS-0062-P proposed, most provisions from 2027-10-01.
import { DRUG_CLASSES, JURISDICTIONS, PROGRAMS, SERVICE_CATEGORIES } from '../domain/vocabulary.js';
import type { ReadModel } from '../corpus/read-model.js';
import { ageSummary, type AgeSummary } from './staleness.js';
import { coverageOf, OUTSIDE_COMBINATIONS, type CoverageTable } from '../domain/coverage.js';

export const INTERFACE_VERSION = '1.0.0';
export const SERVICE_NAME = 'prauth: prior-authorization rules service';
export const SAMPLE_NOTICE =
  'Sample rules are being served (SERVE_SAMPLE_RULES=true): rules with rule_status "sample" are illustrative, built from public program facts, not coverage, legal or clinical advice. ' +
  'Confirm every rule against its source_url before relying on it.';
export const VERIFIED_NOTICE =
  'Only verified rules are served: each rests on curated facts read from official sources and confirmed by a second reading (see each rule\'s evidence). ' +
  'A combination without a verified rule answers 404 scope_gap. Not legal or clinical advice; confirm against source_url.';

const coverageMemo = new WeakMap<ReadModel, CoverageTable>();
/** Verified program-level coverage per state and program (computed once per read model). */
export function verifiedCoverage(model: ReadModel): CoverageTable {
  let t = coverageMemo.get(model);
  if (!t) coverageMemo.set(model, (t = coverageOf(model.ruleById.values())));
  return t;
}

// The age summary sorts every rule's date: computed once per read model and day.
const ageMemo = new WeakMap<ReadModel, { day: string; summary: AgeSummary }>();
function corpusAge(model: ReadModel, now: Date): AgeSummary {
  const day = now.toISOString().slice(0, 10);
  const hit = ageMemo.get(model);
  if (hit?.day === day) return hit.summary;
  const summary = ageSummary(model.ruleById.values(), now);
  ageMemo.set(model, { day, summary });
  return summary;
}

/** One line per endpoint, `METHOD /path: what it does (who may call)`, by route id: built from the route table by the caller. */
export type EndpointLines = Readonly<Record<string, string>>;

export function buildManifest(model: ReadModel, publicBaseUrl: string | undefined, endpoints: EndpointLines, now: Date = new Date()): Record<string, unknown> {
  const base = publicBaseUrl ?? '';
  return {
    service: SERVICE_NAME,
    version: `${model.lastVerified ?? 'empty'}.${model.version}`,
    interface_version: INTERFACE_VERSION,
    sample: model.servedStatuses.includes('sample'),
    notice: model.servedStatuses.includes('sample') ? SAMPLE_NOTICE : VERIFIED_NOTICE,
    dataset: {
      verified_rules: model.counts.verified,
      service_rules: model.counts.service,
      drug_rules: model.counts.drug,
      payer_rules: model.counts.payerLevel,
      served_rules: model.counts.served,
      rules_by_status: { ...model.counts.byStatus },
      served_statuses: [...model.servedStatuses],
      last_verified: model.lastVerified,
      corpus_version: model.version,
      ...corpusAge(model, now),
      combinations: JURISDICTIONS.length * PROGRAMS.length * (DRUG_CLASSES.length + SERVICE_CATEGORIES.length),
    },
    coverage: {
      states: [...JURISDICTIONS].filter((s) => model.rulesByState.has(s)),
      states_count: [...JURISDICTIONS].filter((s) => model.rulesByState.has(s)).length,
      programs: [...PROGRAMS],
      service_categories: [...SERVICE_CATEGORIES],
      drug_classes: [...DRUG_CLASSES],
      verified: (() => {
        const t = verifiedCoverage(model);
        return { rules: t.verified, of_combinations: t.total, outside_program_combinations: OUTSIDE_COMBINATIONS, percent: t.percent, by_program: t.byProgram, by_state: t.byState };
      })(),
    },
    mandates: {
      cms_0057_f: {
        effective: '2024-04-08',
        status: 'final',
        title: 'Advancing Interoperability and Improving Prior Authorization Processes',
        citation: '89 FR 8758',
      },
      cms_0062_p: {
        effective: '2027-10-01',
        status: 'proposed',
        title: '2026 CMS Interoperability Standards and Prior Authorization for Drugs',
        note: 'Proposed rule published 2026-04-14; most provisions would apply from 2027-10-01 if finalized.',
      },
    },
    endpoints,
    docs: {
      openapi: `${base}/openapi.json`,
      fhir_capability_statement: `${base}/v1/metadata`,
      cds_hooks_discovery: `${base}/v1/cds-services`,
      change_feed: `${base}/v1/watch/feed.xml`,
    },
  };
}
