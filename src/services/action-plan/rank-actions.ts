// The ranking of next actions: a pure function of the member context, the rule facts and the program's appeal
// ladder. No clock, no I/O: windows are counted in days, and build-plan turns them into dates.
//
// Model (transparent on purpose; docs/decision-support.md prints the same table):
//   - an action kind is either applicable, with a score, or not applicable, with a reason;
//   - score = clamp(sum of the weights of the signals that fire, 0, 100);
//   - ranked by score, descending; ties broken by TIE_ORDER (deadline-bearing actions first).
// Hard rules, not weights: appeal is not applicable once its filing window has closed (so it can never rank
// first); request_continued_benefits exists only for programs whose ladder has it, only after a denial, only
// while its window is open and only for a subject the program covers.
import type { PaType, Program } from '../../domain/vocabulary.js';
import type { AppealLadder } from './appeal-ladders.js';

export const DENIAL_BASES = ['step_therapy', 'not_medically_necessary', 'missing_docs', 'not_on_formulary', 'other'] as const;
export type DenialBasis = (typeof DENIAL_BASES)[number];

export const URGENCIES = ['routine', 'urgent'] as const;
export type Urgency = (typeof URGENCIES)[number];

export const ACTION_KINDS = ['proceed', 'submit', 'appeal', 'request_continued_benefits', 'switch_alternative', 'switch_plan', 'pay_out_of_pocket', 'escalate', 'wait'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** Tie-break order: actions with a running clock before open-ended ones. */
export const TIE_ORDER: readonly ActionKind[] = [
  'request_continued_benefits',
  'appeal',
  'submit',
  'proceed',
  'switch_alternative',
  'escalate',
  'pay_out_of_pocket',
  'switch_plan',
  'wait',
];

export interface MemberContext {
  denied: boolean;
  denialBasis: DenialBasis | null;
  /** Days since the denial notice; null when not given (windows are then counted as if the notice were today). */
  denialDaysAgo: number | null;
  urgency: Urgency;
  costUsd: number | null;
  hasAlternative: boolean;
  alternativeNoPa: boolean;
  openEnrollmentNear: boolean;
  recurring: boolean;
}

export const DEFAULT_CONTEXT: MemberContext = {
  denied: false,
  denialBasis: null,
  denialDaysAgo: null,
  urgency: 'routine',
  costUsd: null,
  hasAlternative: false,
  alternativeNoPa: false,
  openEnrollmentNear: false,
  recurring: false,
};

export interface RuleFacts {
  paRequired: boolean;
  paType: PaType;
  /** PA applies to new starts only (Part D protected classes, CMS-4180-F). */
  newStartsOnly: boolean;
  /** A Part D protected class with a federal override. */
  protectedClass: boolean;
  /** PA is not required but may be requested (pa_mode voluntary; the alternative is, say, prepayment review). */
  voluntary?: boolean;
  /** The program does not cover the subject (an exclusion): no PA route, a claim will be denied. */
  notCovered?: boolean;
}

export interface RankInput {
  program: Program;
  /** null when no verified (or estimable) rule grounds the subject. */
  rule: RuleFacts | null;
  ladder: AppealLadder;
  context: MemberContext;
  /** A relevant regulatory change takes effect within WAIT_HORIZON_DAYS. */
  upcomingChange: boolean;
}

export interface Signal {
  name: string;
  value: string | number | boolean;
  weight: number;
}

export interface Window {
  days: number;
  elapsed: number;
  remaining: number;
  open: boolean;
}

export interface ScoredAction {
  rank: number;
  kind: ActionKind;
  score: number;
  signals: Signal[];
  /** The filing window the action runs against, when it has one. */
  window: Window | null;
}

export interface NotApplicable {
  kind: ActionKind;
  reason: string;
}

export interface RankResult {
  ranked: ScoredAction[];
  not_applicable: NotApplicable[];
}

/** Every weight the model uses, by action and signal. Exported so tests and docs read the same numbers. */
export const WEIGHTS = {
  proceed: { pa_not_required: 80, new_starts_only: 35, pa_voluntary: 45, pa_conditional: 40 },
  submit: {
    pa_required: 70,
    pa_voluntary: 55,
    rule_unknown: 45,
    urgent_expedited: 10,
    step_therapy_alternative_first: -15,
    missing_docs_resubmit: 75,
    appeal_window_missed_new_request: 55,
    recurring: -10,
  },
  appeal: {
    window_open: 60,
    not_covered: -20,
    window_state_specific: 50,
    basis_not_medically_necessary: 15,
    basis_step_therapy: 5,
    basis_not_on_formulary: 5,
    basis_other: 5,
    basis_missing_docs: -10,
    protected_class: 10,
    urgent_expedited: 10,
    recurring: 5,
    window_closing: 5,
  },
  request_continued_benefits: { window_open: 55, window_closing: 10, urgent: 5 },
  switch_alternative: {
    not_covered: 50,
    has_alternative: 30,
    alternative_no_pa: 25,
    basis_step_therapy: 20,
    pa_type_step_therapy: 15,
    basis_not_on_formulary: 15,
    urgent_no_pa_alternative: 10,
    recurring: 10,
  },
  switch_plan: { open_enrollment_near: 25, recurring: 15, basis_not_on_formulary: 10, urgent: -10 },
  pay_out_of_pocket: { not_covered: 25, cost_given: 10, cost_low: 30, cost_moderate: 15, cost_high: -15, urgent: 10, denied: 5 },
  escalate: { denied: 15, recurring: 35, urgent: 10, appeal_window_missed: 15 },
  wait: { routine: 5, upcoming_change: 15, deadline_running: -5 },
} as const;

export const THRESHOLDS = {
  /** USD at or under which paying out of pocket scores as a low cost. */
  costLow: 100,
  costModerate: 500,
  /** USD above which paying out of pocket is penalised. */
  costHigh: 2000,
  /** Days left at or under which a window counts as closing. */
  appealClosingDays: 7,
  continuedBenefitsClosingDays: 3,
} as const;


const NOT_COVERED_REASON = 'The program does not cover this subject (an exclusion): a claim will be denied.';

function windowOf(days: number, ctx: MemberContext): Window {
  const elapsed = ctx.denialDaysAgo ?? 0;
  const remaining = days - elapsed;
  return { days, elapsed, remaining, open: remaining >= 0 };
}

type Outcome = { signals: Signal[]; window?: Window | null } | { reason: string };

const sig = (name: string, value: Signal['value'], weight: number): Signal => ({ name, value, weight });

export function appealWindow(input: RankInput): Window | null {
  const filing = input.ladder.steps[0]?.filing;
  return filing ? windowOf(filing.days, input.context) : null;
}

export function continuedBenefitsWindow(input: RankInput): Window | null {
  const cb = input.ladder.continuedBenefits;
  return cb ? windowOf(cb.days, input.context) : null;
}

function scoreProceed(i: RankInput): Outcome {
  const { rule, context: c } = i;
  if (c.denied) return { reason: 'A denial is on file; proceeding as if covered would leave the bill unpaid.' };
  if (!rule) return { reason: 'No verified rule says whether prior authorization is required.' };
  if (rule.notCovered) return { reason: NOT_COVERED_REASON };
  const W = WEIGHTS.proceed;
  if (!rule.paRequired) return { signals: [rule.voluntary ? sig('pa_voluntary', true, W.pa_voluntary) : sig('pa_not_required', true, W.pa_not_required)] };
  if (rule.newStartsOnly) return { signals: [sig('new_starts_only', true, W.new_starts_only)] };
  // Conditional PA (a PDL's non-preferred agents, say): where the criteria name nothing that applies, no request is needed.
  if (rule.paType === 'conditional') return { signals: [sig('pa_conditional', true, W.pa_conditional)] };
  return { reason: 'Prior authorization is required before the service or fill.' };
}

function scoreSubmit(i: RankInput): Outcome {
  const { rule, context: c } = i;
  const W = WEIGHTS.submit;
  const signals: Signal[] = [];
  if (rule?.notCovered) return { reason: `${NOT_COVERED_REASON} A prior authorization request (or a resubmission) does not lead to coverage.` };
  if (c.denied) {
    const appeal = appealWindow(i);
    if (c.denialBasis === 'missing_docs') signals.push(sig('missing_docs_resubmit', 'missing_docs', W.missing_docs_resubmit));
    else if (appeal && !appeal.open) signals.push(sig('appeal_window_missed_new_request', appeal.remaining, W.appeal_window_missed_new_request));
    else return { reason: 'A decision is on file; an identical new request would meet the same answer. Appeal instead, unless documentation was missing.' };
    if (c.recurring) signals.push(sig('recurring', true, W.recurring));
  } else {
    if (rule && !rule.paRequired && !rule.voluntary) return { reason: 'Prior authorization is not required.' };
    signals.push(!rule ? sig('rule_unknown', true, W.rule_unknown) : rule.paRequired ? sig('pa_required', rule.paType, W.pa_required) : sig('pa_voluntary', true, W.pa_voluntary));
    if (rule?.paType === 'step_therapy' && c.hasAlternative && c.alternativeNoPa) {
      signals.push(sig('step_therapy_alternative_first', true, W.step_therapy_alternative_first));
    }
  }
  if (c.urgency === 'urgent') signals.push(sig('urgent_expedited', 'urgent', W.urgent_expedited));
  return { signals };
}

function scoreAppeal(i: RankInput): Outcome {
  const { context: c, rule } = i;
  if (!c.denied) return { reason: 'Nothing has been denied yet.' };
  const W = WEIGHTS.appeal;
  const window = appealWindow(i);
  const signals: Signal[] = [];
  if (window) {
    if (!window.open) {
      return { reason: `The first-level appeal window (${window.days} days from the notice) closed ${-window.remaining} day${window.remaining === -1 ? '' : 's'} ago.` };
    }
    signals.push(sig('window_open', window.remaining, W.window_open));
    if (window.remaining <= THRESHOLDS.appealClosingDays) signals.push(sig('window_closing', window.remaining, W.window_closing));
  } else {
    signals.push(sig('window_state_specific', true, W.window_state_specific));
  }
  switch (c.denialBasis) {
    case 'not_medically_necessary':
      signals.push(sig('basis_not_medically_necessary', c.denialBasis, W.basis_not_medically_necessary));
      break;
    case 'step_therapy':
      signals.push(sig('basis_step_therapy', c.denialBasis, W.basis_step_therapy));
      break;
    case 'not_on_formulary':
      signals.push(sig('basis_not_on_formulary', c.denialBasis, W.basis_not_on_formulary));
      break;
    case 'other':
      signals.push(sig('basis_other', c.denialBasis, W.basis_other));
      break;
    case 'missing_docs':
      signals.push(sig('basis_missing_docs', c.denialBasis, W.basis_missing_docs));
      break;
    case null:
      break;
  }
  if (rule?.protectedClass) signals.push(sig('protected_class', true, W.protected_class));
  // An exclusion is a term of the benefit, not a clinical judgment: an appeal can argue that it does not apply to this
  // use, not change it, so a covered alternative ranks above it.
  if (rule?.notCovered) signals.push(sig('not_covered', true, W.not_covered));
  if (c.urgency === 'urgent') signals.push(sig('urgent_expedited', 'urgent', W.urgent_expedited));
  if (c.recurring) signals.push(sig('recurring', true, W.recurring));
  return { signals, window };
}

function scoreContinuedBenefits(i: RankInput): Outcome {
  const { context: c, ladder } = i;
  if (!ladder.continuedBenefits) return { reason: `The ${ladder.program} appeal ladder has no continued-benefits (aid paid pending) right.` };
  if (!c.denied) return { reason: 'Nothing has been denied yet.' };
  // A subject the program does not cover was never authorized: nothing to continue.
  if (i.rule?.notCovered) return { reason: `${NOT_COVERED_REASON} Continued benefits keep a service that was authorized; nothing was.` };
  const W = WEIGHTS.request_continued_benefits;
  const window = continuedBenefitsWindow(i)!;
  if (!window.open) {
    return { reason: `The continued-benefits window (${window.days} days) closed ${-window.remaining} day${window.remaining === -1 ? '' : 's'} ago.` };
  }
  const signals = [sig('window_open', window.remaining, W.window_open)];
  if (window.remaining <= THRESHOLDS.continuedBenefitsClosingDays) signals.push(sig('window_closing', window.remaining, W.window_closing));
  if (c.urgency === 'urgent') signals.push(sig('urgent', 'urgent', W.urgent));
  return { signals, window };
}

function scoreSwitchAlternative(i: RankInput): Outcome {
  const { context: c, rule } = i;
  const notCovered = rule?.notCovered === true;
  // Where the program does not cover the subject, a covered alternative is the first thing to ask about, indicated or not.
  if (!c.hasAlternative && !notCovered) return { reason: 'No clinical alternative was indicated (has_alternative is not true).' };
  if (!c.denied && rule && !rule.paRequired && !notCovered) return { reason: 'Prior authorization is not required, so there is nothing to route around.' };
  const W = WEIGHTS.switch_alternative;
  const signals: Signal[] = [];
  if (notCovered) signals.push(sig('not_covered', true, W.not_covered));
  if (c.hasAlternative) signals.push(sig('has_alternative', true, W.has_alternative));
  if (c.alternativeNoPa) signals.push(sig('alternative_no_pa', true, W.alternative_no_pa));
  if (c.denialBasis === 'step_therapy') signals.push(sig('basis_step_therapy', c.denialBasis, W.basis_step_therapy));
  if (!c.denied && rule?.paType === 'step_therapy') signals.push(sig('pa_type_step_therapy', true, W.pa_type_step_therapy));
  if (c.denialBasis === 'not_on_formulary') signals.push(sig('basis_not_on_formulary', c.denialBasis, W.basis_not_on_formulary));
  if (c.urgency === 'urgent' && c.alternativeNoPa) signals.push(sig('urgent_no_pa_alternative', true, W.urgent_no_pa_alternative));
  if (c.recurring) signals.push(sig('recurring', true, W.recurring));
  return { signals };
}

function scoreSwitchPlan(i: RankInput): Outcome {
  const { context: c } = i;
  if (i.program === 'medicaid_ffs') return { reason: 'Medicaid fee-for-service has no plans to choose between.' };
  if (!c.openEnrollmentNear) return { reason: 'No enrollment window is near (open_enrollment_near is not true).' };
  const W = WEIGHTS.switch_plan;
  const signals = [sig('open_enrollment_near', true, W.open_enrollment_near)];
  if (c.recurring) signals.push(sig('recurring', true, W.recurring));
  if (c.denialBasis === 'not_on_formulary') signals.push(sig('basis_not_on_formulary', c.denialBasis, W.basis_not_on_formulary));
  if (c.urgency === 'urgent') signals.push(sig('urgent', 'urgent', W.urgent));
  return { signals };
}

function scorePayOutOfPocket(i: RankInput): Outcome {
  const { context: c, rule } = i;
  const notCovered = rule?.notCovered === true;
  // Where the program does not cover the subject, paying directly is an option whether or not a cost was given.
  if (c.costUsd === null && !notCovered) return { reason: 'No out-of-pocket cost was given (drug_cost_usd).' };
  if (!c.denied && rule && !rule.paRequired && !notCovered) return { reason: 'Covered without prior authorization; no need to pay out of pocket.' };
  const W = WEIGHTS.pay_out_of_pocket;
  const signals: Signal[] = [];
  if (notCovered) signals.push(sig('not_covered', true, W.not_covered));
  if (c.costUsd !== null) {
    signals.push(sig('cost_given', c.costUsd, W.cost_given));
    if (c.costUsd <= THRESHOLDS.costLow) signals.push(sig('cost_low', c.costUsd, W.cost_low));
    else if (c.costUsd <= THRESHOLDS.costModerate) signals.push(sig('cost_moderate', c.costUsd, W.cost_moderate));
    else if (c.costUsd > THRESHOLDS.costHigh) signals.push(sig('cost_high', c.costUsd, W.cost_high));
  }
  if (c.urgency === 'urgent') signals.push(sig('urgent', 'urgent', W.urgent));
  if (c.denied) signals.push(sig('denied', true, W.denied));
  return { signals };
}

function scoreEscalate(i: RankInput): Outcome {
  const { context: c } = i;
  if (!c.denied && !c.recurring) return { reason: 'Nothing has been denied and no repeat denials were reported.' };
  const W = WEIGHTS.escalate;
  const signals: Signal[] = [];
  if (c.denied) signals.push(sig('denied', true, W.denied));
  if (c.recurring) signals.push(sig('recurring', true, W.recurring));
  if (c.urgency === 'urgent') signals.push(sig('urgent', 'urgent', W.urgent));
  const appeal = appealWindow(i);
  if (c.denied && appeal && !appeal.open) signals.push(sig('appeal_window_missed', appeal.remaining, W.appeal_window_missed));
  return { signals };
}

function scoreWait(i: RankInput): Outcome {
  const { context: c } = i;
  if (c.urgency === 'urgent') return { reason: 'The need is urgent; waiting is not an option.' };
  const W = WEIGHTS.wait;
  const signals = [sig('routine', 'routine', W.routine)];
  if (i.upcomingChange) signals.push(sig('upcoming_change', true, W.upcoming_change));
  const running = [appealWindow(i), continuedBenefitsWindow(i)].some((w) => c.denied && w?.open);
  if (running) signals.push(sig('deadline_running', true, W.deadline_running));
  return { signals };
}

const SCORERS: Readonly<Record<ActionKind, (i: RankInput) => Outcome>> = {
  proceed: scoreProceed,
  submit: scoreSubmit,
  appeal: scoreAppeal,
  request_continued_benefits: scoreContinuedBenefits,
  switch_alternative: scoreSwitchAlternative,
  switch_plan: scoreSwitchPlan,
  pay_out_of_pocket: scorePayOutOfPocket,
  escalate: scoreEscalate,
  wait: scoreWait,
};

export const clampScore = (n: number): number => Math.max(0, Math.min(100, n));

export function rankActions(input: RankInput): RankResult {
  const scored: Omit<ScoredAction, 'rank'>[] = [];
  const notApplicable: NotApplicable[] = [];
  for (const kind of ACTION_KINDS) {
    const out = SCORERS[kind](input);
    if ('reason' in out) {
      notApplicable.push({ kind, reason: out.reason });
      continue;
    }
    const score = clampScore(out.signals.reduce((s, x) => s + x.weight, 0));
    scored.push({ kind, score, signals: out.signals, window: out.window ?? null });
  }
  scored.sort((a, b) => b.score - a.score || TIE_ORDER.indexOf(a.kind) - TIE_ORDER.indexOf(b.kind));
  return { ranked: scored.map((s, idx) => ({ rank: idx + 1, ...s })), not_applicable: notApplicable };
}
