// Endpoint 13: per-jurisdiction compliance with a CMS rule, from the regulatory events that name it.
import type { RegulatoryEventDoc } from '../../domain/documents.js';
import { JURISDICTIONS } from '../../domain/vocabulary.js';
import type { ReadModel } from '../../corpus/read-model.js';

export const COMPLIANCE_STATUSES = ['in_compliance', 'partial', 'overdue', 'not_yet_due', 'unknown'] as const;
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];
export const RULE_ID_PATTERN = /^[A-Z0-9-]{3,32}$/;

export interface ComplianceRow {
  status: ComplianceStatus;
  /** The event the status comes from, or null when no event states one for this jurisdiction. */
  event_id: number | null;
  event_title: string | null;
  effective_at: string | null;
  compliance_at: string | null;
  source_url: string | null;
  confidence: number | null;
}

/** The grid, or undefined when no event names the rule. */
export function complianceGrid(model: ReadModel, ruleId: string): Record<string, unknown> | undefined {
  const events = model.events.filter((e) => e.ruleId === ruleId);
  if (!events.length) return undefined;
  const federal = events.filter((e) => e.jurisdiction === 'US').sort(byNewest);
  const latestPerState = new Map<string, RegulatoryEventDoc>();
  for (const e of [...events].sort(byNewest)) {
    if (e.jurisdiction !== 'US' && e.complianceStatus && !latestPerState.has(e.jurisdiction)) latestPerState.set(e.jurisdiction, e);
  }
  const jurisdictions: Record<string, ComplianceRow> = {};
  const summary: Record<ComplianceStatus, number> = { in_compliance: 0, partial: 0, overdue: 0, not_yet_due: 0, unknown: 0 };
  for (const j of JURISDICTIONS) {
    const e = latestPerState.get(j);
    const status: ComplianceStatus = e?.complianceStatus ?? 'unknown';
    summary[status]++;
    jurisdictions[j] = {
      status,
      event_id: e?.id ?? null,
      event_title: e?.title ?? null,
      effective_at: e?.effectiveAt ?? null,
      compliance_at: e?.mmcComplianceAt ?? null,
      source_url: e?.sourceUrl ?? null,
      confidence: e?.confidence ?? null,
    };
  }
  return {
    rule_id: ruleId,
    title: (federal.find((e) => e.eventKind === 'final_rule' || e.eventKind === 'proposed_rule') ?? federal[federal.length - 1] ?? events[0]!).title,
    federal_events: federal.map((e) => ({ id: e.id, event_kind: e.eventKind, title: e.title, issued_at: e.issuedAt, effective_at: e.effectiveAt, compliance_at: e.mmcComplianceAt ?? null, source_url: e.sourceUrl ?? null })),
    jurisdictions,
    summary: { ...summary, total: JURISDICTIONS.length },
    note: 'A status comes from the newest event that states one for the jurisdiction; "unknown" means no event in the corpus states it.',
  };
}

const byNewest = (a: RegulatoryEventDoc, b: RegulatoryEventDoc): number =>
  b.effectiveAt.localeCompare(a.effectiveAt) || b.issuedAt.localeCompare(a.issuedAt) || b.id - a.id;
