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
import { distinctItems } from '../domain/distinct-items.js';
import { SERVED_RULE_STATUSES, VERIFICATION_STATUSES, type SubjectKind, type VerificationStatus } from '../domain/vocabulary.js';

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
  /** Served program-level rules keyed `state|program|kind|code`. */
  readonly rules: ReadonlyMap<string, CoverageRuleDoc>;
  /** Served payer-level rules keyed `state|kind|code`, every program. */
  readonly payerRules: ReadonlyMap<string, readonly CoverageRuleDoc[]>;
  /** Every served rule by id (program- and payer-level). */
  readonly ruleById: ReadonlyMap<string, CoverageRuleDoc>;
  /** Served program-level rules per state. */
  readonly rulesByState: ReadonlyMap<string, readonly CoverageRuleDoc[]>;
  readonly jurisdictions: ReadonlyMap<string, JurisdictionDoc>;
  readonly payers: ReadonlyMap<string, PayerDoc>;
  readonly drugs: readonly DrugCrosswalkDoc[];
  readonly codeMappings: readonly CodeMappingDoc[];
  readonly events: readonly RegulatoryEventDoc[];
  readonly topics: ReadonlyMap<string, TopicDoc>;
  /** Latest lastVerified over served rules (YYYY-MM-DD), or null for an empty corpus. */
  readonly lastVerified: string | null;
  /**
   * verified: served program-level rules with status verified; served: every served program-level rule;
   * drug/service: served program-level rules by subject kind; payerLevel: served payer-level rules;
   * byStatus: every rule document given to the model (program- and payer-level, served or not) by status.
   */
  readonly counts: {
    verified: number;
    served: number;
    drug: number;
    service: number;
    payerLevel: number;
    byStatus: Readonly<Record<VerificationStatus, number>>;
  };
  /** The rule statuses this model serves (verified only unless SERVE_SAMPLE_RULES=true). */
  readonly servedStatuses: readonly VerificationStatus[];
}

export interface ReadModelOptions {
  /** Serve only rules whose status is verified (the default); false with SERVE_SAMPLE_RULES=true: verified and sample rules. */
  verifiedOnly?: boolean;
}

export const ruleKey = (state: string, program: string, kind: SubjectKind, code: string): string =>
  `${state}|${program}|${kind}|${code}`;
export const payerRuleKey = (state: string, kind: SubjectKind, code: string): string => `${state}|${kind}|${code}`;

/**
 * A rule as it is served: its documentation list without repeated items, and frozen, because every request shares
 * the read model's rules and a projection that appended to it would change the next answer (issue 28: a step-therapy
 * line appended to the list once per next-steps projection).
 */
function servedRule(rule: CoverageRuleDoc): CoverageRuleDoc {
  const documentation = Object.freeze(distinctItems(rule.requirement.documentation)) as string[];
  return { ...rule, requirement: { ...rule.requirement, documentation } };
}

export function buildReadModel(docs: CorpusDocuments, version: number, builtAt = new Date(), options: ReadModelOptions = {}): ReadModel {
  const servedStatuses: readonly VerificationStatus[] = options.verifiedOnly ? ['verified'] : [...SERVED_RULE_STATUSES];
  const rules = new Map<string, CoverageRuleDoc>();
  const payerRules = new Map<string, CoverageRuleDoc[]>();
  const ruleById = new Map<string, CoverageRuleDoc>();
  const rulesByState = new Map<string, CoverageRuleDoc[]>();
  let lastVerified: string | null = null;
  const byStatus = Object.fromEntries(VERIFICATION_STATUSES.map((st) => [st, 0])) as Record<VerificationStatus, number>;
  const counts = { verified: 0, served: 0, drug: 0, service: 0, payerLevel: 0, byStatus };

  // Deterministic order whatever order the store returned.
  const sorted = [...docs.rules].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const stored of sorted) {
    byStatus[stored.verification.status] = (byStatus[stored.verification.status] ?? 0) + 1;
    if (!servedStatuses.includes(stored.verification.status)) continue;
    const rule = servedRule(stored);
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
    counts.served++;
    if (rule.verification.status === 'verified') counts.verified++;
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
    servedStatuses,
  });
}
