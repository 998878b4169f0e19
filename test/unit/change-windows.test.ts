// Which regulatory dates an action plan lists for a subject, and which of them support `wait`, over the generated
// sample events on 2026-11-26: an event supports waiting only when it applies to the program and the kind of subject
// and changes the PA requirement or decision (CMS-0057-F excludes drugs; an API go-live changes no answer).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { RegulatoryEventDoc } from '../../src/domain/documents.js';
import type { Program, SubjectKind } from '../../src/domain/vocabulary.js';
import { changeWindows, waitWindow } from '../../src/services/action-plan/build-plan.js';
import { DEFAULT_CONTEXT } from '../../src/services/action-plan/rank-actions.js';

const events: RegulatoryEventDoc[] = readFileSync(new URL('../../fixtures/events.ndjson', import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const TODAY = '2026-11-26';
const windows = (state: string, program: Program, kind: SubjectKind, code: string) =>
  changeWindows(events, { state, program, subject: { kind, code }, context: DEFAULT_CONTEXT }, TODAY);
const row = (w: ReturnType<typeof windows>[number]) => [w.rule_id, w.date, w.pa_effect, w.changes_answer];

describe('change windows and the wait they support (sample events, 2026-11-26)', () => {
  it('when the subject is a drug, then CMS-0057-F (items and services only) is not among its changes and nothing supports waiting', () => {
    const w = windows('IN', 'medicaid_ffs', 'drug', 'glp1_weight_loss');
    expect(w.map((x) => x.rule_id)).to.not.include('CMS-0057-F');
    expect(w.map(row)).to.deep.equal([['CMS-0062-P', '2027-10-01', 'announcement', false]]);
    expect(waitWindow(w)).to.equal(null);
  });

  it('when the subject is a service, then the CMS-0057-F API date is listed as a process change that does not support waiting', () => {
    const w = windows('TX', 'medicaid_mco', 'service', 'advanced_imaging');
    expect(w.map(row)).to.deep.equal([
      ['CMS-0057-F', '2027-01-01', 'process', false], // the federal API date
      ['CMS-0057-F', '2027-01-01', 'process', false], // Texas's own API compliance record
      ['CMS-0062-P', '2027-10-01', 'announcement', false],
    ]);
    expect(waitWindow(w)).to.equal(null);
  });

  it('when a change of the PA requirement for the subject is within 180 days, then it is the one to wait for; a comment deadline never is', () => {
    const base = windows('TX', 'medicaid_mco', 'service', 'advanced_imaging');
    const listChange: RegulatoryEventDoc = { resourceType: 'RegulatoryEvent', id: 9001, jurisdiction: 'TX', eventKind: 'list_update', title: 'TX adds MRI to the PA list', issuedAt: '2026-11-01', effectiveAt: '2027-03-01', commentDeadline: '2026-12-20', paRelevant: true, topics: [], subjects: [{ kind: 'service', code: 'advanced_imaging' }], paEffect: 'requirement' };
    const w = changeWindows([...events, listChange], { state: 'TX', program: 'medicaid_mco', subject: { kind: 'service', code: 'advanced_imaging' }, context: DEFAULT_CONTEXT }, TODAY);
    expect(w.length).to.equal(base.length + 2);
    expect(w.filter((x) => x.event_id === 9001).map((x) => [x.date_kind, x.changes_answer])).to.deep.equal([['comment_deadline', false], ['effective', true]]);
    expect(waitWindow(w)).to.include({ event_id: 9001, date: '2027-03-01', days_until: 95 });
  });

  it('every generated event states what it changes, and every CMS-0057-F event applies to services only', () => {
    for (const e of events) expect(e.paEffect, `${e.id} ${e.title}`).to.be.a('string');
    const cms = events.filter((e) => e.ruleId === 'CMS-0057-F');
    expect(cms.length).to.be.greaterThan(100);
    for (const e of cms) expect(e.subjectKinds, `${e.id}`).to.deep.equal(['service']);
    expect(cms.filter((e) => e.effectiveAt === '2027-01-01').every((e) => e.paEffect === 'process')).to.equal(true);
  });
});
