import { expect } from 'chai';
import request from 'supertest';
import type { CoverageRuleDoc, RegulatoryEventDoc } from '../../src/domain/documents.js';
import { jurisdiction, payer, rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');

const event = (e: Partial<RegulatoryEventDoc> & Pick<RegulatoryEventDoc, 'id' | 'jurisdiction' | 'effectiveAt'>): RegulatoryEventDoc => ({
  resourceType: 'RegulatoryEvent',
  eventKind: 'rule_change',
  title: `Event ${e.id}`,
  issuedAt: '2026-01-01',
  paRelevant: true,
  topics: [],
  sourceUrl: `https://events.example.gov/${e.id}`,
  ...e,
});

const protectedClassRule: CoverageRuleDoc = (() => {
  const r = rule({ state: 'TX', program: 'part_d', code: 'mental_health_antipsychotics', paType: 'conditional', federalOverride: true });
  return { ...r, requirement: { ...r.requirement, newStartsOnly: true }, turnaround: { standardHours: 72, expeditedHours: 24, basis: 'Part D coverage determination (42 CFR 423.568/423.572)' } };
})();

type Action = { rank: number; kind: string; title: string; score: number; deadline: string | null; deadline_basis: string; decision_expected_by?: string; confidence: number; caveat?: string; signals: { name: string; weight: number }[]; citations: { title: string; url: string | null }[]; rationale: string };

describe('GET /v1/action-plan', () => {
  let t: TestApp;
  let key: string;
  const get = (qs: string, k: string | null = key) => {
    const r = request(t.app.handler).get(`/v1/action-plan${qs}`);
    return k ? r.set('x-api-key', k) : r;
  };
  const kinds = (body: { action_plan: { ranked_actions: Action[] } }) => body.action_plan.ranked_actions.map((a) => a.kind);
  const action = (body: { action_plan: { ranked_actions: Action[] } }, kind: string) => body.action_plan.ranked_actions.find((a) => a.kind === kind);

  before(async () => {
    t = await makeTestApp(
      [
        jurisdiction('TX', {
          contacts: [
            { role: 'member_services', name: 'TX Medicaid member services', url: 'https://medicaid.tx.example.gov/help' },
            { role: 'fair_hearing', name: 'TX HHSC fair hearings', phone: '512-555-0100' },
            { role: 'pa_submission', name: 'WISeR model (Original Medicare): participant or MAC', url: 'https://wiser.example.gov' },
          ],
          appealNotes: 'Medicaid managed care: appeal to the MCO first, then a State fair hearing.',
        }),
        jurisdiction('FL'),
        payer('fl-sunshine', 'Sunshine Health', ['FL']),
        payer('fl-simply', 'Simply Healthcare', ['FL']),
        { ...payer('tx-superior', 'Superior HealthPlan', ['TX']), contacts: [{ role: 'appeals', name: 'Superior appeals', fax: '800-555-0199' }] },
        rule({ state: 'TX', program: 'medicaid_mco', code: 'glp1_weight_loss', paType: 'full' }),
        rule({ state: 'TX', program: 'medicare_advantage', kind: 'service', code: 'advanced_imaging', paType: 'conditional', confidence: 0.8 }),
        rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c', paRequired: false }),
        protectedClassRule,
        // Voluntary PA (RSNAT-like): not required, but a request may be sent; without it, prepayment review.
        (() => {
          const r = rule({ state: 'TX', program: 'medicare_traditional', kind: 'service', code: 'ambulance_transport', paRequired: false, paType: 'conditional' });
          return { ...r, requirement: { ...r.requirement, paMode: 'voluntary' as const }, submission: { channel: 'portal' as const, target: 'The MAC for the state' } };
        })(),
        // A dual eligible's drugs are handed over to Part D (corpus/facts "follows"): the rule says which program decides.
        (() => {
          const r = rule({ state: 'TX', program: 'dual_eligible', code: 'hepatitis_c', paType: 'conditional' });
          return { ...r, decidedBy: 'part_d' as const, requirement: { ...r.requirement, paMode: 'plan_may_require' as const }, submission: { channel: 'payer_process' as const, target: 'The enrollee\'s Part D plan, by its own process.' } };
        })(),
        // An MA plan's own drug rule (MA-PD enrollees; Part D sponsor texts): a drug denial is a Part D coverage determination.
        (() => {
          const r = rule({ state: 'TX', program: 'medicare_advantage', code: 'hepatitis_c', paType: 'conditional' });
          return { ...r, requirement: { ...r.requirement, paMode: 'plan_may_require' as const, population: 'enrollees of a Medicare Advantage plan with prescription drug coverage (an MA-PD plan)' } };
        })(),
        // CHIP children in the Medicaid plans (a hand-over to medicaid_mco): the plan decides, CHIP's appeal rights apply.
        (() => {
          const r = rule({ state: 'TX', program: 'chip', kind: 'service', code: 'physical_therapy', paType: 'conditional' });
          return { ...r, decidedBy: 'medicaid_mco' as const, requirement: { ...r.requirement, paMode: 'plan_may_require' as const } };
        })(),
        // Pharmacy carved out of managed care (corpus/facts decided_by): the program decides for plan members.
        { ...rule({ state: 'TX', program: 'medicaid_mco', code: 'adhd_stimulants', paType: 'conditional' }), decidedBy: 'medicaid_ffs' as const },
        rule({ state: 'FL', program: 'medicaid_mco', code: 'hepatitis_c', payer: { id: 'fl-sunshine', name: 'Sunshine Health' } }),
        rule({ state: 'FL', program: 'medicaid_mco', code: 'hepatitis_c', payer: { id: 'fl-simply', name: 'Simply Healthcare' }, lastVerified: '2026-11-10' }),
        // An API go-live of a rule for items and services: listed for services, never a reason to wait.
        event({ id: 1, jurisdiction: 'US', effectiveAt: '2027-01-01', title: 'CMS-0057-F APIs', ruleId: 'CMS-0057-F', programs: ['medicaid_mco', 'medicare_advantage'], subjectKinds: ['service'], paEffect: 'process' }),
        event({ id: 2, jurisdiction: 'TX', effectiveAt: '2026-12-15', title: 'TX GLP-1 criteria update', programs: ['medicaid_mco'], subjects: [{ kind: 'drug', code: 'glp1_weight_loss' }], paEffect: 'decision' }),
        event({ id: 3, jurisdiction: 'TX', effectiveAt: '2026-01-01', title: 'Past change' }),
        event({ id: 4, jurisdiction: 'TX', effectiveAt: '2029-01-01', title: 'Beyond 18 months' }),
        event({ id: 5, jurisdiction: 'US', effectiveAt: '2027-10-01', commentDeadline: '2027-02-01', title: 'Part D drug PA', programs: ['part_d'] }),
        event({ id: 6, jurisdiction: 'TX', effectiveAt: '2027-02-01', title: 'Hep C change', subjects: [{ kind: 'drug', code: 'hepatitis_c' }] }),
        event({ id: 7, jurisdiction: 'CA', effectiveAt: '2027-02-01', title: 'Other state' }),
        event({ id: 8, jurisdiction: 'TX', effectiveAt: '2027-03-01', title: 'Not PA relevant', paRelevant: false }),
      ],
      { now: () => NOW },
    );
    key = await t.key({ name: 'plans' });
  });

  it('when PA is voluntary, then a voluntary request ranks first and proceeding without it second, each saying so', async () => {
    const res = await get('?state=TX&program=medicare_traditional&service=ambulance_transport');
    expect(res.status).to.equal(200);
    const acts = res.body.action_plan.ranked_actions as Action[];
    expect(acts.slice(0, 2).map((a) => [a.kind, a.score, a.title])).to.deep.equal([
      ['submit', 55, 'Submit a voluntary prior authorization request (optional)'],
      ['proceed', 45, 'Proceed without the voluntary prior authorization'],
    ]);
    expect(acts[0]!.rationale).to.include('offers voluntary prior authorization');
    expect(acts[1]!.rationale).to.include('does not require it');
  });

  /** A denied plan whose appeal is the Part D ladder (redetermination first). */
  async function partDLadder(query: string): Promise<Awaited<ReturnType<typeof get>>> {
    const res = await get(query);
    expect(res.status).to.equal(200);
    const ladder = res.body.action_plan.state_specifics.appeal_ladder;
    expect(ladder.program).to.equal('part_d');
    expect(JSON.stringify(ladder.steps[0])).to.match(/redetermination/i);
    return res;
  }

  it('when an MA plan\'s drug is denied, then the Part D appeal ladder applies (MA-PD drug coverage is Part D), and the plan says whom its rule covers (seventh test pass, #2, #3)', async () => {
    const res = await partDLadder('?state=TX&program=medicare_advantage&drug=hepatitis_c&denied=true&denial_days_ago=5');
    expect(JSON.stringify(res.body.action_plan)).not.to.match(/organization.determination notice|Reconsideration by the Medicare Advantage/i);
    // A denied plan still says the rule speaks for MA-PD enrollees only.
    expect(JSON.stringify(res.body.action_plan)).to.contain('enrollees of a Medicare Advantage plan with prescription drug coverage (an MA-PD plan)');
    // A Part B service stays with the MA ladder.
    const svc = await get('?state=TX&program=medicare_advantage&service=advanced_imaging&denied=true&denial_days_ago=5');
    expect(svc.body.action_plan.state_specifics.appeal_ladder.program).to.equal('medicare_advantage');
  });

  it('when a rule handed over to Part D is denied, then the Part D appeal ladder applies, not the dual-eligible one', async () => {
    const res = await partDLadder('?state=TX&program=dual_eligible&drug=hepatitis_c&denied=true&denial_basis=not_on_formulary&denial_days_ago=5');
    expect(JSON.stringify(res.body.action_plan.ranked_actions)).not.to.match(/438\.402|Medicare Advantage/);
    // The Part D plan decides: the state Medicaid agency does not oversee it, so escalation does not send the member there.
    const again = await get('?state=TX&program=dual_eligible&drug=hepatitis_c&denied=true&denial_days_ago=5&recurring=true');
    expect(action(again.body, 'escalate')!.rationale).to.contain("the plan's medical director").and.not.match(/oversees the plans|Health and Human Services/);
    expect(res.body.program).to.equal('dual_eligible');
    // Before a denial: the rationale says the plan may require PA (not that the program requires it), one period.
    const before = await get('?state=TX&program=dual_eligible&drug=hepatitis_c');
    const submit = (before.body.action_plan.ranked_actions as Action[]).find((a) => a.kind === 'submit')!;
    expect(submit.rationale).to.include('lets the plan require prior authorization (conditional)');
    expect(submit.rationale).to.include("Submit to The enrollee's Part D plan, by its own process.");
    expect(submit.rationale).not.to.match(/\.\./);
  });

  it('when a Texas Medicaid MCO GLP-1 denial is 12 days old, then appeal ranks first with its [M] deadline and continued benefits is out', async () => {
    const res = await get('?state=TX&program=medicaid_mco&drug=glp1_weight_loss&denied=true&denial_basis=not_medically_necessary&denial_days_ago=12&has_alternative=true');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    const b = res.body;
    expect(b).to.include({ state: 'TX', program: 'medicaid_mco', grounding: 'keyword', timestamp: NOW.toISOString() });
    expect(b.query).to.deep.equal({ drug_class: 'glp1_weight_loss' });
    expect(b.rule).to.include({ pa_required: true, pa_type: 'full', rule_id: 'tx.medicaid-mco.d.glp1-weight-loss' });
    expect(kinds(b)).to.deep.equal(['appeal', 'switch_alternative', 'escalate', 'wait']);
    const appeal = b.action_plan.primary as Action;
    expect(appeal).to.deep.equal(b.action_plan.ranked_actions[0]);
    expect(appeal).to.include({ rank: 1, kind: 'appeal', score: 75, deadline: '2027-01-08', decision_expected_by: '2026-12-21', confidence: 0.5 });
    expect(appeal.title).to.equal('Appeal: Appeal to the Medicaid managed care plan (MCO)');
    expect(appeal.deadline_basis).to.equal(
      '60 calendar days from the date of the adverse benefit determination notice: notice dated 2026-11-09 (12 days ago). Standard decision: 30 calendar days.',
    );
    expect(appeal.caveat).to.match(/Unconfirmed deadline: this fact is marked \[M\]/);
    expect(appeal.signals).to.deep.equal([
      { name: 'window_open', value: 48, weight: 60 },
      { name: 'basis_not_medically_necessary', value: 'not_medically_necessary', weight: 15 },
    ]);
    expect(appeal.rationale).to.contain('48 days left').and.contain('letter of medical necessity');
    expect(appeal.citations.map((c) => c.title)).to.deep.equal(['42 CFR 438.402', '42 CFR 438.408', 'glp1_weight_loss policy']);
    expect(b.action_plan.not_applicable).to.deep.include({
      kind: 'request_continued_benefits',
      reason: 'The continued-benefits window (10 days) closed 2 days ago.',
    });
    // Decide-before dates tie the open-ended actions to the appeal window.
    expect(action(b, 'switch_alternative')!.deadline).to.equal('2027-01-08');
    expect(action(b, 'wait')!.deadline).to.equal('2026-12-15');

    const ladder = b.action_plan.state_specifics.appeal_ladder;
    expect(ladder.steps[0]).to.include({ level: 1, filing_window_days: 60, filing_deadline: '2027-01-08', status: 'unconfirmed', confidence: 0.5 });
    expect(ladder.steps[1]).to.include({ level: 2, name: 'State fair hearing', filing_window_days: 120, filing_deadline: null });
    expect(ladder.steps[1].decision.expedited).to.deep.equal({ text: '3 working days for expedited-eligible cases', status: 'confirmed' });
    expect(ladder.continued_benefits).to.include({ window_days: 10, deadline: '2026-11-19', status: 'unconfirmed' });
    expect(b.action_plan.state_specifics.appeal_notes).to.equal('Medicaid managed care: appeal to the MCO first, then a State fair hearing.');
    // The CMS-0057-F API date is not a drug's change (the rule covers items and services only).
    expect(b.action_plan.state_specifics.change_windows.map((w: { event_id: number; date: string; days_until: number; pa_effect: string; changes_answer: boolean }) => [w.event_id, w.date, w.days_until, w.pa_effect, w.changes_answer])).to.deep.equal([
      [2, '2026-12-15', 24, 'decision', true],
    ]);
    expect(action(b, 'wait')!.signals.map((s) => s.name)).to.deep.equal(['routine', 'upcoming_change', 'deadline_running']);
    expect(action(b, 'wait')!.citations).to.deep.equal([{ title: 'TX GLP-1 criteria update', url: 'https://events.example.gov/2' }]);
    // After a denial the appeal contacts come first; Original Medicare contacts are left out of a Medicaid plan.
    expect(b.action_plan.contacts.map((c: { role: string; source: string }) => `${c.source}:${c.role}`)).to.deep.equal([
      'jurisdiction:fair_hearing',
      'payer:appeals',
      'rule:pa_submission',
      'jurisdiction:member_services',
    ]);
    expect(b.action_plan.basis).to.deep.include({ kind: 'verified_rule', notice_date: '2026-11-09', as_of: '2026-11-21' });
    expect(b.action_plan.basis.member_context).to.include({ denied: true, denial_basis: 'not_medically_necessary', denial_days_ago: 12, has_alternative: true });
    expect(b.provenance).to.deep.include({
      verified: true,
      basis: 'verified_rule',
      confidence: 0.7,
      last_verified: '2026-11-01',
      source_url: 'https://medicaid.tx.example.gov/pa/glp1_weight_loss',
    });
    expect(b.provenance.caveats.join(' ')).to.match(/unconfirmed \(\[M\]\)/);
    expect(b.supporting_criteria).to.deep.include({ kind: 'criteria', text: 'Criteria for glp1_weight_loss in TX', source_url: 'https://medicaid.tx.example.gov/pa/glp1_weight_loss' });
    expect(b.supporting_criteria.filter((c: { kind: string }) => c.kind === 'documentation')).to.have.length(2);
    expect(res.headers['cache-control']).to.equal('private, no-store');
  });

  it('when the same denial is 3 days old, then asking for continued benefits ranks second with its own date', async () => {
    const res = await get('?state=TX&program=medicaid_mco&drug=glp1_weight_loss&denied=true&denial_basis=not_medically_necessary&denial_days_ago=3');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(kinds(res.body).slice(0, 2)).to.deep.equal(['appeal', 'request_continued_benefits']);
    expect(action(res.body, 'request_continued_benefits')).to.include({ deadline: '2026-11-28', score: 55, confidence: 0.5 });
    expect(action(res.body, 'request_continued_benefits')!.citations).to.deep.equal([{ title: '42 CFR 438.420', url: 'https://www.ecfr.gov/current/title-42/section-438.420' }]);
  });

  it('when an urgent Medicare Advantage imaging denial is given by CPT code, then an expedited appeal with a confirmed deadline leads', async () => {
    const res = await get('?state=TX&program=medicare_advantage&code=70553&denied=true&denial_basis=not_medically_necessary&denial_days_ago=1&urgency=urgent');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    const b = res.body;
    expect(b.query).to.deep.equal({ service_category: 'advanced_imaging', code: '70553' });
    expect(b.code_resolution).to.include({ service_category: 'advanced_imaging', matched_by: 'builtin_range' });
    expect(kinds(b)).to.deep.equal(['appeal', 'escalate']);
    expect(b.action_plan.primary).to.include({
      title: 'Appeal: Reconsideration by the Medicare Advantage plan (expedited)',
      score: 85,
      deadline: '2027-01-19',
      decision_expected_by: '2026-11-24',
      confidence: 0.9,
    });
    expect(b.action_plan.primary.caveat).to.equal(undefined);
    expect(b.action_plan.primary.deadline_basis).to.contain('Expedited decision: 72 hours');
    expect(b.action_plan.primary.citations[0]).to.deep.equal({
      title: 'CMS: Reconsideration by the Medicare Advantage (Part C) Health Plan',
      url: 'https://www.cms.gov/Medicare/Appeals-and-Grievances/MMCAG/PartCRecon.html',
    });
    expect(b.action_plan.not_applicable.map((n: { kind: string }) => n.kind)).to.include.members(['wait', 'request_continued_benefits', 'proceed']);
    expect(b.action_plan.state_specifics.appeal_ladder.continued_benefits).to.equal(null);
    expect(b.action_plan.state_specifics.appeal_ladder.steps[1]).to.include({ automatic: true });
    // Medicaid agency and Original Medicare (WISeR) contacts are not offered for a Medicare Advantage plan.
    const names = b.action_plan.contacts.map((c: { name: string }) => c.name);
    expect(names).to.include('TX PA portal');
    expect(names).to.not.include.members(['TX Medicaid member services']);
    expect(names.some((n: string) => /WISeR/.test(n))).to.equal(false);
  });

  it('when a Part D protected-class drug is a new start, then submit leads and proceeding applies only to continuing therapy', async () => {
    const res = await get('?state=TX&program=part_d&drug=mental_health_antipsychotics');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    const b = res.body;
    expect(b.rule).to.include({ new_starts_only: true, federal_override: true, pa_type: 'conditional' });
    expect(kinds(b)).to.deep.equal(['submit', 'proceed', 'wait']);
    expect(b.action_plan.primary).to.include({ title: 'Submit the prior authorization request', score: 70, deadline: null, decision_expected_by: '2026-11-24' });
    expect(b.action_plan.primary.rationale).to.contain('applies to new starts only');
    expect(action(b, 'proceed')).to.include({ title: 'Proceed without PA if the member is continuing therapy', score: 35 });
    expect(b.supporting_criteria.map((c: { kind: string }) => c.kind)).to.include('federal_protection');
    expect(b.action_plan.state_specifics.change_windows.map((w: { event_id: number; date_kind: string }) => [w.event_id, w.date_kind])).to.deep.equal([
      [5, 'comment_deadline'],
      [5, 'effective'],
    ]);
  });

  it('when PA is not required, then proceed leads and the plan is still grounded and cited', async () => {
    const res = await get('?state=TX&program=medicaid_mco&drug=hepatitis_c');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.action_plan.primary).to.include({ kind: 'proceed', title: 'Proceed: no prior authorization needed', score: 80, deadline: null });
    expect(res.body.action_plan.state_specifics.change_windows.map((w: { event_id: number }) => w.event_id)).to.deep.equal([6]);
  });

  it('when the only change ahead is an API go-live, then it is listed for a service but does not support waiting, and a drug does not see it at all', async () => {
    // A denied Medicaid MCO service: the CMS-0057-F API date (41 days away) applies to services, but changes no PA
    // answer, so wait keeps only its routine signal and no longer ties with escalate.
    const denied = await get('?state=TX&program=medicare_advantage&service=advanced_imaging&denied=true&denial_days_ago=5');
    expect(denied.status).to.equal(200);
    expectOpenApi(t.app.routes, denied);
    expect(denied.body.action_plan.state_specifics.change_windows).to.deep.equal([
      { event_id: 1, title: 'CMS-0057-F APIs', event_kind: 'rule_change', jurisdiction: 'US', date: '2027-01-01', date_kind: 'effective', days_until: 41, rule_id: 'CMS-0057-F', source_url: 'https://events.example.gov/1', pa_effect: 'process', changes_answer: false },
    ]);
    const wait = action(denied.body, 'wait')!;
    expect(wait).to.include({ score: 0, deadline: '2027-01-15', title: 'Wait and reassess' });
    expect(wait.signals.map((s) => [s.name, s.weight])).to.deep.equal([['routine', 5], ['deadline_running', -5]]);
    expect(wait.rationale).to.equal('Nothing forces a move today. The appeal clock keeps running meanwhile.');
    expect(wait.citations).to.deep.equal([]);
    expect(action(denied.body, 'escalate')!.score).to.be.greaterThan(wait.score);
    // A drug in the same program: the rule excludes drugs, so no window and no upcoming_change.
    const drug = await get('?state=TX&program=medicaid_mco&drug=hepatitis_c');
    expect(drug.body.action_plan.state_specifics.change_windows.map((w: { event_id: number }) => w.event_id)).to.deep.equal([6]);
    expect(action(drug.body, 'wait')!.signals.map((s) => s.name)).to.deep.equal(['routine']);
  });

  it('when there is no program rule but payer rules exist, then the plan is an estimate that says so', async () => {
    const res = await get('?state=FL&program=medicaid_mco&drug=hepatitis_c&urgency=urgent&drug_cost_usd=50&alternative_no_pa=true');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    const b = res.body;
    expect(b.rule).to.equal(null);
    expect(b.provenance).to.deep.include({ verified: false, basis: 'payer_rules_estimate', confidence: 0.4, last_verified: '2026-11-10' });
    expect(b.provenance.label).to.match(/^Estimate: no verified program-level rule/);
    expect(b.action_plan.basis.member_context).to.include({ has_alternative: true, alternative_no_pa: true, drug_cost_usd: 50 });
    expect(kinds(b)).to.deep.equal(['submit', 'switch_alternative', 'pay_out_of_pocket']);
    expect(action(b, 'pay_out_of_pocket')!.title).to.equal('Pay out of pocket (about $50)');
    expect(b.supporting_criteria.filter((c: { kind: string }) => c.kind === 'payer_rule')).to.have.length(2);
    expect(b.action_plan.state_specifics.jurisdiction).to.include({ id: 'FL', name: 'State FL' });
  });

  it('when nothing grounds the subject but a denial is reported, then the plan rests on the ladder alone; without a denial it is a 404 scope_gap', async () => {
    // FL: no served rule puts its CHIP children in the plans, so the CHIP ladder alone (TX's would start with the plan: see below).
    const denied = await get('?state=FL&program=chip&service=dental&denied=true');
    expect(denied.status).to.equal(200);
    expectOpenApi(t.app.routes, denied);
    expect(denied.body.provenance).to.deep.include({ verified: false, basis: 'appeal_ladder_only', confidence: 0.2, source_url: null, last_verified: null });
    expect(denied.body.action_plan.primary).to.include({ kind: 'appeal', deadline: null, title: 'Appeal: State CHIP review' });
    expect(denied.body.action_plan.primary.deadline_basis).to.match(/not fixed federally/);

    const gap = await get('?state=FL&program=chip&service=dental');
    expect(gap.status).to.equal(404);
    expectOpenApi(t.app.routes, gap);
    expect(gap.body).to.include({ code: 'scope_gap', scope_gap: true, state: 'FL', program: 'chip', notify_url: '/v1/notify-when-ready' });
    expect(gap.body.query).to.deep.equal({ service_category: 'dental' });
    expect(gap.body.error).to.contain('send denied=true');
  });

  it('when a CHIP rule is Medicaid managed care\'s (a hand-over), then a denial gets the CHIP ladder: no fair hearing and no continued benefits (42 CFR 457.1260)', async () => {
    const res = await get('?state=TX&program=chip&service=physical_therapy&denied=true&denial_basis=not_medically_necessary&denial_days_ago=3');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    // 42 CFR 457.1260: the plan's appeal first (part 438 subpart F), then the state's CHIP review; no 438.420.
    expect(res.body.action_plan.primary).to.include({ kind: 'appeal', title: 'Appeal: Appeal to the managed care plan (CHIP)', deadline: '2027-01-17' }); // 60 days from the notice (438.402)
    expect(res.body.action_plan.state_specifics.appeal_ladder.steps.map((s: { name: string }) => s.name)).to.deep.equal(['Appeal to the managed care plan (CHIP)', 'State CHIP review']);
    expect(res.body.action_plan.ranked_actions.map((a: Action) => a.kind)).to.not.include('request_continued_benefits');
    expect(res.body.action_plan.state_specifics.appeal_ladder.continued_benefits ?? null).to.equal(null);
    expect(JSON.stringify(res.body)).to.not.contain('section-438.420');
    expect(JSON.stringify(res.body.action_plan.ranked_actions)).to.not.match(/fair hearing/i);
  });

  it('when a managed-care rule\'s benefit is carved out to fee-for-service (decidedBy), then a denial gets the fee-for-service ladder and every sentence names the program, not the plan', async () => {
    const res = await get('?state=TX&program=medicaid_mco&drug=adhd_stimulants&denied=true&denial_basis=other&denial_days_ago=3&recurring=true');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(res.body.action_plan.primary).to.include({ kind: 'appeal', title: 'Appeal: State fair hearing' });
    expect(action(res.body, 'escalate')!.rationale).to.contain("the program's reviewing clinician");
    expect(action(res.body, 'escalate')!.rationale).to.contain('runs the fee-for-service program');
    const text = JSON.stringify(res.body.action_plan.ranked_actions);
    expect(text).to.not.contain('Medicaid managed care plan (MCO)');
    expect(text).to.not.match(/plan's medical director|if the plan upholds/);
  });

  it('when PA is conditional (some agents only), then submitting leads "where the criteria require one" and proceeding is ranked for the rest, as the next steps say', async () => {
    const res = await get('?state=TX&program=medicaid_mco&drug=adhd_stimulants');
    expect(res.status).to.equal(200);
    expect(kinds(res.body).slice(0, 2)).to.deep.equal(['submit', 'proceed']);
    expect(action(res.body, 'submit')!.title).to.equal('Submit the prior authorization request (where the criteria require one)');
    const proceed = action(res.body, 'proceed')!;
    expect(proceed).to.include({ title: 'Proceed without PA where the criteria do not apply', score: 40 });
    expect(proceed.rationale).to.contain('only for the agents or situations its criteria name');
    expect(res.body.action_plan.not_applicable.map((x: { kind: string }) => x.kind)).to.not.include('proceed');
  });

  it('when a drug class has no rule in a state whose managed-care drug rules are all decided fee-for-service (a carve-out), then a denial still gets the fee-for-service ladder', async () => {
    // TX medicaid_mco drugs in this corpus: glp1 and hepatitis_c (decided by the plan) and adhd_stimulants (carved out): mixed, so a gap keeps the plan's ladder.
    const mixed = await get('?state=TX&program=medicaid_mco&drug=opioid_treatment&denied=true&denial_days_ago=3');
    expect(mixed.body.action_plan.state_specifics.appeal_ladder.program).to.equal('medicaid_mco');
    const t2 = await makeTestApp([
      jurisdiction('MO'),
      { ...rule({ state: 'MO', program: 'medicaid_mco', code: 'adhd_stimulants', paType: 'conditional' }), decidedBy: 'medicaid_ffs' as const },
      { ...rule({ state: 'MO', program: 'medicaid_mco', code: 'glp1_weight_loss', paType: 'conditional' }), decidedBy: 'medicaid_ffs' as const },
      rule({ state: 'MO', program: 'medicaid_mco', kind: 'service', code: 'home_health', paType: 'conditional' }),
    ], { now: () => NOW });
    const k = await t2.key({ name: 'mo' });
    const gap = await request(t2.app.handler).get('/v1/action-plan?state=MO&program=medicaid_mco&drug=hepatitis_c&denied=true&denial_days_ago=3').set('x-api-key', k);
    expect(gap.status).to.equal(200);
    expect(gap.body.action_plan.state_specifics.appeal_ladder.program).to.equal('medicaid_ffs');
    expect(gap.body.action_plan.primary).to.include({ kind: 'appeal', title: 'Appeal: State fair hearing' });
    const service = await request(t2.app.handler).get('/v1/action-plan?state=MO&program=medicaid_mco&service=dental&denied=true&denial_days_ago=3').set('x-api-key', k);
    expect(service.body.action_plan.state_specifics.appeal_ladder.program, 'services are the plan\'s').to.equal('medicaid_mco');
  });

  it('when a CHIP subject has no rule in a state whose CHIP children are in the plans (a hand-over on another subject), then a denial gets the plan appeal first too', async () => {
    const res = await get('?state=TX&program=chip&drug=hepatitis_c&denied=true&denial_days_ago=3');
    expect(res.status).to.equal(200);
    expect(res.body.action_plan.state_specifics.appeal_ladder.steps.map((s: { name: string }) => s.name)).to.deep.equal(['Appeal to the managed care plan (CHIP)', 'State CHIP review']);
  });

  it('when the subject is outside the program (an MRI under Part D), then 404 with outside_program, even after a denial (no Part D appeal ladder for a service)', async () => {
    for (const qs of ['?state=TX&program=part_d&service=advanced_imaging', '?state=TX&program=part_d&service=advanced_imaging&denied=true']) {
      const res = await get(qs);
      expect(res.status, qs).to.equal(404);
      expectOpenApi(t.app.routes, res);
      expect(res.body).to.include({ code: 'scope_gap', scope_gap: true, program: 'part_d' });
      expect(res.body.notify_url).to.equal(undefined);
      expect(res.body.outside_program.try_programs).to.deep.equal(['medicare_traditional', 'medicare_advantage']);
      expect(res.body.error).to.contain('none will exist').and.not.contain('send denied=true');
    }
  });

  it('when the appeal window was missed, then appeal is not ranked and a new request leads', async () => {
    const res = await get('?state=TX&program=medicare_advantage&service=advanced_imaging&denied=true&denial_days_ago=75');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(kinds(res.body)).to.not.include('appeal');
    expect(res.body.action_plan.primary).to.include({ kind: 'submit', title: 'Submit a new request' });
    expect(res.body.action_plan.not_applicable).to.deep.include({ kind: 'appeal', reason: 'The first-level appeal window (60 days from the notice) closed 15 days ago.' });
  });

  it('when repeat off-formulary denials meet a near enrollment window, then escalate and switch_plan are ranked with their signals', async () => {
    const res = await get('?state=TX&program=medicare_advantage&service=advanced_imaging&denied=true&denial_basis=not_on_formulary&denial_days_ago=10&recurring=true&open_enrollment_near=true&has_alternative=false');
    expect(res.status).to.equal(200);
    expectOpenApi(t.app.routes, res);
    expect(kinds(res.body)).to.deep.equal(['appeal', 'escalate', 'switch_plan', 'wait']);
    expect(action(res.body, 'escalate')!.signals.map((s) => [s.name, s.weight])).to.deep.equal([['denied', 15], ['recurring', 35]]);
    expect(action(res.body, 'switch_plan')).to.include({ score: 50, deadline: null });
    expect(action(res.body, 'switch_plan')!.deadline_basis).to.match(/not in the verified corpus/);
    expect(res.body.action_plan.basis.member_context).to.include({ recurring: true, open_enrollment_near: true, has_alternative: false });
  });

  it('when Original Medicare (no plan) denies again, then every sentence names the program, never a plan or its medical director', async () => {
    const res = await get('?state=TX&program=medicare_traditional&service=ambulance_transport&denied=true&denial_basis=other&denial_days_ago=5&recurring=true&drug_cost_usd=300');
    expect(res.status).to.equal(200);
    expect(action(res.body, 'appeal')!.rationale).to.contain('if the program upholds the denial, go to the next level promptly');
    expect(action(res.body, 'escalate')!.rationale).to.contain("ask for a peer-to-peer review with the program's reviewing clinician");
    expect(kinds(res.body)).to.deep.equal(['appeal', 'escalate', 'pay_out_of_pocket', 'wait']);
    expect(action(res.body, 'pay_out_of_pocket')!.rationale).to.contain('ask the program whether it reimburses');
    const text = JSON.stringify(res.body.action_plan.ranked_actions);
    expect(text).to.not.match(/the plan (upholds|gets|whether)|plan's medical director/);
  });

  it('when denied without denial_days_ago, then deadlines count from today and say so', async () => {
    const res = await get('?state=TX&program=medicare_advantage&service=advanced_imaging&denied=true');
    expect(res.status).to.equal(200);
    expect(res.body.action_plan.primary).to.include({ kind: 'appeal', deadline: '2027-01-20' });
    expect(res.body.action_plan.primary.deadline_basis).to.contain('assuming the notice is dated today');
  });

  it('when a demo session is sent instead of a key, then it is accepted; a bad or missing credential is 401', async () => {
    const qs = '?state=TX&program=medicaid_mco&drug=glp1_weight_loss';
    const issued = await request(t.app.handler).post('/v1/demo-sessions');
    expect(issued.status).to.equal(201);
    const demo = await request(t.app.handler).get(`/v1/action-plan${qs}`).set('x-demo-session', issued.body.session_id);
    expect(demo.status).to.equal(200);
    expectOpenApi(t.app.routes, demo);
    expect(demo.body.action_plan.primary.kind).to.equal('submit');
    const badDemo = await request(t.app.handler).get(`/v1/action-plan${qs}`).set('x-demo-session', '6f1c2a3b-4d5e-4f60-8a7b-000000000000');
    expect(badDemo.status).to.equal(401);
    expectOpenApi(t.app.routes, badDemo);
    expect(badDemo.body.error).to.match(/demo session/);
    const none = await get(qs, null);
    expect(none.status).to.equal(401);
    expect(none.body.error).to.match(/x-api-key, or x-demo-session/);
    expect((await get(qs, '0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b')).status).to.equal(401);
  });

  const base = '?state=TX&program=medicaid_mco&drug=glp1_weight_loss';
  const bad: [string, string, RegExp][] = [
    ['an unknown (free-text) parameter', `${base}&notes=patient%20is%20sad`, /Unknown parameter 'notes': member context is a controlled vocabulary/],
    ['two unknown parameters', `${base}&dob=1950-01-01&zip=78701`, /Unknown parameters 'dob', 'zip'/],
    ['denied=yes', `${base}&denied=yes`, /Invalid denied: expected true or false/],
    ['an unknown denial_basis', `${base}&denied=true&denial_basis=too_expensive`, /Invalid denial_basis: expected one of step_therapy, not_medically_necessary, missing_docs, not_on_formulary, other/],
    ['a negative denial_days_ago', `${base}&denied=true&denial_days_ago=-1`, /Invalid denial_days_ago/],
    ['a fractional denial_days_ago', `${base}&denied=true&denial_days_ago=1.5`, /Invalid denial_days_ago/],
    ['a denial_days_ago over ten years', `${base}&denied=true&denial_days_ago=3651`, /Invalid denial_days_ago: expected a whole number of days from 0 to 3650/],
    ['a date for denial_days_ago', `${base}&denied=true&denial_days_ago=2026-11-01`, /Invalid denial_days_ago/],
    ['an unknown urgency', `${base}&urgency=asap`, /Invalid urgency: expected one of routine, urgent/],
    ['a negative cost', `${base}&drug_cost_usd=-5`, /Invalid drug_cost_usd/],
    ['a cost over the cap', `${base}&drug_cost_usd=10000001`, /Invalid drug_cost_usd/],
    ['a cost with three decimals', `${base}&drug_cost_usd=12.345`, /Invalid drug_cost_usd/],
    ['has_alternative=1', `${base}&has_alternative=1`, /Invalid has_alternative: expected true or false/],
    ['open_enrollment_near=maybe', `${base}&open_enrollment_near=maybe`, /Invalid open_enrollment_near/],
    ['recurring=TRUE', `${base}&recurring=TRUE`, /Invalid recurring/],
    ['alternative_no_pa=yes', `${base}&alternative_no_pa=yes`, /Invalid alternative_no_pa/],
    ['denial_basis without denied=true', `${base}&denial_basis=other`, /denial_basis needs denied=true/],
    ['denial details with denied=false', `${base}&denied=false&denial_basis=other&denial_days_ago=3`, /denial_basis and denial_days_ago need denied=true/],
    ['alternative_no_pa=true with has_alternative=false', `${base}&has_alternative=false&alternative_no_pa=true`, /contradicts has_alternative=false/],
    ['a repeated denied', `${base}&denied=true&denied=false`, /more than once/],
    ['no subject', '?state=TX&program=medicaid_mco', /Give exactly one of 'drug'/],
    ['drug and code', `${base}&code=70553`, /not drug and code/],
    ['a malformed code', '?state=TX&program=medicaid_mco&code=MRI', /Invalid code 'MRI'/],
    ['an unresolvable code', '?state=TX&program=medicaid_mco&code=99499', /does not resolve/],
    ['a missing state', '?program=medicaid_mco&drug=glp1_weight_loss', /Missing required parameter 'state'/],
    ['a missing program', '?state=TX&drug=glp1_weight_loss', /Missing required parameter 'program'/],
    ['an unknown program', '?state=TX&program=medigap&drug=glp1_weight_loss', /Invalid program/],
  ];
  for (const [what, qs, message] of bad) {
    it(`when given ${what}, then 400 saying which parameter is wrong`, async () => {
      const res = await get(qs);
      expect(res.status).to.equal(400);
      expectOpenApi(t.app.routes, res);
      expect(res.body.error).to.match(message);
      expect(res.body.code).to.be.oneOf(['missing_parameter', 'invalid_parameter', 'conflicting_parameters']);
    });
  }

  it('when a member-context value is invalid, then the error does not echo it back', async () => {
    const res = await get(`${base}&denied=true&denial_days_ago=98765`);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.not.contain('98765');
  });

  it('when the state or program is outside the key scope, or the group is not subscribed, then 403 naming it', async () => {
    const k = await t.key({ states: ['FL'], programs: ['medicaid_mco'] });
    const state = await get(base, k);
    expect(state.status).to.equal(403);
    expectOpenApi(t.app.routes, state);
    expect(state.body.out_of_scope).to.deep.equal({ states: ['TX'] });
    const program = await get('?state=FL&program=chip&drug=hepatitis_c', k);
    expect(program.status).to.equal(403);
    expect(program.body.out_of_scope).to.deep.equal({ programs: ['chip'] });
    const group = await get(base, await t.key({ groups: ['lookup'] }));
    expect(group.status).to.equal(403);
    expectOpenApi(t.app.routes, group);
    expect(group.body.error).to.contain("'action_plan'");
  });
});
