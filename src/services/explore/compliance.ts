// Endpoint 13: per-jurisdiction compliance with a CMS rule, from the regulatory events that name it, as of a date.
//
// A rule has provisions, each with its own compliance date: the federal compliance and reporting dates, and any
// date a jurisdiction's own event states a status for. A jurisdiction's status is read per provision, as of today:
// a provision not yet due is `not_yet_due` (unless the jurisdiction already complies or partly complies); one in
// force takes the newest status stated for it, and a stated `not_yet_due` whose date has passed (or no statement at
// all) is `unknown`. The jurisdiction's status combines its provisions in force: `not_yet_due` only when none is in
// force; `in_compliance` when all are; `overdue` when any is; `partial` when some are met (in_compliance or partial)
// and others are not known; `unknown` when none is known.
import type { RegulatoryEventDoc } from '../../domain/documents.js';
import { JURISDICTIONS } from '../../domain/vocabulary.js';
import type { ReadModel } from '../../corpus/read-model.js';

export const COMPLIANCE_STATUSES = ['in_compliance', 'partial', 'overdue', 'not_yet_due', 'unknown'] as const;
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];
export const RULE_ID_PATTERN = /^[A-Z0-9-]{3,32}$/;

/** Federal event kinds that set a date by which payers must have done something. */
const PROVISION_KINDS: ReadonlySet<string> = new Set(['compliance_date', 'reporting_deadline']);

export interface ProvisionRow {
  compliance_at: string;
  title: string;
  /** The status of this provision for the jurisdiction, as of `as_of`. */
  status: ComplianceStatus;
  /** The jurisdiction's own event for the provision, or null when none states a status. */
  event_id: number | null;
  /** The federal event that sets the date, or null when only the jurisdiction's event names it. */
  federal_event_id: number | null;
}

export interface ComplianceRow {
  status: ComplianceStatus;
  /** The event the status comes from, or null when no event states one for this jurisdiction. */
  event_id: number | null;
  event_title: string | null;
  effective_at: string | null;
  compliance_at: string | null;
  source_url: string | null;
  confidence: number | null;
  provisions: ProvisionRow[];
}

const dueDate = (e: RegulatoryEventDoc): string => e.mmcComplianceAt ?? e.effectiveAt;

/** One provision's status as of `today`, from what the newest event says about it (if anything). */
export function provisionStatus(stated: ComplianceStatus | undefined, due: string, today: string): ComplianceStatus {
  if (due > today) return stated === 'in_compliance' || stated === 'partial' ? stated : 'not_yet_due';
  return !stated || stated === 'not_yet_due' ? 'unknown' : stated;
}

/** A jurisdiction's status from its provisions' statuses (those in force decide). */
export function combineStatuses(provisions: readonly { status: ComplianceStatus; due: string }[], today: string): ComplianceStatus {
  const inForce = provisions.filter((p) => p.due <= today).map((p) => p.status);
  if (!inForce.length) return 'not_yet_due';
  if (inForce.every((s) => s === 'in_compliance')) return 'in_compliance';
  if (inForce.includes('overdue')) return 'overdue';
  if (inForce.some((s) => s === 'in_compliance' || s === 'partial')) return 'partial';
  return 'unknown';
}

/** The grid as of `today` (YYYY-MM-DD), or undefined when no event names the rule. */
export function complianceGrid(model: ReadModel, ruleId: string, today: string): Record<string, unknown> | undefined {
  const events = model.events.filter((e) => e.ruleId === ruleId);
  if (!events.length) return undefined;
  const federal = events.filter((e) => e.jurisdiction === 'US').sort(byNewest);
  // The federal provisions by date; several events on one date are one provision (the oldest names it).
  const federalProvisions = new Map<string, RegulatoryEventDoc>();
  for (const e of [...federal].reverse()) if (PROVISION_KINDS.has(e.eventKind) && !federalProvisions.has(dueDate(e))) federalProvisions.set(dueDate(e), e);
  // Per jurisdiction and provision date, the newest event that states a status.
  const stated = new Map<string, Map<string, RegulatoryEventDoc>>();
  for (const e of [...events].sort(byNewest)) {
    if (e.jurisdiction === 'US' || !e.complianceStatus) continue;
    const byDate = stated.get(e.jurisdiction) ?? new Map<string, RegulatoryEventDoc>();
    if (!byDate.has(dueDate(e))) byDate.set(dueDate(e), e);
    stated.set(e.jurisdiction, byDate);
  }
  const noProvisions = withoutProvisions(federal, today);
  const jurisdictions: Record<string, ComplianceRow> = {};
  const summary: Record<ComplianceStatus, number> = { in_compliance: 0, partial: 0, overdue: 0, not_yet_due: 0, unknown: 0 };
  for (const j of JURISDICTIONS) {
    const own = stated.get(j) ?? new Map<string, RegulatoryEventDoc>();
    const dates = [...new Set([...federalProvisions.keys(), ...own.keys()])].sort();
    const provisions = dates.map((due) => {
      const e = own.get(due);
      const fed = federalProvisions.get(due);
      return { due, e, row: { compliance_at: due, title: (fed ?? e)!.title, status: provisionStatus(e?.complianceStatus, due, today), event_id: e?.id ?? null, federal_event_id: fed?.id ?? null } };
    });
    const status = provisions.length ? combineStatuses(provisions.map((p) => ({ status: p.row.status, due: p.due })), today) : noProvisions.status;
    // The event the status comes from: among the jurisdiction's own events, the latest provision in force with that
    // status (for partial, the latest met one); for not_yet_due, the next one due.
    const candidates = provisions.filter((p) => p.e && (status === 'not_yet_due' ? p.due > today : p.due <= today));
    const decides = (s: ComplianceStatus): boolean => (status === 'partial' ? s === 'partial' || s === 'in_compliance' : s === status);
    const source = status === 'not_yet_due' ? candidates[0] : ([...candidates].reverse().find((p) => decides(p.row.status)) ?? candidates[candidates.length - 1]);
    const e = source?.e;
    summary[status]++;
    jurisdictions[j] = {
      status,
      event_id: e?.id ?? null,
      event_title: e?.title ?? null,
      effective_at: e?.effectiveAt ?? null,
      compliance_at: e?.mmcComplianceAt ?? null,
      source_url: e?.sourceUrl ?? null,
      confidence: e?.confidence ?? null,
      provisions: provisions.map((p) => p.row),
    };
  }
  return {
    rule_id: ruleId,
    title: (federal.find((e) => e.eventKind === 'final_rule' || e.eventKind === 'proposed_rule') ?? federal[federal.length - 1] ?? events[0]!).title,
    as_of: today,
    federal_events: federal.map((e) => ({ id: e.id, event_kind: e.eventKind, title: e.title, issued_at: e.issuedAt, effective_at: e.effectiveAt, compliance_at: e.mmcComplianceAt ?? null, source_url: e.sourceUrl ?? null })),
    jurisdictions,
    summary: { ...summary, total: JURISDICTIONS.length },
    ...(federalProvisions.size === 0 && stated.size === 0 ? { basis: noProvisions.basis } : {}),
    note:
      `Statuses are as of ${today}. Each provision (a federal compliance or reporting date, or a date a jurisdiction's event names) is read from the newest event that states a status for it; ` +
      'one not yet due is not_yet_due, one in force that no event states (or that was stated not_yet_due before its date) is unknown. ' +
      'A jurisdiction is not_yet_due only while none of its provisions is in force; otherwise in_compliance when all in force are met, overdue when any is overdue, partial when some are met, unknown when none is known.',
  };
}

/**
 * A jurisdiction's status where the corpus records no provision for the rule (no compliance or reporting date, and no
 * jurisdiction event stating a status). A rule that is only proposed binds nobody: nothing is due (not_yet_due) until
 * a final rule sets dates. A final rule without a recorded date (for example one that sets what plans may do, not a
 * date a state must meet) leaves every status unknown. `basis` says which, in words, at the top of the grid.
 */
export function withoutProvisions(federalNewestFirst: readonly RegulatoryEventDoc[], today: string): { status: ComplianceStatus; basis: string } {
  const finalized = federalNewestFirst.some((e) => e.eventKind === 'final_rule');
  const proposed = federalNewestFirst.find((e) => e.eventKind === 'proposed_rule');
  if (proposed && !finalized) {
    const from = proposed.effectiveAt > today ? ` Its provisions are proposed to apply from ${proposed.effectiveAt}.` : '';
    return {
      status: 'not_yet_due',
      basis: `A proposed rule (published ${proposed.issuedAt}): it binds no one, so nothing is due until a final rule sets compliance dates.${from}`,
    };
  }
  return {
    status: 'unknown',
    basis: 'The corpus records no compliance or reporting date for this rule and no jurisdiction event stating a status, so no jurisdiction\'s status is known.',
  };
}

const byNewest = (a: RegulatoryEventDoc, b: RegulatoryEventDoc): number =>
  b.effectiveAt.localeCompare(a.effectiveAt) || b.issuedAt.localeCompare(a.issuedAt) || b.id - a.id;
