// CMS-0057-F metrics over stored PAS decisions: what counts as approved, denied, partial; averages and medians;
// appeals and extensions; what is left out (drug-only requests, cancellations before a decision, other years).
import { expect } from 'chai';
import { computeMetrics } from '../../src/services/pas/metrics.js';
import type { PasItemDoc, PasSubmissionDoc } from '../../src/services/pas/store.js';

type Action = PasItemDoc['action'];

function item(seq: number, history: Action[], kind: 'drug' | 'service' = 'service'): PasItemDoc {
  return {
    sequence: seq,
    action: history[history.length - 1]!,
    notes: [],
    ruleId: null,
    subjectKind: kind,
    missing: [],
    history: history.map((action, i) => ({ action, at: `2026-03-0${i + 1}T00:00:00.000Z`, by: 'test' })),
  };
}

let n = 0;
function req(over: Partial<PasSubmissionDoc> & { items: PasItemDoc[]; hours?: number }): PasSubmissionDoc {
  const receivedAt = over.receivedAt ?? '2026-03-01T00:00:00.000Z';
  const status = over.status ?? (over.items.some((i) => i.action === 'A4') ? 'pended' : 'decided');
  return {
    id: `PA-${n++}`,
    owner: 'key:k',
    dedupeKeys: [],
    status,
    state: 'TX',
    program: 'medicaid_mco',
    plan: { id: 'plan-1', name: 'Plan One' },
    expedited: false,
    receivedAt,
    dueAt: receivedAt,
    extendedAt: null,
    decidedAt: status === 'pended' ? null : new Date(new Date(receivedAt).getTime() + (over.hours ?? 1) * 3600_000).toISOString(),
    claimIdentifiers: [],
    claimRefs: [],
    memberIds: [],
    providerIds: [],
    orgIdentifiers: [],
    itemCodes: [],
    request: { resourceType: 'Bundle', type: 'collection' },
    errors: [],
    notes: [],
    humanReviewed: false,
    version: 1,
    updatedAt: receivedAt,
    ...over,
  };
}

describe('CMS-0057-F metrics (pure)', () => {
  const now = new Date('2027-01-05T00:00:00Z');

  it('counts approved, denied, partial and pending per request, with average and median decision hours', () => {
    const docs = [
      req({ items: [item(1, ['A1'])], hours: 1 }),
      req({ items: [item(1, ['A4', 'A1'])], hours: 10 }),
      req({ items: [item(1, ['A3'])], hours: 4 }),
      req({ items: [item(1, ['A1']), item(2, ['A3'])], hours: 7 }),
      req({ items: [item(1, ['A4'])] }),
    ];
    const r = computeMetrics(docs, 2026, now);
    expect(r.rows).to.have.length(1);
    const s = r.rows[0]!.standard;
    expect(s).to.include({ requests: 5, decided: 4, approved: 2, denied: 1, partially_approved: 1, still_pending: 1, percent_approved: 50, percent_denied: 25 });
    expect(s.average_decision_hours).to.equal(5.5);
    expect(s.median_decision_hours).to.equal(5.5); // (4 + 7) / 2
    expect(r.rows[0]!.expedited.requests).to.equal(0);
    expect(r.rows[0]!.expedited.percent_approved).to.equal(null);
  });

  it('reports approvals after appeal and after an extension; expedited apart', () => {
    const docs = [
      req({ items: [item(1, ['A4', 'A3', 'A1'])], hours: 30 }),
      req({ items: [item(1, ['A4', 'A1'])], extendedAt: '2026-03-02T00:00:00.000Z', hours: 200 }),
      req({ items: [item(1, ['A1'])], expedited: true, hours: 3 }),
    ];
    const r = computeMetrics(docs, 2026, now).rows[0]!;
    expect(r.standard).to.include({ approved: 2, approved_after_appeal: 1, approved_after_extension: 1, percent_approved_after_appeal: 50 });
    expect(r.expedited).to.include({ requests: 1, approved: 1, median_decision_hours: 3 });
  });

  it('leaves out drug-only requests, cancellations before a decision and other years, and groups by program and plan', () => {
    const docs = [
      req({ items: [item(1, ['A1'], 'drug')] }),
      req({ items: [item(1, ['A4', 'cancelled'])], status: 'cancelled' }),
      req({ items: [item(1, ['A1', 'cancelled'])], status: 'cancelled' }),
      req({ items: [item(1, ['A1'])], receivedAt: '2025-12-31T23:00:00.000Z' }),
      req({ items: [item(1, ['A1'])], program: 'part_d', plan: { id: null, name: 'Other plan' } }),
    ];
    const r = computeMetrics(docs, 2026, now);
    expect(r.rows[0]!.standard).to.include({ approved: 1, partially_approved: 0 });
    expect(r.excluded).to.deep.equal({ drug_only_requests: 1, cancelled_before_decision: 1 });
    expect(r.rows.map((x) => [x.program, x.plan, x.standard.requests])).to.deep.equal([
      ['medicaid_mco', 'plan-1', 1], // the request approved, then cancelled by the provider: still an approval

      ['part_d', 'Other plan', 1],
    ]);
  });
});
