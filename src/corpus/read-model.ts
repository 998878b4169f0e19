// The in-memory read model: built from the store's documents, never mutated after build, swapped whole.
// Hot endpoints read only from here.
import type {
  CodeMappingDoc,
  CoverageRuleDoc,
  DrugCrosswalkDoc,
  JurisdictionDoc,
  PayerDoc,
  RegulatoryEventDoc,
  TopicDoc,
} from '../domain/documents.js';
import type { SubjectKind } from '../domain/vocabulary.js';

export interface CorpusDocuments {
  rules: CoverageRuleDoc[];
  jurisdictions: JurisdictionDoc[];
  payers: PayerDoc[];
  drugs: DrugCrosswalkDoc[];
  codeMappings: CodeMappingDoc[];
  events: RegulatoryEventDoc[];
  topics: TopicDoc[];
}

export interface ReadModel {
  readonly version: number;
  readonly builtAt: Date;
  /** Verified program-level rules keyed `state|program|kind|code`. */
  readonly rules: ReadonlyMap<string, CoverageRuleDoc>;
  /** Verified payer-level rules keyed `state|kind|code`, every program. */
  readonly payerRules: ReadonlyMap<string, readonly CoverageRuleDoc[]>;
  /** Every verified rule by id (program- and payer-level). */
  readonly ruleById: ReadonlyMap<string, CoverageRuleDoc>;
  /** Verified program-level rules per state. */
  readonly rulesByState: ReadonlyMap<string, readonly CoverageRuleDoc[]>;
  readonly jurisdictions: ReadonlyMap<string, JurisdictionDoc>;
  readonly payers: ReadonlyMap<string, PayerDoc>;
  readonly drugs: readonly DrugCrosswalkDoc[];
  readonly codeMappings: readonly CodeMappingDoc[];
  readonly events: readonly RegulatoryEventDoc[];
  readonly topics: ReadonlyMap<string, TopicDoc>;
  /** Latest lastVerified over verified rules (YYYY-MM-DD), or null for an empty corpus. */
  readonly lastVerified: string | null;
  readonly counts: { verified: number; drug: number; service: number; payerLevel: number };
}

export const ruleKey = (state: string, program: string, kind: SubjectKind, code: string): string =>
  `${state}|${program}|${kind}|${code}`;
export const payerRuleKey = (state: string, kind: SubjectKind, code: string): string => `${state}|${kind}|${code}`;

export function buildReadModel(docs: CorpusDocuments, version: number, builtAt = new Date()): ReadModel {
  const rules = new Map<string, CoverageRuleDoc>();
  const payerRules = new Map<string, CoverageRuleDoc[]>();
  const ruleById = new Map<string, CoverageRuleDoc>();
  const rulesByState = new Map<string, CoverageRuleDoc[]>();
  let lastVerified: string | null = null;
  const counts = { verified: 0, drug: 0, service: 0, payerLevel: 0 };

  // Deterministic order whatever order the store returned.
  const sorted = [...docs.rules].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const rule of sorted) {
    if (rule.verification.status !== 'verified') continue;
    ruleById.set(rule.id, rule);
    if (!lastVerified || rule.verification.lastVerified > lastVerified) lastVerified = rule.verification.lastVerified;
    const { jurisdiction: state, program, subject } = rule;
    if (rule.payer) {
      counts.payerLevel++;
      const k = payerRuleKey(state, subject.kind, subject.code);
      const list = payerRules.get(k) ?? [];
      list.push(rule);
      payerRules.set(k, list);
      continue;
    }
    const k = ruleKey(state, program, subject.kind, subject.code);
    if (rules.has(k)) continue; // one program-level rule per combination; the first id wins
    rules.set(k, rule);
    counts.verified++;
    if (subject.kind === 'drug') counts.drug++;
    else counts.service++;
    const list = rulesByState.get(state) ?? [];
    list.push(rule);
    rulesByState.set(state, list);
  }

  return Object.freeze({
    version,
    builtAt,
    rules,
    payerRules,
    ruleById,
    rulesByState,
    jurisdictions: new Map(docs.jurisdictions.map((j) => [j.id, j])),
    payers: new Map(docs.payers.map((p) => [p.id, p])),
    drugs: docs.drugs,
    codeMappings: docs.codeMappings,
    events: [...docs.events].sort((a, b) => a.id - b.id),
    topics: new Map(docs.topics.map((t) => [t.id, t])),
    lastVerified,
    counts,
  });
}
