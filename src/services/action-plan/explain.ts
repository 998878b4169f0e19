// The plain words of each ranked action: title, deadline and its basis, rationale and citations, one function per
// action kind over the dates derived once from the request (wordsOf).
import { toWireEvidence } from '../../domain/evidence.js';
import type { JurisdictionDoc, PaMode } from '../../domain/documents.js';
import { PROGRAM_LABELS, subjectLabel, type Program } from '../../domain/vocabulary.js';
import { addDays } from '../../domain/time.js';
import { formatHours } from '../pa-rule.js';
import { FACT_CONFIDENCE, UNCONFIRMED_CAVEAT, type AppealLadder } from './appeal-ladders.js';
import type { ActionKind, ScoredAction } from './rank-actions.js';
import {
  round2,
  type ActionPlanQuery,
  type ChangeWindowWire,
  type Grounding,
  type RankedActionWire,
  type WireCitation,
} from './plan-types.js';

export interface WordsInput {
  q: ActionPlanQuery;
  g: Grounding;
  ladder: AppealLadder;
  today: string;
  noticeDate: string | null;
  /** The change window worth waiting for (one that can change the answer, within WAIT_HORIZON_DAYS), if any. */
  waitFor: ChangeWindowWire | null;
  jurisdiction: JurisdictionDoc | undefined;
}

export const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
const money = (n: number): string => `$${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

function ruleCitations(g: Grounding): WireCitation[] {
  if (g.rule) return [{ title: g.rule.source.title, url: g.rule.source.url, ...(g.rule.evidence?.length ? { evidence: toWireEvidence(g.rule) } : {}) }];
  return g.payerRules.slice(0, 3).map((r) => ({ title: `${r.payer!.name}: ${r.source.title}`, url: r.source.url }));
}

export function subjectWords(q: ActionPlanQuery): string {
  return subjectLabel(q.subject.kind, q.subject.code);
}

/** What every explanation reads: the request, its grounding and the dates derived once from them. */
export interface Words extends WordsInput {
  c: ActionPlanQuery['context'];
  urgent: boolean;
  step1: AppealLadder['steps'][number];
  appealDeadline: string | null;
  appealOpen: boolean;
  noticeWords: string;
  baseConfidence: number;
  what: string;
  program: string;
  decideBefore: () => Pick<RankedActionWire, 'deadline' | 'deadline_basis'>;
}

type Explained = Omit<RankedActionWire, 'rank' | 'kind' | 'score' | 'signals'>;

/** The dates and words every explanation of one plan shares, derived once per plan. */
export function wordsOf(w: WordsInput): Words {
  const { q, g, ladder, today, noticeDate } = w;
  const c = q.context;
  const urgent = c.urgency === 'urgent';
  const step1 = ladder.steps[0]!;
  const appealDeadline = noticeDate && step1.filing ? addDays(noticeDate, step1.filing.days) : null;
  const appealOpen = appealDeadline !== null && appealDeadline >= today;
  const noticeWords = c.denialDaysAgo === null
    ? 'assuming the notice is dated today (denial_days_ago was not given; count from the date printed on the notice)'
    : `notice dated ${noticeDate} (${plural(c.denialDaysAgo, 'day')} ago)`;
  const baseConfidence = round2(g.confidence);
  const what = subjectWords(q);
  const program = PROGRAM_LABELS[q.program];
  const decideBefore = (): Pick<RankedActionWire, 'deadline' | 'deadline_basis'> =>
    c.denied && appealOpen
      ? { deadline: appealDeadline, deadline_basis: `No deadline of its own; decide before the appeal window closes on ${appealDeadline} so that the appeal stays available.` }
      : { deadline: null, deadline_basis: 'No deadline of its own.' };
  return { ...w, c, urgent, step1, appealDeadline, appealOpen, noticeWords, baseConfidence, what, program, decideBefore };
}

function explainProceed(_a: ScoredAction, x: Words): Explained {
  const { q, g, baseConfidence, what, program } = x;
  const newStarts = g.facts?.newStartsOnly && g.facts.paRequired;
  const voluntary = g.facts?.voluntary === true;
  const conditional = !newStarts && g.facts?.paRequired && g.facts.paType === 'conditional';
  return {
    title: newStarts ? 'Proceed without PA if the member is continuing therapy' : voluntary ? 'Proceed without the voluntary prior authorization' : conditional ? 'Proceed without PA where the criteria do not apply' : 'Proceed: no prior authorization needed',
    deadline: null,
    deadline_basis: 'No deadline: nothing has to be filed.',
    rationale: newStarts
      ? `The ${program} restriction for ${what} applies to new starts only. A member already on the drug continues without a new PA; for a new start, submit the request instead.`
      : voluntary
        ? `${program} in ${q.state} offers prior authorization for ${what} but does not require it; without it, the rule's notes say what happens instead (for example prepayment review). Keep the clinical documentation with the record for the claim.`
        : conditional
          ? `${program} in ${q.state} requires prior authorization for ${what} only for the agents or situations its criteria name (for example non-preferred agents); where none applies, no request is needed. Check the criteria first.`
          : `${program} in ${q.state} does not require prior authorization for ${what}. Keep the clinical documentation with the record for the claim.`,
    citations: ruleCitations(g),
    confidence: baseConfidence,
  };
}

function explainSubmit(_a: ScoredAction, x: Words): Explained {
  const { q, g, today, c, urgent, step1, appealDeadline, appealOpen, noticeWords, baseConfidence, what, program } = x;
  const t = g.rule?.turnaround;
  const hours = t ? (urgent ? t.expeditedHours : t.standardHours) : null;
  const expectBy = hours ? addDays(today, Math.ceil(hours / 24)) : undefined;
  if (c.denied) {
    const missingDocs = c.denialBasis === 'missing_docs';
    return {
      title: missingDocs ? 'Resubmit with the missing documentation' : 'Submit a new request',
      ...(missingDocs && appealOpen
        ? { deadline: appealDeadline, deadline_basis: `Resubmit now; if the new request is also denied, the appeal window on the first denial still runs until ${appealDeadline} (${step1.filing!.days} days from the ${noticeWords}).` }
        : { deadline: null, deadline_basis: 'A new request has no filing deadline; it starts a new decision and new appeal rights.' }),
      ...(expectBy ? { decision_expected_by: expectBy } : {}),
      rationale: missingDocs
        ? `The denial was for missing documentation. A complete resubmission is usually faster than an appeal: attach ${g.rule?.requirement.documentation.length ? g.rule.requirement.documentation.join('; ') : 'the clinical notes the notice asks for'}.`
        : `The first-level appeal window has closed, so a new request is the way back in: it gets a fresh decision and, if denied, fresh appeal rights.${urgent ? ' Ask for an expedited decision.' : ''}`,
      citations: ruleCitations(g),
      confidence: baseConfidence,
    };
  }
  const pa = g.facts;
  return {
    title: `${urgent ? 'Submit the prior authorization request and ask for an expedited decision' : pa?.paType === 'notification_only' ? 'Send the notification to the payer' : pa?.voluntary ? 'Submit a voluntary prior authorization request (optional)' : 'Submit the prior authorization request'}${pa?.paRequired && pa.paType === 'conditional' && !pa.newStartsOnly ? ' (where the criteria require one)' : ''}`,
    deadline: null,
    deadline_basis: expectBy
      ? `No filing deadline: submit before the service or fill. Submitted today, a decision is due by ${expectBy} (${urgent ? 'expedited' : 'standard'}: ${formatHours(hours!)}${t?.basis ? `; ${t.basis}` : ''}).`
      : 'No filing deadline: submit before the service or fill.',
    ...(expectBy ? { decision_expected_by: expectBy } : {}),
    rationale: pa
      ? `${program} in ${q.state} ${needsWords(g.rule?.requirement.paMode)} prior authorization (${pa.paType.replace(/_/g, ' ')}) for ${what}.${g.rule ? ` Submit to ${endSentence(g.rule.submission.target)}` : ''}${pa.newStartsOnly ? ' The requirement applies to new starts only.' : ''}${g.rule?.requirement.population ? ` It applies to ${g.rule.requirement.population} only; the source claims nothing for other members.` : ''}${g.basis === 'payer_rules_estimate' ? ' This is estimated from the plans\' own rules; the program-level rule is not verified yet.' : ''}`
      : `No verified rule says whether ${what} needs prior authorization here; ask the payer or submit to be safe.`,
    citations: ruleCitations(g),
    confidence: baseConfidence,
  };
}

/** An excluded subject, in words: the program does not cover it, so a claim will be denied. */
const notCoveredWords = (x: Words): string => {
  const who = x.g.rule?.requirement.population;
  return `${x.program} in ${x.q.state} does not cover ${x.what}${who ? ` for ${who}` : ''}, so a claim for it will be denied.`;
};

/** How binding the requirement is, in words: a plan that may require PA is not a program that requires it. */
const needsWords = (mode: PaMode | undefined): string =>
  mode === 'plan_may_require' ? 'lets the plan require' : mode === 'voluntary' ? 'offers voluntary' : 'requires';

/** A served text as one sentence: its own closing period kept, never doubled. */
const endSentence = (text: string): string => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

function explainAppeal(a: ScoredAction, x: Words): Explained {
  const { g, ladder, today, noticeDate, c, urgent, step1, noticeWords, program } = x;
  const f = step1.filing;
  const exp = step1.decision.expedited;
  const std = step1.decision.standard;
  const status = f?.status ?? ladder.status;
  const caveat = status === 'unconfirmed' ? UNCONFIRMED_CAVEAT : undefined;
  const expectHours = urgent ? exp?.hours ?? null : std?.hours ?? null;
  const expectBy = expectHours ? addDays(today, Math.ceil(expectHours / 24)) : undefined;
  const basisWords: Record<string, string> = {
    not_medically_necessary: 'Include a letter of medical necessity from the prescriber and the clinical notes that meet the criteria.',
    step_therapy: 'Document the step-therapy drugs already tried (names, dates, outcomes) or why they are contraindicated: that is the step-therapy exception case.',
    not_on_formulary: 'Ask for a formulary exception: the prescriber states why formulary alternatives are not appropriate.',
    missing_docs: 'Include the documentation the notice says was missing.',
    other: 'Answer the specific denial reason on the notice point by point.',
  };
  return {
    title: `Appeal: ${step1.name}${urgent ? ' (expedited)' : ''}`,
    deadline: f && noticeDate ? addDays(noticeDate, f.days) : null,
    deadline_basis: f
      ? `${f.days} calendar days from ${f.from}: ${noticeWords}.${urgent && exp ? ` Expedited decision: ${exp.text} after ${payerNoun(x.ladder.program)} gets the request.` : std ? ` Standard decision: ${std.text}.` : ''}`
      : `The filing window is not fixed federally for ${program}; use the deadline printed on the notice.`,
    ...(expectBy ? { decision_expected_by: expectBy } : {}),
    rationale: [
      a.window ? `The appeal window is open: ${plural(a.window.remaining, 'day')} left.` : 'Appeal through the state process.',
      // A denied plan too says whom the rule speaks for: another member's appeal may run elsewhere.
      g.rule?.requirement.population ? `The rule applies to ${g.rule.requirement.population} only (the source claims nothing for other members): check that the member is one of them before following this ladder.` : '',
      // A formulary exception (or any other basis-specific argument) is for a covered benefit, not for an exclusion.
      c.denialBasis && !g.facts?.notCovered ? basisWords[c.denialBasis] : '',
      g.facts?.notCovered ? `${notCoveredWords(x)} An appeal or fair hearing can argue that the exclusion does not apply to this use; it does not change the exclusion itself.` : '',
      g.facts?.protectedClass ? 'This is a Part D protected class: plans must cover all or substantially all drugs in it, and may use PA or step therapy only for new starts (CMS-4180-F).' : '',
      urgent ? 'Because the need is urgent, ask for an expedited (fast) appeal; the prescriber can ask for it.' : '',
      c.recurring ? `This has been denied before: if ${payerNoun(x.ladder.program)} upholds the denial, go to the next level promptly.` : '',
    ].filter(Boolean).join(' '),
    citations: [...step1.citations, ...ruleCitations(g)],
    confidence: FACT_CONFIDENCE[status],
    ...(caveat ? { caveat } : {}),
  };
}

function explainRequestContinuedBenefits(a: ScoredAction, x: Words): Explained {
  const { ladder, noticeDate, noticeWords } = x;
  const cb = ladder.continuedBenefits!;
  return {
    title: 'Ask for benefits to continue while the appeal is decided',
    deadline: noticeDate ? addDays(noticeDate, cb.days) : null,
    deadline_basis: `${cb.days} calendar days from ${cb.from}: ${noticeWords}.`,
    rationale: `${cb.condition} File the appeal and ask, in the same request, for benefits to continue; ${plural(a.window!.remaining, 'day')} left.`,
    citations: cb.citations,
    confidence: FACT_CONFIDENCE[cb.status],
    ...(cb.status === 'unconfirmed' ? { caveat: UNCONFIRMED_CAVEAT } : {}),
  };
}

function explainSwitchAlternative(_a: ScoredAction, x: Words): Explained {
  const { g, c, baseConfidence, decideBefore } = x;
  const notCovered = g.facts?.notCovered === true;
  return {
    title: notCovered
      ? c.hasAlternative ? 'Switch to a covered alternative' : 'Ask the prescriber about a covered alternative'
      : c.alternativeNoPa ? 'Switch to the alternative that needs no PA' : 'Switch to the clinical alternative',
    ...decideBefore(),
    rationale: [
      notCovered ? notCoveredWords(x) : '',
      notCovered && !c.hasAlternative ? 'Ask whether a drug or service the program does cover meets the clinical need.' : '',
      !c.hasAlternative ? '' : c.alternativeNoPa ? 'A clinical alternative is available without prior authorization, so treatment can start without waiting for a decision.' : 'A clinical alternative exists; it may still need its own PA.',
      c.denialBasis === 'step_therapy' || g.facts?.paType === 'step_therapy' ? 'The payer wants a step-therapy drug tried first; trying the alternative satisfies that step or documents its failure for a later exception.' : '',
      c.denialBasis === 'not_on_formulary' ? 'The requested drug is not on the formulary; a formulary alternative avoids the exception process.' : '',
      'The prescriber decides whether the alternative is clinically appropriate.',
    ].filter(Boolean).join(' '),
    citations: ruleCitations(g),
    confidence: baseConfidence,
  };
}

function explainSwitchPlan(_a: ScoredAction, x: Words): Explained {
  const { q, g, today, c, baseConfidence, what, program } = x;
  return {
    title: 'Switch plans at the next enrollment window',
    deadline: null,
    deadline_basis: 'Enrollment-period dates are not in the verified corpus; confirm the window with the program before relying on it. A plan change takes effect later, not today.',
    rationale: `An enrollment window is near. Compare how other plans in ${q.state} treat ${what} (GET /v1/compare-payers) before choosing${c.recurring ? '; repeat denials make a plan with a different policy worth the change' : ''}.`,
    citations: ruleCitations(g),
    confidence: round2(Math.min(baseConfidence, 0.5)),
  };
}

/**
 * Fee-for-service Medicaid and Original Medicare have no plan: the program (or its contractor) decides, reviews and
 * reimburses. Every sentence that names who to ask takes it from here, for the program that decides (the ladder's:
 * a managed-care rule whose benefit is carved out to fee-for-service is decided by the program, not the plan).
 */
function hasNoPlan(program: Program): boolean {
  return program === 'medicaid_ffs' || program === 'medicare_traditional';
}

function payerNoun(program: Program): string {
  return hasNoPlan(program) ? 'the program' : 'the plan';
}

function explainPayOutOfPocket(_a: ScoredAction, x: Words): Explained {
  const { g, c, baseConfidence, decideBefore } = x;
  const notCovered = g.facts?.notCovered === true;
  const cost = c.costUsd;
  return {
    title: cost === null ? 'Pay out of pocket' : `Pay out of pocket (about ${money(cost)})`,
    ...decideBefore(),
    rationale: [
      notCovered ? `${notCoveredWords(x)} Paying directly is the way to get it without a covered alternative; ask for the price first.` : '',
      cost === null ? '' : notCovered
        ? `The cost given is about ${money(cost)}.`
        : `At about ${money(cost)}, paying directly ${cost <= 100 ? 'is a low-cost way' : cost <= 500 ? 'may be a reasonable way' : 'is an expensive way'} to avoid waiting for a decision.`,
      c.denied ? `It does not replace the appeal: keep receipts and ask ${payerNoun(x.ladder.program)} whether it reimburses if the denial is overturned.` : '',
    ].filter(Boolean).join(' '),
    citations: ruleCitations(g),
    confidence: baseConfidence,
  };
}

function explainEscalate(a: ScoredAction, x: Words): Explained {
  const { c, baseConfidence, what, jurisdiction, decideBefore, ladder } = x;
  const agency = jurisdiction?.medicaidAgency;
  // The state agency oversees what the deciding program is (the ladder's): a dual's drugs decided by the Part D plan are not.
  const medicaid = ['medicaid_mco', 'medicaid_ffs', 'chip', 'dual_eligible'].includes(ladder.program);
  const reviewer = hasNoPlan(ladder.program) ? "the program's reviewing clinician" : "the plan's medical director";
  return {
    title: 'Escalate beyond the first reviewer',
    ...decideBefore(),
    rationale: [
      c.recurring
        ? `Repeat denials for the same need are a pattern worth escalating: ask for a peer-to-peer review with ${reviewer} and file a grievance.`
        : `Ask for a peer-to-peer review between the prescriber and ${reviewer}.`,
      medicaid && agency
        ? hasNoPlan(ladder.program)
          ? `The state agency (${agency.name}) runs the fee-for-service program and takes complaints.`
          : `For a Medicaid or CHIP plan, the state agency (${agency.name}) oversees the plans and takes complaints.`
        : '',
      a.signals.some((s) => s.name === 'appeal_window_missed') ? 'The appeal window has closed; escalation and a new request are what remains.' : '',
    ].filter(Boolean).join(' '),
    citations: [
      ...(medicaid && agency ? [{ title: agency.name, url: agency.url }] : []),
      ...ladder.steps.slice(1).flatMap((s) => s.citations),
    ],
    confidence: round2(Math.min(baseConfidence, 0.6)),
  };
}

function explainWait(a: ScoredAction, x: Words): Explained {
  const { today, waitFor: soon, appealDeadline, baseConfidence } = x;
  const running = a.signals.some((s) => s.name === 'deadline_running');
  return {
    title: 'Wait and reassess',
    deadline: soon ? soon.date : running ? appealDeadline : null,
    deadline_basis: soon
      ? `Reassess when "${soon.title}" takes effect on ${soon.date}.`
      : running
        ? `Waiting past ${appealDeadline} forfeits the first-level appeal.`
        : 'No deadline of its own.',
    rationale: soon
      ? `A relevant change takes effect on ${soon.date} (${plural(soon.days_until, 'day')} away); if the need is not pressing, it may change the answer.${running ? ' The appeal clock keeps running meanwhile.' : ''}`
      : `Nothing forces a move today.${running ? ' The appeal clock keeps running meanwhile.' : ''}`,
    citations: soon?.source_url ? [{ title: soon.title, url: soon.source_url }] : [],
    confidence: round2(Math.min(baseConfidence, 0.5)),
  };
}

const EXPLAIN: Readonly<Record<ActionKind, (a: ScoredAction, x: Words) => Explained>> = {
  proceed: explainProceed,
  submit: explainSubmit,
  appeal: explainAppeal,
  request_continued_benefits: explainRequestContinuedBenefits,
  switch_alternative: explainSwitchAlternative,
  switch_plan: explainSwitchPlan,
  pay_out_of_pocket: explainPayOutOfPocket,
  escalate: explainEscalate,
  wait: explainWait,
};

/** The title, dates, rationale and citations of one ranked action, in plain words. */
export function explain(a: ScoredAction, words: Words): Explained {
  return EXPLAIN[a.kind](a, words);
}
