// CMS-0057-F prior-authorization metrics from the stored decisions, per program and plan for one calendar year:
// percent of standard and of expedited requests approved and denied, percent of standard requests approved after
// appeal and approved after the timeframe was extended, and the average and median time from request to decision
// (standard and expedited). CMS-0057-F excludes drugs from these provisions, so requests whose every item resolved
// to a drug rule are left out (and counted as such).
import type { Program } from '../../domain/vocabulary.js';
import type { PasSubmissionDoc } from './store.js';

export interface ClockMetrics {
  requests: number;
  decided: number;
  approved: number;
  denied: number;
  /** Some items certified, some not (reported on their own, not folded into approved or denied). */
  partially_approved: number;
  still_pending: number;
  percent_approved: number | null;
  percent_denied: number | null;
  average_decision_hours: number | null;
  median_decision_hours: number | null;
}

export interface PlanMetrics {
  program: Program | 'unknown';
  plan: string;
  states: string[];
  standard: ClockMetrics & { approved_after_appeal: number; percent_approved_after_appeal: number | null; approved_after_extension: number; percent_approved_after_extension: number | null };
  expedited: ClockMetrics;
}

export interface MetricsReport {
  year: number;
  generated_at: string;
  basis: string;
  excluded: { drug_only_requests: number; cancelled_before_decision: number };
  rows: PlanMetrics[];
}

const pct = (n: number, d: number): number | null => (d ? Math.round((1000 * n) / d) / 10 : null);
const round1 = (n: number): number => Math.round(n * 10) / 10;

function clock(docs: PasSubmissionDoc[]): ClockMetrics {
  let approved = 0, denied = 0, partial = 0, pending = 0;
  const hours: number[] = [];
  for (const d of docs) {
    if (d.status === 'pended' || !d.decidedAt) {
      pending++;
      continue;
    }
    hours.push((new Date(d.decidedAt).getTime() - new Date(d.receivedAt).getTime()) / 3600_000);
    // Each item's last decision (an item approved and later cancelled by the provider still counts as approved).
    const finals = d.items.map((i) => [...i.history].reverse().find((h) => h.action === 'A1' || h.action === 'A3')?.action).filter((a) => a !== undefined);
    if (finals.length && finals.every((a) => a === 'A1')) approved++;
    else if (finals.length && finals.every((a) => a === 'A3')) denied++;
    else partial++;
  }
  hours.sort((a, b) => a - b);
  const decided = hours.length;
  const mid = Math.floor(decided / 2);
  return {
    requests: docs.length,
    decided,
    approved,
    denied,
    partially_approved: partial,
    still_pending: pending,
    percent_approved: pct(approved, decided),
    percent_denied: pct(denied, decided),
    average_decision_hours: decided ? round1(hours.reduce((a, b) => a + b, 0) / decided) : null,
    median_decision_hours: decided ? round1(decided % 2 ? hours[mid]! : (hours[mid - 1]! + hours[mid]!) / 2) : null,
  };
}

/** Approved after an earlier "not certified" on the same item (an appeal decided by the operator). */
const approvedAfterAppeal = (d: PasSubmissionDoc): boolean =>
  d.items.some((i) => i.action === 'A1' && i.history.some((h, k) => h.action === 'A3' && i.history.slice(k + 1).some((l) => l.action === 'A1')));

export function computeMetrics(all: readonly PasSubmissionDoc[], year: number, now: Date): MetricsReport {
  const inYear = all.filter((d) => new Date(d.receivedAt).getUTCFullYear() === year);
  const drugOnly = inYear.filter((d) => d.items.length > 0 && d.items.every((i) => i.subjectKind === 'drug'));
  const cancelled = inYear.filter((d) => d.status === 'cancelled' && !d.items.some((i) => i.history.some((h) => h.action === 'A1' || h.action === 'A3')));
  const counted = inYear.filter((d) => !drugOnly.includes(d) && !cancelled.includes(d));
  const groups = new Map<string, PasSubmissionDoc[]>();
  for (const d of counted) {
    const key = `${d.program ?? 'unknown'}\u0000${d.plan.id ?? d.plan.name ?? 'unknown'}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const rows: PlanMetrics[] = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, docs]) => {
      const [program, plan] = key.split('\u0000') as [Program | 'unknown', string];
      const standardDocs = docs.filter((d) => !d.expedited);
      const std = clock(standardDocs);
      const appeal = standardDocs.filter(approvedAfterAppeal).length;
      const extension = standardDocs.filter((d) => d.extendedAt && d.items.some((i) => i.action === 'A1')).length;
      return {
        program,
        plan,
        states: [...new Set(docs.map((d) => d.state).filter((s): s is string => !!s))].sort(),
        standard: {
          ...std,
          approved_after_appeal: appeal,
          percent_approved_after_appeal: pct(appeal, std.decided),
          approved_after_extension: extension,
          percent_approved_after_extension: pct(extension, std.decided),
        },
        expedited: clock(docs.filter((d) => d.expedited)),
      };
    });
  return {
    year,
    generated_at: now.toISOString(),
    basis:
      'CMS-0057-F public reporting items computed from this service\'s stored PAS decisions: a request is approved when every item is certified (A1), denied when every item is not certified (A3); decision time runs from receipt to the last item decided.',
    excluded: { drug_only_requests: drugOnly.length, cancelled_before_decision: cancelled.length },
    rows,
  };
}
