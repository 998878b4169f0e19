// Builders for small, explicit test corpora (tests should not depend on the sample corpus's exact content).
import type { CoverageRuleDoc, DrugCrosswalkDoc, JurisdictionDoc, PayerDoc } from '../../src/domain/documents.js';
import type { PaType, Program, SubjectKind } from '../../src/domain/vocabulary.js';

const verification = { status: 'verified' as const, lastVerified: '2026-11-01', confidence: 0.7, by: 'test', method: 'test' };

export function jurisdiction(id: string, over: Partial<JurisdictionDoc> = {}): JurisdictionDoc {
  return {
    resourceType: 'Jurisdiction',
    id,
    name: `State ${id}`,
    medicaidAgency: { name: `${id} Medicaid agency`, url: `https://medicaid.${id.toLowerCase()}.example.gov` },
    flags: { medicaidExpansion: true, ffsDominant: false, wiser: false },
    mcoBrands: [`${id} Health Plan`],
    carveOuts: [],
    contacts: [{ role: 'member_services', name: `${id} Medicaid member services`, url: `https://medicaid.${id.toLowerCase()}.example.gov/help` }],
    sources: [{ title: `${id} Medicaid`, url: `https://medicaid.${id.toLowerCase()}.example.gov` }],
    verification,
    ...over,
  };
}

export interface RuleSpec {
  state: string;
  program: Program;
  kind?: SubjectKind;
  code: string;
  paRequired?: boolean;
  paType?: PaType;
  payer?: { id: string; name: string };
  federalOverride?: boolean;
  confidence?: number;
  status?: 'verified' | 'sample' | 'draft' | 'retired';
  lastVerified?: string;
  codes?: CoverageRuleDoc['codes'];
}

export function rule(s: RuleSpec): CoverageRuleDoc {
  const kind = s.kind ?? 'drug';
  const paRequired = s.paRequired ?? true;
  const base = `${s.state.toLowerCase()}.${s.program.replace(/_/g, '-')}.${kind[0]}.${s.code.replace(/_/g, '-')}`;
  return {
    resourceType: 'CoverageRule',
    id: s.payer ? `${s.payer.id}.${kind[0]}.${s.code.replace(/_/g, '-')}` : base,
    jurisdiction: s.state,
    program: s.program,
    subject: { kind, code: s.code },
    ...(s.payer ? { payer: s.payer } : {}),
    ...(s.codes ? { codes: s.codes } : {}),
    requirement: {
      paRequired,
      paType: s.paType ?? (paRequired ? 'full' : 'none'),
      criteria: `Criteria for ${s.code} in ${s.state}`,
      documentation: paRequired ? ['Diagnosis', 'Prior therapies tried'] : [],
    },
    submission: { channel: 'portal', target: `${s.state} PA portal`, url: `https://pa.${s.state.toLowerCase()}.example.gov` },
    turnaround: { standardHours: 168, expeditedHours: 72, basis: 'CMS-0057-F' },
    federalOverride: s.federalOverride ?? false,
    source: { url: `https://medicaid.${s.state.toLowerCase()}.example.gov/pa/${s.code}`, title: `${s.code} policy`, publisher: `${s.state} agency` },
    verification: { ...verification, status: s.status ?? 'verified', confidence: s.confidence ?? 0.7, lastVerified: s.lastVerified ?? '2026-11-01' },
  };
}

export function payer(id: string, name: string, states: string[], programs: Program[] = ['medicaid_mco']): PayerDoc {
  return {
    resourceType: 'Payer',
    id,
    name,
    kind: 'medicaid_mco',
    programs,
    jurisdictions: states,
    contacts: [{ role: 'provider_services', name: `${name} provider services`, url: `https://${id}.example.com` }],
    verification,
  };
}

/** Sertraline (RxNorm SCD 312941) in the antidepressants class: one crosswalk entry for CRD and PAS order tests. */
export const SERTRALINE_SCD = '312941';
export const sertraline: DrugCrosswalkDoc = {
  resourceType: 'DrugCrosswalkEntry', id: 'sertraline', drugClass: 'mental_health_antidepressants', generic: 'sertraline', brands: ['Zoloft'], notes: 'test data',
  rxnorm: { ingredient: '36437', scd: [SERTRALINE_SCD], products: [{ code: SERTRALINE_SCD, name: 'sertraline 50 MG Oral Tablet', tty: 'SCD' }] },
};
