import { expect } from 'chai';
import fc from 'fast-check';
import { PROGRAMS, PA_TYPES, type Program } from '../../src/domain/vocabulary.js';
import { APPEAL_LADDERS } from '../../src/services/action-plan/appeal-ladders.js';
import {
  ACTION_KINDS,
  DEFAULT_CONTEXT,
  DENIAL_BASES,
  WEIGHTS,
  clampScore,
  rankActions,
  type ActionKind,
  type MemberContext,
  type RankInput,
  type RuleFacts,
} from '../../src/services/action-plan/rank-actions.js';

const PA: RuleFacts = { paRequired: true, paType: 'full', newStartsOnly: false, protectedClass: false };
const NO_PA: RuleFacts = { paRequired: false, paType: 'none', newStartsOnly: false, protectedClass: false };
const input = (program: Program, rule: RuleFacts | null, ctx: Partial<MemberContext>, upcomingChange = false): RankInput => ({
  program,
  rule,
  ladder: APPEAL_LADDERS[program],
  context: { ...DEFAULT_CONTEXT, ...ctx },
  upcomingChange,
});
const kinds = (i: RankInput): ActionKind[] => rankActions(i).ranked.map((a) => a.kind);

interface Row {
  when: string;
  input: RankInput;
  order: ActionKind[]; // the expected top of the ranking, in order
  absent?: ActionKind[];
  score?: Partial<Record<ActionKind, number>>;
}

const rows: Row[] = [
  { when: 'PA is not required', input: input('medicaid_mco', NO_PA, {}), order: ['proceed'], absent: ['submit', 'appeal', 'switch_alternative'], score: { proceed: 80 } },
  { when: 'PA is required', input: input('medicaid_mco', PA, {}), order: ['submit', 'wait'], absent: ['proceed', 'appeal', 'request_continued_benefits', 'escalate'], score: { submit: 70 } },
  { when: 'PA is required and the need is urgent', input: input('medicare_advantage', PA, { urgency: 'urgent' }), order: ['submit'], absent: ['wait'], score: { submit: 80 } },
  {
    when: 'PA is step therapy and an alternative needs no PA',
    input: input('medicaid_mco', { ...PA, paType: 'step_therapy' }, { hasAlternative: true, alternativeNoPa: true }),
    order: ['switch_alternative', 'submit'],
    score: { switch_alternative: 70, submit: 55 },
  },
  { when: 'no rule is known and nothing was denied', input: input('chip', null, {}), order: ['submit'], absent: ['proceed'], score: { submit: 45 } },
  {
    when: 'a Part D protected class applies to new starts only',
    input: input('part_d', { ...PA, paType: 'conditional', newStartsOnly: true, protectedClass: true }, {}),
    order: ['submit', 'proceed'],
    score: { submit: 70, proceed: 35 },
  },
  {
    when: 'a Medicaid MCO denial for medical necessity is 12 days old (continued-benefits window closed)',
    input: input('medicaid_mco', PA, { denied: true, denialBasis: 'not_medically_necessary', denialDaysAgo: 12 }),
    order: ['appeal'],
    absent: ['request_continued_benefits', 'proceed', 'submit'],
    score: { appeal: 75 },
  },
  {
    when: 'a Medicaid MCO denial is 3 days old',
    input: input('medicaid_mco', PA, { denied: true, denialBasis: 'not_medically_necessary', denialDaysAgo: 3 }),
    order: ['appeal', 'request_continued_benefits'],
    score: { appeal: 75, request_continued_benefits: 55 },
  },
  {
    when: 'a Medicaid FFS denial is 8 days old (continued benefits closing)',
    input: input('medicaid_ffs', PA, { denied: true, denialBasis: 'other', denialDaysAgo: 8 }),
    order: ['request_continued_benefits', 'appeal'],
    score: { request_continued_benefits: 65, appeal: 65 },
  },
  {
    when: 'the denial was for missing documentation',
    input: input('medicaid_mco', PA, { denied: true, denialBasis: 'missing_docs', denialDaysAgo: 20 }),
    order: ['submit', 'appeal'],
    score: { submit: 75, appeal: 50 },
  },
  {
    when: 'a step-therapy denial has an alternative without PA',
    input: input('medicaid_mco', PA, { denied: true, denialBasis: 'step_therapy', denialDaysAgo: 20, hasAlternative: true, alternativeNoPa: true }),
    order: ['switch_alternative', 'appeal'],
    score: { switch_alternative: 75, appeal: 65 },
  },
  {
    when: 'the MA reconsideration window was missed (61 days)',
    input: input('medicare_advantage', PA, { denied: true, denialBasis: 'not_medically_necessary', denialDaysAgo: 61 }),
    order: ['submit', 'escalate'],
    absent: ['appeal'],
    score: { submit: 55, escalate: 30 },
  },
  {
    when: 'an urgent MA imaging denial for medical necessity',
    input: input('medicare_advantage', PA, { denied: true, denialBasis: 'not_medically_necessary', denialDaysAgo: 1, urgency: 'urgent' }),
    order: ['appeal', 'escalate'],
    absent: ['wait', 'request_continued_benefits'],
    score: { appeal: 85, escalate: 25 },
  },
  {
    when: 'a Part D protected-class drug is denied as off formulary',
    input: input('part_d', { ...PA, protectedClass: true }, { denied: true, denialBasis: 'not_on_formulary', denialDaysAgo: 5 }),
    order: ['appeal'],
    score: { appeal: 75 },
  },
  {
    when: 'a repeat denial missed its window',
    input: input('medicaid_mco', PA, { denied: true, denialBasis: 'other', denialDaysAgo: 90, recurring: true }),
    order: ['escalate', 'submit'],
    absent: ['appeal', 'request_continued_benefits'],
    score: { escalate: 65, submit: 45 },
  },
  {
    when: 'a cheap drug needs PA before any decision',
    input: input('part_d', PA, { costUsd: 50 }),
    order: ['submit', 'pay_out_of_pocket'],
    score: { pay_out_of_pocket: 40 },
  },
  {
    when: 'an expensive drug is denied',
    input: input('part_d', PA, { denied: true, denialBasis: 'other', denialDaysAgo: 1, costUsd: 9000 }),
    order: ['appeal'],
    score: { pay_out_of_pocket: 0 },
  },
  {
    when: 'open enrollment is near after repeat off-formulary denials',
    input: input('medicare_advantage', PA, { denied: true, denialBasis: 'not_on_formulary', denialDaysAgo: 10, recurring: true, openEnrollmentNear: true }),
    order: ['appeal', 'escalate', 'switch_plan'], // 50 each: the tie goes to escalate (TIE_ORDER)
    score: { escalate: 50, switch_plan: 50 },
  },
  { when: 'open enrollment is near in Medicaid FFS', input: input('medicaid_ffs', PA, { openEnrollmentNear: true }), order: ['submit'], absent: ['switch_plan'] },
  {
    when: 'a CHIP denial (state-specific window)',
    input: input('chip', PA, { denied: true, denialBasis: 'not_medically_necessary', denialDaysAgo: 400 }),
    order: ['appeal'],
    score: { appeal: 65 },
  },
  {
    when: 'a relevant change is near and nothing is urgent',
    input: input('medicaid_mco', NO_PA, {}, true),
    order: ['proceed', 'wait'],
    score: { wait: 20 },
  },
];

describe('rankActions (pure): table over the member-context space', () => {
  for (const row of rows) {
    it(`when ${row.when}, then the ranking starts ${row.order.join(' > ')}`, () => {
      const result = rankActions(row.input);
      expect(kinds(row.input).slice(0, row.order.length)).to.deep.equal(row.order);
      for (const k of row.absent ?? []) {
        expect(kinds(row.input), `${k} should not be ranked`).to.not.include(k);
        expect(result.not_applicable.find((n) => n.kind === k)?.reason).to.be.a('string').and.not.equal('');
      }
      for (const [k, s] of Object.entries(row.score ?? {})) {
        expect(result.ranked.find((a) => a.kind === k)?.score, k).to.equal(s);
      }
    });
  }

  it('when the appeal window is counted, then its remaining days are the signal value', () => {
    const r = rankActions(input('medicaid_mco', PA, { denied: true, denialDaysAgo: 12 }));
    const appeal = r.ranked.find((a) => a.kind === 'appeal')!;
    expect(appeal.window).to.deep.equal({ days: 60, elapsed: 12, remaining: 48, open: true });
    expect(appeal.signals[0]).to.deep.equal({ name: 'window_open', value: 48, weight: WEIGHTS.appeal.window_open });
    expect(r.not_applicable.find((n) => n.kind === 'request_continued_benefits')!.reason).to.match(/closed 2 days ago/);
  });

  it('when the window closes exactly today, then it is still open (day 60 of 60)', () => {
    expect(kinds(input('medicare_advantage', PA, { denied: true, denialDaysAgo: 60 }))).to.include('appeal');
    expect(kinds(input('medicare_advantage', PA, { denied: true, denialDaysAgo: 61 }))).to.not.include('appeal');
  });
});

const ruleArb: fc.Arbitrary<RuleFacts | null> = fc.option(
  fc.record({ paRequired: fc.boolean(), paType: fc.constantFrom(...PA_TYPES), newStartsOnly: fc.boolean(), protectedClass: fc.boolean(), notCovered: fc.boolean() })
    // An exclusion is served as pa_required false, pa_type none (corpus/facts FORMAT.md, "Encoding").
    .map((r) => (r.notCovered ? { ...r, paRequired: false, paType: 'none' as const, newStartsOnly: false } : r)),
  { nil: null },
);
const contextArb: fc.Arbitrary<MemberContext> = fc
  .record({
    denied: fc.boolean(),
    denialBasis: fc.option(fc.constantFrom(...DENIAL_BASES), { nil: null }),
    denialDaysAgo: fc.option(fc.integer({ min: 0, max: 3650 }), { nil: null }),
    urgency: fc.constantFrom('routine' as const, 'urgent' as const),
    costUsd: fc.option(fc.double({ min: 0, max: 1e7, noNaN: true }), { nil: null }),
    hasAlternative: fc.boolean(),
    alternativeNoPa: fc.boolean(),
    openEnrollmentNear: fc.boolean(),
    recurring: fc.boolean(),
  })
  // The HTTP layer guarantees these: denial details only with denied=true, and no PA-free alternative without an alternative.
  .map((c) => ({
    ...c,
    denialBasis: c.denied ? c.denialBasis : null,
    denialDaysAgo: c.denied ? c.denialDaysAgo : null,
    hasAlternative: c.hasAlternative || c.alternativeNoPa,
  }));
const inputArb: fc.Arbitrary<RankInput> = fc
  .record({ program: fc.constantFrom(...PROGRAMS), rule: ruleArb, context: contextArb, upcomingChange: fc.boolean() })
  .map((r) => ({ ...r, ladder: APPEAL_LADDERS[r.program] }));

describe('rankActions (pure): properties', () => {
  it('for any context, a missed appeal window never ranks appeal at all, let alone first', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const filing = i.ladder.steps[0]!.filing;
        const missed = i.context.denied && filing !== null && (i.context.denialDaysAgo ?? 0) > filing.days;
        const r = rankActions(i);
        if (missed) {
          expect(r.ranked.map((a) => a.kind)).to.not.include('appeal');
          expect(r.ranked[0]!.kind).to.not.equal('appeal');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('for any context, request_continued_benefits appears only where the program has it, after a denial, with the window open, for a covered subject', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const has = rankActions(i).ranked.some((a) => a.kind === 'request_continued_benefits');
        const cb = i.ladder.continuedBenefits;
        // Continued benefits keep an authorized service going: a subject the program does not cover never had one.
        const allowed = cb !== null && i.context.denied && (i.context.denialDaysAgo ?? 0) <= cb.days && i.rule?.notCovered !== true;
        expect(has).to.equal(allowed);
        if (has) expect(['medicaid_mco', 'medicaid_ffs']).to.include(i.program);
      }),
      { numRuns: 2000 },
    );
  });

  it('for any context, the ranking is deterministic and well formed', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const a = rankActions(i);
        expect(rankActions(structuredClone(i))).to.deep.equal(a);
        expect(a.ranked.length).to.be.greaterThan(0);
        expect(a.ranked.map((x) => x.rank)).to.deep.equal(a.ranked.map((_, n) => n + 1));
        const all = [...a.ranked.map((x) => x.kind), ...a.not_applicable.map((x) => x.kind)].sort();
        expect(all).to.deep.equal([...ACTION_KINDS].sort());
        for (let n = 1; n < a.ranked.length; n++) expect(a.ranked[n - 1]!.score).to.be.at.least(a.ranked[n]!.score);
        for (const x of a.ranked) expect(x.score).to.equal(clampScore(x.signals.reduce((s, g) => s + g.weight, 0)));
      }),
      { numRuns: 1000 },
    );
  });

  it('for any context without a denial, nothing appeal-shaped is ranked; for any urgent context, waiting is not', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const ks = rankActions(i).ranked.map((a) => a.kind);
        if (!i.context.denied) expect(ks).to.not.include.members(['appeal', 'request_continued_benefits']);
        if (i.context.urgency === 'urgent') expect(ks).to.not.include('wait');
        if (i.context.denied) expect(ks).to.not.include('proceed');
      }),
      { numRuns: 1000 },
    );
  });

  it('for any context where the program does not cover the subject, neither proceed nor submit is ranked; a covered alternative and paying always are; an appeal carries the not_covered weight', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        if (!i.rule?.notCovered) return;
        const ranked = rankActions(i).ranked;
        const ks = ranked.map((a) => a.kind);
        expect(ks).to.not.include.members(['proceed']);
        expect(ks).to.not.include('submit');
        expect(ks).to.include.members(['switch_alternative', 'pay_out_of_pocket']);
        const appeal = ranked.find((a) => a.kind === 'appeal');
        if (appeal) expect(appeal.signals).to.deep.include({ name: 'not_covered', value: true, weight: WEIGHTS.appeal.not_covered });
        expect(ranked.find((a) => a.kind === 'switch_alternative')!.signals[0]).to.deep.equal({ name: 'not_covered', value: true, weight: WEIGHTS.switch_alternative.not_covered });
      }),
      { numRuns: 1000 },
    );
  });
});
