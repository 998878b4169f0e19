// The compliance grid (GET /api/v1/compliance/{rule_id}) reads each provision of a rule as of a date: a status
// stated before a compliance date does not outlive it, and a jurisdiction is not_yet_due only while nothing is in force.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { buildReadModel } from '../../src/corpus/read-model.js';
import type { RegulatoryEventDoc } from '../../src/domain/documents.js';
import { combineStatuses, complianceGrid, provisionStatus, type ComplianceRow, type ComplianceStatus } from '../../src/services/explore/compliance.js';

const sampleEvents = (): RegulatoryEventDoc[] =>
  readFileSync(new URL('../../fixtures/events.ndjson', import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const modelOf = (events: RegulatoryEventDoc[]) => buildReadModel({ rules: [], jurisdictions: [], payers: [], drugs: [], codeMappings: [], events, topics: [] }, 1);
type Grid = { as_of: string; summary: Record<string, number>; jurisdictions: Record<string, ComplianceRow> };

const ev = (e: Partial<RegulatoryEventDoc> & Pick<RegulatoryEventDoc, 'id' | 'jurisdiction' | 'eventKind' | 'effectiveAt'>): RegulatoryEventDoc => ({
  resourceType: 'RegulatoryEvent',
  title: `Event ${e.id}`,
  issuedAt: '2024-01-17',
  mmcComplianceAt: e.effectiveAt,
  paRelevant: true,
  ruleId: 'CMS-0000-F',
  topics: [],
  ...e,
});

describe('compliance grid: statuses as of a date', () => {
  it('when a provision is read as of a date, then its date decides between not_yet_due and what was stated', () => {
    const table: [ComplianceStatus | undefined, string, ComplianceStatus][] = [
      [undefined, '2027-01-01', 'not_yet_due'],
      ['not_yet_due', '2027-01-01', 'not_yet_due'],
      ['unknown', '2027-01-01', 'not_yet_due'],
      ['overdue', '2027-01-01', 'not_yet_due'],
      ['in_compliance', '2027-01-01', 'in_compliance'], // early
      ['partial', '2027-01-01', 'partial'],
      [undefined, '2026-01-01', 'unknown'],
      ['not_yet_due', '2026-01-01', 'unknown'], // stated before the date: it says nothing about today
      ['unknown', '2026-01-01', 'unknown'],
      ['in_compliance', '2026-01-01', 'in_compliance'],
      ['partial', '2026-01-01', 'partial'],
      ['overdue', '2026-01-01', 'overdue'],
      ['unknown', '2026-11-26', 'unknown'], // due today is in force
    ];
    for (const [stated, due, want] of table) expect(provisionStatus(stated, due, '2026-11-26'), `${stated} due ${due}`).to.equal(want);
  });

  it('when provisions are combined, then those in force decide and not_yet_due means none is in force', () => {
    const p = (status: ComplianceStatus, due: string) => ({ status, due });
    const today = '2026-11-26';
    const table: [ReturnType<typeof p>[], ComplianceStatus][] = [
      [[], 'not_yet_due'],
      [[p('not_yet_due', '2027-01-01')], 'not_yet_due'],
      [[p('in_compliance', '2027-01-01')], 'not_yet_due'],
      [[p('unknown', '2026-01-01'), p('not_yet_due', '2027-01-01')], 'unknown'],
      [[p('in_compliance', '2026-01-01'), p('not_yet_due', '2027-01-01')], 'in_compliance'],
      [[p('in_compliance', '2026-01-01'), p('in_compliance', '2026-03-31')], 'in_compliance'],
      [[p('in_compliance', '2026-01-01'), p('unknown', '2026-03-31')], 'partial'],
      [[p('partial', '2026-01-01'), p('unknown', '2026-03-31')], 'partial'],
      [[p('in_compliance', '2026-01-01'), p('overdue', '2026-03-31')], 'overdue'],
      [[p('overdue', '2026-01-01'), p('unknown', '2026-03-31')], 'overdue'],
    ];
    for (const [ps, want] of table) expect(combineStatuses(ps, today), JSON.stringify(ps)).to.equal(want);
  });

  it('when the sample CMS-0057-F events are read on 2026-11-26, then no state is not_yet_due: the 2026 timeframes and metrics are in force and their status is not known', () => {
    const grid = complianceGrid(modelOf(sampleEvents()), 'CMS-0057-F', '2026-11-26') as Grid;
    expect(grid.as_of).to.equal('2026-11-26');
    expect(grid.summary).to.deep.equal({ in_compliance: 0, partial: 0, overdue: 0, not_yet_due: 0, unknown: 51, total: 51 });
    const tx = grid.jurisdictions.TX!;
    expect(tx).to.deep.include({
      status: 'unknown',
      event_title: 'CMS-0057-F decision timeframes and denial reasons: Texas Medicaid and CHIP (status not verified)',
      effective_at: '2026-01-01',
      compliance_at: '2026-01-01',
      confidence: 0.5,
    });
    expect(tx.provisions.map((p) => [p.compliance_at, p.status, p.event_id !== null, p.federal_event_id !== null])).to.deep.equal([
      ['2026-01-01', 'unknown', true, true],
      ['2026-03-31', 'unknown', false, true], // first metrics posting: federal date, no Texas statement
      ['2027-01-01', 'not_yet_due', true, true],
    ]);
    expect(tx.provisions[1]!.title).to.equal('CMS-0057-F: first public posting of prior authorization metrics (previous year, aggregated)');
  });

  it('when the same events are read before any compliance date, then every state is not_yet_due, citing the next date due', () => {
    const grid = complianceGrid(modelOf(sampleEvents()), 'CMS-0057-F', '2025-12-31') as Grid;
    expect(grid.summary).to.deep.equal({ in_compliance: 0, partial: 0, overdue: 0, not_yet_due: 51, unknown: 0, total: 51 });
    expect(grid.jurisdictions.TX).to.deep.include({ status: 'not_yet_due', compliance_at: '2026-01-01' });
  });

  it('when states state their own statuses, then met, overdue, partial and not stated combine as documented', () => {
    const events = [
      ev({ id: 1, jurisdiction: 'US', eventKind: 'final_rule', effectiveAt: '2024-04-08', mmcComplianceAt: null }),
      ev({ id: 2, jurisdiction: 'US', eventKind: 'compliance_date', effectiveAt: '2026-01-01' }),
      ev({ id: 3, jurisdiction: 'US', eventKind: 'compliance_date', effectiveAt: '2027-01-01' }),
      ev({ id: 10, jurisdiction: 'TX', eventKind: 'compliance_status', effectiveAt: '2026-01-01', complianceStatus: 'not_yet_due', issuedAt: '2025-01-01' }),
      ev({ id: 11, jurisdiction: 'TX', eventKind: 'compliance_status', effectiveAt: '2026-01-01', complianceStatus: 'in_compliance', issuedAt: '2026-02-01' }),
      ev({ id: 12, jurisdiction: 'TX', eventKind: 'compliance_status', effectiveAt: '2027-01-01', complianceStatus: 'not_yet_due' }),
      ev({ id: 20, jurisdiction: 'CA', eventKind: 'compliance_status', effectiveAt: '2026-01-01', complianceStatus: 'overdue' }),
      ev({ id: 30, jurisdiction: 'NY', eventKind: 'compliance_status', effectiveAt: '2026-01-01', complianceStatus: 'not_yet_due' }),
      // A state's own provision date with no federal counterpart is a provision of its own.
      ev({ id: 40, jurisdiction: 'OH', eventKind: 'compliance_status', effectiveAt: '2026-01-01', complianceStatus: 'in_compliance' }),
      ev({ id: 41, jurisdiction: 'OH', eventKind: 'compliance_status', effectiveAt: '2026-06-30', complianceStatus: 'unknown' }),
    ];
    const grid = complianceGrid(modelOf(events), 'CMS-0000-F', '2026-11-26') as Grid;
    const row = (j: string) => grid.jurisdictions[j]!;
    expect(row('TX')).to.deep.include({ status: 'in_compliance', event_id: 11 }); // the newer statement wins; 2027 is not due
    expect(row('CA')).to.deep.include({ status: 'overdue', event_id: 20 });
    expect(row('NY')).to.deep.include({ status: 'unknown', event_id: 30 }); // "not yet due" said before 2026-01-01
    expect(row('OH')).to.deep.include({ status: 'partial', event_id: 40 });
    expect(row('OH').provisions.map((p) => [p.compliance_at, p.status, p.event_id, p.federal_event_id])).to.deep.equal([
      ['2026-01-01', 'in_compliance', 40, 2],
      ['2026-06-30', 'unknown', 41, null],
      ['2027-01-01', 'not_yet_due', null, 3],
    ]);
    expect(row('WY')).to.deep.include({ status: 'unknown', event_id: null, source_url: null }); // a federal date has passed, nothing stated
    expect(grid.summary).to.deep.equal({ in_compliance: 1, partial: 1, overdue: 1, not_yet_due: 0, unknown: 48, total: 51 });
    // Before 2026-01-01 nothing is in force anywhere.
    expect((complianceGrid(modelOf(events), 'CMS-0000-F', '2025-06-01') as Grid).summary.not_yet_due).to.equal(51);
  });

  it('when a rule has no recorded provision, then a proposed rule is not_yet_due everywhere and a final one unknown everywhere, and the grid says why', () => {
    const proposed = [ev({ id: 1, jurisdiction: 'US', eventKind: 'proposed_rule', issuedAt: '2026-04-14', effectiveAt: '2027-10-01', mmcComplianceAt: null, ruleId: 'CMS-0062-P' })];
    const p = complianceGrid(modelOf(proposed), 'CMS-0062-P', '2026-11-26') as Grid & { basis: string };
    expect(p.summary).to.deep.equal({ in_compliance: 0, partial: 0, overdue: 0, not_yet_due: 51, unknown: 0, total: 51 });
    expect(p.jurisdictions.TX).to.deep.include({ status: 'not_yet_due', provisions: [] });
    expect(p.basis).to.equal('A proposed rule (published 2026-04-14): it binds no one, so nothing is due until a final rule sets compliance dates. Its provisions are proposed to apply from 2027-10-01.');
    const final = [ev({ id: 2, jurisdiction: 'US', eventKind: 'final_rule', issuedAt: '2019-05-23', effectiveAt: '2020-01-01', mmcComplianceAt: null, ruleId: 'CMS-4180-F' })];
    const f = complianceGrid(modelOf(final), 'CMS-4180-F', '2026-11-26') as Grid & { basis: string };
    expect(f.summary).to.include({ not_yet_due: 0, unknown: 51 });
    expect(f.basis).to.match(/^The corpus records no compliance or reporting date for this rule/);
    // A rule with provisions carries no basis: its statuses speak for themselves.
    const dated = [...final, ev({ id: 3, jurisdiction: 'US', eventKind: 'compliance_date', effectiveAt: '2027-01-01', ruleId: 'CMS-4180-F' })];
    expect(complianceGrid(modelOf(dated), 'CMS-4180-F', '2026-11-26')).to.not.have.property('basis');
  });
});
