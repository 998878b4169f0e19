// The action plan (spec 2.9): the rule, the program's appeal ladder, who to call, upcoming change windows and the
// member context, combined into ranked next actions with dates. rank-actions.ts decides the order; this module
// grounds it (which rule, which ladder), turns day counts into dates from `today`, and writes the plain words.
import { toWireEvidence } from '../../domain/evidence.js';
import type { CoverageRuleDoc, JurisdictionDoc, RegulatoryEventDoc } from '../../domain/documents.js';
import { PART_D_PROTECTED_DRUG_CLASSES, PROGRAM_LABELS, subjectLabel, type DrugClass, type PaType, type Program } from '../../domain/vocabulary.js';
import { payerRuleKey, ruleKey, type ReadModel } from '../../corpus/read-model.js';
import { toQueryEcho, type SubjectQuery } from '../lookup.js';
import { formatHours, toPaRule, type PaRule } from '../pa-rule.js';
import type { CodeResolution } from '../../corpus/resolve-code.js';
import { FACT_CONFIDENCE, UNCONFIRMED_CAVEAT, ladderFor, type AppealLadder, type Citation, type FactStatus } from './appeal-ladders.js';
import { rankActions, type ActionKind, type MemberContext, type RuleFacts, type ScoredAction, type Signal, type NotApplicable } from './rank-actions.js';

export interface ActionPlanQuery {
  state: string;
  program: Program;
  subject: SubjectQuery;
  code?: CodeResolution;
  context: MemberContext;
}

/** How far ahead change windows are listed, and how near one must be to make waiting worth a look. */
export const CHANGE_HORIZON_DAYS = 548; // about 18 months
export const WAIT_HORIZON_DAYS = 180;
/** Confidence of a plan that rests on payer-level rules or on the ladder alone. */
export const ESTIMATE_CONFIDENCE = { payerRules: 0.4, ladderOnly: 0.2 } as const;

export type PlanBasis = 'verified_rule' | 'payer_rules_estimate' | 'appeal_ladder_only';

export interface WireCitation {
  title: string;
  url: string | null;
}

export interface RankedActionWire {
  rank: number;
  kind: ActionKind;
  title: string;
  score: number;
  deadline: string | null;
  deadline_basis: string;
  decision_expected_by?: string;
  rationale: string;
  signals: Signal[];
  citations: WireCitation[];
  confidence: number;
  caveat?: string;
}

export interface ContactWire {
  role: string;
  name: string;
  phone?: string;
  fax?: string;
  url?: string;
  hours?: string;
  source: 'rule' | 'jurisdiction' | 'payer';
  payer_id?: string;
}

export interface ChangeWindowWire {
  event_id: number;
  title: string;
  event_kind: string;
  jurisdiction: string;
  date: string;
  date_kind: 'effective' | 'comment_deadline' | 'compliance';
  days_until: number;
  rule_id: string | null;
  source_url: string | null;
}

export interface ActionPlanBody {
  state: string;
  program: Program;
  query: Record<string, string>;
  code_resolution: CodeResolution | null;
  rule: PaRule | null;
  action_plan: {
    ranked_actions: RankedActionWire[];
    primary: RankedActionWire;
    basis: { kind: PlanBasis; summary: string; member_context: Record<string, unknown>; notice_date: string | null; as_of: string };
    contacts: ContactWire[];
    state_specifics: {
      jurisdiction: Record<string, unknown> | null;
      appeal_ladder: Record<string, unknown>;
      appeal_notes: string | null;
      change_windows: ChangeWindowWire[];
    };
    not_applicable: NotApplicable[];
  };
  provenance: {
    verified: boolean;
    basis: PlanBasis;
    label: string;
    confidence: number;
    last_verified: string | null;
    source_url: string | null;
    caveats: string[];
  };
  supporting_criteria: Record<string, unknown>[];
  grounding: 'keyword';
  timestamp: string;
}

export type ActionPlanOutcome = { kind: 'plan'; body: ActionPlanBody } | { kind: 'scope_gap' };

// ---- dates -------------------------------------------------------------------------------------------------
const DAY_MS = 86_400_000;
export const isoDate = (d: Date): string => d.toISOString().slice(0, 10);
export const addDays = (date: string, days: number): string => isoDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS));
const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const round2 = (n: number): number => Math.round(n * 100) / 100;

// ---- grounding -----------------------------------------------------------------------------------------------
interface Grounding {
  basis: PlanBasis;
  rule: CoverageRuleDoc | null;
  payerRules: CoverageRuleDoc[];
  facts: RuleFacts | null;
  confidence: number;
}

function majority<T>(values: readonly T[]): T {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = values[0] as T;
  for (const [v, n] of counts) if (n > (counts.get(best) ?? 0)) best = v;
  return best;
}

function isProtectedClass(q: ActionPlanQuery): boolean {
  return q.program === 'part_d' && q.subject.kind === 'drug' && PART_D_PROTECTED_DRUG_CLASSES.includes(q.subject.code as DrugClass);
}

function ground(model: ReadModel, q: ActionPlanQuery): Grounding | null {
  const { state, program, subject } = q;
  const rule = model.rules.get(ruleKey(state, program, subject.kind, subject.code)) ?? null;
  const payerRules = (model.payerRules.get(payerRuleKey(state, subject.kind, subject.code)) ?? []).filter((r) => r.program === program);
  const protectedClass = isProtectedClass(q);
  if (rule) {
    const r = rule.requirement;
    return {
      basis: 'verified_rule',
      rule,
      payerRules,
      facts: { paRequired: r.paRequired, paType: r.paType, newStartsOnly: r.newStartsOnly === true, protectedClass },
      confidence: rule.verification.confidence,
    };
  }
  if (payerRules.length) {
    // Conservative on a tie: PA required.
    const yes = payerRules.filter((p) => p.requirement.paRequired).length;
    const paRequired = yes * 2 >= payerRules.length;
    const types = payerRules.filter((p) => p.requirement.paRequired === paRequired).map((p) => p.requirement.paType);
    return {
      basis: 'payer_rules_estimate',
      rule: null,
      payerRules,
      facts: { paRequired, paType: majority<PaType>(types), newStartsOnly: payerRules.every((p) => p.requirement.newStartsOnly === true), protectedClass },
      confidence: ESTIMATE_CONFIDENCE.payerRules,
    };
  }
  if (q.context.denied) return { basis: 'appeal_ladder_only', rule: null, payerRules, facts: null, confidence: ESTIMATE_CONFIDENCE.ladderOnly };
  return null; // nothing can say whether PA is needed: a scope gap
}

// ---- change windows ------------------------------------------------------------------------------------------
function relevant(e: RegulatoryEventDoc, q: ActionPlanQuery): boolean {
  if (!e.paRelevant) return false;
  if (e.jurisdiction !== q.state && e.jurisdiction !== 'US') return false;
  if (e.programs?.length && !e.programs.includes(q.program)) return false;
  if (e.subjects?.length && !e.subjects.some((s) => s.kind === q.subject.kind && s.code === q.subject.code)) return false;
  return true;
}

export function changeWindows(events: readonly RegulatoryEventDoc[], q: ActionPlanQuery, today: string): ChangeWindowWire[] {
  const horizon = addDays(today, CHANGE_HORIZON_DAYS);
  const out: ChangeWindowWire[] = [];
  for (const e of events) {
    if (!relevant(e, q)) continue;
    const candidates: [string | null | undefined, ChangeWindowWire['date_kind']][] = [
      [e.effectiveAt, 'effective'],
      [e.commentDeadline, 'comment_deadline'],
      [e.mmcComplianceAt !== e.effectiveAt ? e.mmcComplianceAt : null, 'compliance'],
    ];
    for (const [date, kind] of candidates) {
      if (!date || date <= today || date > horizon) continue;
      out.push({
        event_id: e.id,
        title: e.title,
        event_kind: e.eventKind,
        jurisdiction: e.jurisdiction,
        date,
        date_kind: kind,
        days_until: daysBetween(today, date),
        rule_id: e.ruleId ?? null,
        source_url: e.sourceUrl ?? null,
      });
    }
  }
  out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.event_id - b.event_id));
  return out.slice(0, 10);
}

// ---- contacts ------------------------------------------------------------------------------------------------
function contactsFor(model: ReadModel, q: ActionPlanQuery, g: Grounding, j: JurisdictionDoc | undefined): ContactWire[] {
  const out: ContactWire[] = [];
  const clean = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  if (g.rule && g.rule.submission.channel !== 'none') {
    const s = g.rule.submission;
    out.push(clean({ role: 'pa_submission', name: s.target, phone: s.phone, fax: s.fax, url: s.url, source: 'rule' as const }));
  }
  // Jurisdiction documents mix Medicaid agency contacts with Original Medicare ones (WISeR). Contacts carry no
  // program, so the name decides: Original Medicare contacts only for Traditional Medicare, Medicaid agency
  // contacts not for the Medicare-only programs.
  const originalMedicare = (c: { name: string }): boolean => /original medicare|wiser/i.test(c.name);
  const medicaidAgency = (c: { name: string }): boolean => /medicaid/i.test(c.name) || (j !== undefined && c.name.startsWith(j.medicaidAgency.name));
  const medicareOnly = q.program === 'medicare_advantage' || q.program === 'part_d' || q.program === 'medicare_traditional';
  for (const c of j?.contacts ?? []) {
    if (originalMedicare(c) && q.program !== 'medicare_traditional') continue;
    if (medicareOnly && !originalMedicare(c) && medicaidAgency(c)) continue;
    out.push(clean({ ...c, source: 'jurisdiction' as const }));
  }
  const payers = [...model.payers.values()]
    .filter((p) => p.jurisdictions.includes(q.state) && p.programs.includes(q.program))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'))
    .slice(0, 10);
  for (const p of payers) for (const c of p.contacts) out.push(clean({ ...c, source: 'payer' as const, payer_id: p.id }));
  // After a denial, the people who take appeals come first.
  const first = (c: ContactWire): number => (q.context.denied && /appeal|hearing|grievance|ombuds/.test(c.role) ? 0 : c.role === 'pa_submission' ? 1 : 2);
  return out.map((c, i) => [c, i] as const).sort((a, b) => first(a[0]) - first(b[0]) || a[1] - b[1]).map(([c]) => c);
}

// ---- the wire ladder -----------------------------------------------------------------------------------------
const withCaveat = (status: FactStatus): { status: FactStatus; confidence: number; caveat?: string } => ({
  status,
  confidence: FACT_CONFIDENCE[status],
  ...(status === 'unconfirmed' ? { caveat: UNCONFIRMED_CAVEAT } : {}),
});

function ladderWire(ladder: AppealLadder, noticeDate: string | null): Record<string, unknown> {
  return {
    program: ladder.program,
    summary: ladder.summary,
    status: ladder.status,
    steps: ladder.steps.map((s) => ({
      level: s.level,
      name: s.name,
      automatic: s.automatic === true,
      filing_window_days: s.filing?.days ?? null,
      filing_from: s.filing?.from ?? null,
      // Only the first level's date can be computed: later levels count from a notice that does not exist yet.
      filing_deadline: s.level === 1 && s.filing && noticeDate ? addDays(noticeDate, s.filing.days) : null,
      decision: {
        standard: s.decision.standard ? { text: s.decision.standard.text, status: s.decision.standard.status } : null,
        expedited: s.decision.expedited ? { text: s.decision.expedited.text, status: s.decision.expedited.status } : null,
      },
      ...(s.filing ? withCaveat(s.filing.status) : { status: ladder.status, confidence: FACT_CONFIDENCE[ladder.status] }),
      citations: s.citations,
    })),
    continued_benefits: ladder.continuedBenefits
      ? {
          window_days: ladder.continuedBenefits.days,
          from: ladder.continuedBenefits.from,
          condition: ladder.continuedBenefits.condition,
          deadline: noticeDate ? addDays(noticeDate, ladder.continuedBenefits.days) : null,
          ...withCaveat(ladder.continuedBenefits.status),
          citations: ladder.continuedBenefits.citations,
        }
      : null,
    notes: ladder.notes ?? null,
  };
}

// ---- words ---------------------------------------------------------------------------------------------------
interface WordsInput {
  q: ActionPlanQuery;
  g: Grounding;
  ladder: AppealLadder;
  today: string;
  noticeDate: string | null;
  changes: ChangeWindowWire[];
  jurisdiction: JurisdictionDoc | undefined;
}

const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
const money = (n: number): string => `$${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

function ruleCitations(g: Grounding): WireCitation[] {
  if (g.rule) return [{ title: g.rule.source.title, url: g.rule.source.url, ...(g.rule.evidence?.length ? { evidence: toWireEvidence(g.rule) } : {}) }];
  return g.payerRules.slice(0, 3).map((r) => ({ title: `${r.payer!.name}: ${r.source.title}`, url: r.source.url }));
}

function subjectWords(q: ActionPlanQuery): string {
  return subjectLabel(q.subject.kind, q.subject.code);
}

function explain(a: ScoredAction, w: WordsInput): Omit<RankedActionWire, 'rank' | 'kind' | 'score' | 'signals'> {
  const { q, g, ladder, today, noticeDate, changes } = w;
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

  switch (a.kind) {
    case 'proceed': {
      const newStarts = g.facts?.newStartsOnly && g.facts.paRequired;
      return {
        title: newStarts ? 'Proceed without PA if the member is continuing therapy' : 'Proceed: no prior authorization needed',
        deadline: null,
        deadline_basis: 'No deadline: nothing has to be filed.',
        rationale: newStarts
          ? `The ${program} restriction for ${what} applies to new starts only. A member already on the drug continues without a new PA; for a new start, submit the request instead.`
          : `${program} in ${q.state} does not require prior authorization for ${what}. Keep the clinical documentation with the record for the claim.`,
        citations: ruleCitations(g),
        confidence: baseConfidence,
      };
    }
    case 'submit': {
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
        title: urgent ? 'Submit the prior authorization request and ask for an expedited decision' : pa?.paType === 'notification_only' ? 'Send the notification to the payer' : 'Submit the prior authorization request',
        deadline: null,
        deadline_basis: expectBy
          ? `No filing deadline: submit before the service or fill. Submitted today, a decision is due by ${expectBy} (${urgent ? 'expedited' : 'standard'}: ${formatHours(hours!)}${t?.basis ? `; ${t.basis}` : ''}).`
          : 'No filing deadline: submit before the service or fill.',
        ...(expectBy ? { decision_expected_by: expectBy } : {}),
        rationale: pa
          ? `${program} in ${q.state} requires prior authorization (${pa.paType.replace(/_/g, ' ')}) for ${what}.${g.rule ? ` Submit to ${g.rule.submission.target}.` : ''}${pa.newStartsOnly ? ' The requirement applies to new starts only.' : ''}${g.basis === 'payer_rules_estimate' ? ' This is estimated from the plans\' own rules; the program-level rule is not verified yet.' : ''}`
          : `No verified rule says whether ${what} needs prior authorization here; ask the payer or submit to be safe.`,
        citations: ruleCitations(g),
        confidence: baseConfidence,
      };
    }
    case 'appeal': {
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
          ? `${f.days} calendar days from ${f.from}: ${noticeWords}.${urgent && exp ? ` Expedited decision: ${exp.text} after the plan gets the request.` : std ? ` Standard decision: ${std.text}.` : ''}`
          : `The filing window is not fixed federally for ${program}; use the deadline printed on the notice.`,
        ...(expectBy ? { decision_expected_by: expectBy } : {}),
        rationale: [
          a.window ? `The appeal window is open: ${plural(a.window.remaining, 'day')} left.` : 'Appeal through the state process.',
          c.denialBasis ? basisWords[c.denialBasis] : '',
          g.facts?.protectedClass ? 'This is a Part D protected class: plans must cover all or substantially all drugs in it, and may use PA or step therapy only for new starts (CMS-4180-F).' : '',
          urgent ? 'Because the need is urgent, ask for an expedited (fast) appeal; the prescriber can ask for it.' : '',
          c.recurring ? 'This has been denied before: if the plan upholds the denial, go to the next level promptly.' : '',
        ].filter(Boolean).join(' '),
        citations: [...step1.citations, ...ruleCitations(g)],
        confidence: FACT_CONFIDENCE[status],
        ...(caveat ? { caveat } : {}),
      };
    }
    case 'request_continued_benefits': {
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
    case 'switch_alternative':
      return {
        title: c.alternativeNoPa ? 'Switch to the alternative that needs no PA' : 'Switch to the clinical alternative',
        ...decideBefore(),
        rationale: [
          c.alternativeNoPa ? 'A clinical alternative is available without prior authorization, so treatment can start without waiting for a decision.' : 'A clinical alternative exists; it may still need its own PA.',
          c.denialBasis === 'step_therapy' || g.facts?.paType === 'step_therapy' ? 'The payer wants a step-therapy drug tried first; trying the alternative satisfies that step or documents its failure for a later exception.' : '',
          c.denialBasis === 'not_on_formulary' ? 'The requested drug is not on the formulary; a formulary alternative avoids the exception process.' : '',
          'The prescriber decides whether the alternative is clinically appropriate.',
        ].filter(Boolean).join(' '),
        citations: ruleCitations(g),
        confidence: baseConfidence,
      };
    case 'switch_plan':
      return {
        title: 'Switch plans at the next enrollment window',
        deadline: null,
        deadline_basis: 'Enrollment-period dates are not in the verified corpus; confirm the window with the program before relying on it. A plan change takes effect later, not today.',
        rationale: `An enrollment window is near. Compare how other plans in ${q.state} treat ${what} (GET /v1/compare-payers) before choosing${c.recurring ? '; repeat denials make a plan with a different policy worth the change' : ''}.`,
        citations: ruleCitations(g),
        confidence: round2(Math.min(baseConfidence, 0.5)),
      };
    case 'pay_out_of_pocket':
      return {
        title: `Pay out of pocket (about ${money(c.costUsd!)})`,
        ...decideBefore(),
        rationale: [
          `At about ${money(c.costUsd!)}, paying directly ${c.costUsd! <= 100 ? 'is a low-cost way' : c.costUsd! <= 500 ? 'may be a reasonable way' : 'is an expensive way'} to avoid waiting for a decision.`,
          c.denied ? 'It does not replace the appeal: keep receipts and ask the plan whether it reimburses if the denial is overturned.' : '',
        ].filter(Boolean).join(' '),
        citations: ruleCitations(g),
        confidence: baseConfidence,
      };
    case 'escalate': {
      const agency = w.jurisdiction?.medicaidAgency;
      const medicaid = q.program === 'medicaid_mco' || q.program === 'medicaid_ffs' || q.program === 'chip' || q.program === 'dual_eligible';
      return {
        title: 'Escalate beyond the first reviewer',
        ...decideBefore(),
        rationale: [
          c.recurring ? 'Repeat denials for the same need are a pattern worth escalating: ask for a peer-to-peer review with the plan\'s medical director and file a grievance.' : 'Ask for a peer-to-peer review between the prescriber and the plan\'s medical director.',
          medicaid && agency ? `For a Medicaid or CHIP plan, the state agency (${agency.name}) oversees the plans and takes complaints.` : '',
          a.signals.some((s) => s.name === 'appeal_window_missed') ? 'The appeal window has closed; escalation and a new request are what remains.' : '',
        ].filter(Boolean).join(' '),
        citations: [
          ...(medicaid && agency ? [{ title: agency.name, url: agency.url }] : []),
          ...ladder.steps.slice(1).flatMap((s) => s.citations),
        ],
        confidence: round2(Math.min(baseConfidence, 0.6)),
      };
    }
    case 'wait': {
      const soon = changes.find((x) => x.days_until <= WAIT_HORIZON_DAYS);
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
  }
}

// ---- the plan ------------------------------------------------------------------------------------------------
function supportingCriteria(q: ActionPlanQuery, g: Grounding): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (g.rule) {
    const r = g.rule.requirement;
    out.push({ kind: 'criteria', text: r.criteria, source_url: g.rule.source.url });
    for (const d of r.documentation) out.push({ kind: 'documentation', text: d, source_url: g.rule.source.url });
    if (r.stepTherapy) out.push({ kind: 'step_therapy', text: r.stepTherapy, source_url: g.rule.source.url });
    if (r.quantityLimit) out.push({ kind: 'quantity_limit', text: r.quantityLimit, source_url: g.rule.source.url });
  }
  if (g.facts?.protectedClass) {
    out.push({
      kind: 'federal_protection',
      text: 'Part D protected class (42 U.S.C. 1395w-104(b)(3)(G)): plans must cover all or substantially all drugs in the class; CMS-4180-F (May 2019) allows PA and step therapy only for new starts.',
      source_url: null,
    });
    if (q.subject.code === 'hiv_antiretrovirals') {
      out.push({ kind: 'caveat', text: 'Whether antiretrovirals are carved out of PA and step therapy entirely is unconfirmed in the service reference ([M]).', source_url: null });
    }
  }
  for (const p of g.payerRules.slice(0, 10)) {
    out.push({
      kind: 'payer_rule',
      payer: p.payer,
      pa_required: p.requirement.paRequired,
      pa_type: p.requirement.paType,
      text: p.requirement.criteria,
      source_url: p.source.url,
    });
  }
  return out;
}

function provenance(g: Grounding, q: ActionPlanQuery, ladder: AppealLadder): ActionPlanBody['provenance'] {
  const caveats: string[] = [];
  if (g.rule?.verification.caveat) caveats.push(g.rule.verification.caveat);
  const unconfirmed = ladder.steps.some((s) => s.filing?.status === 'unconfirmed') || ladder.continuedBenefits?.status === 'unconfirmed';
  if (unconfirmed && q.context.denied) caveats.push(`Some ${PROGRAM_LABELS[q.program]} appeal deadlines are unconfirmed ([M]); they are served with confidence ${FACT_CONFIDENCE.unconfirmed}.`);
  const what = subjectWords(q);
  if (g.basis === 'verified_rule') {
    // A served rule is verified or sample (illustrative / not fully confirmed): say which.
    const verified = g.rule!.verification.status === 'verified';
    return {
      verified,
      basis: g.basis,
      label: verified
        ? `Verified: the ${q.state} ${PROGRAM_LABELS[q.program]} rule for ${what} was checked against its official source on ${g.rule!.verification.lastVerified}.`
        : `Sample: the ${q.state} ${PROGRAM_LABELS[q.program]} rule for ${what} is a sample rule (illustrative or not fully confirmed, compiled ${g.rule!.verification.lastVerified}); confirm it against its source.`,
      confidence: g.confidence,
      last_verified: g.rule!.verification.lastVerified,
      source_url: g.rule!.source.url,
      caveats,
    };
  }
  if (g.basis === 'payer_rules_estimate') {
    const latest = g.payerRules.reduce((a, b) => (b.verification.lastVerified > a.verification.lastVerified ? b : a));
    caveats.push('No verified program-level rule; the PA requirement is estimated from payer-level rules.');
    return {
      verified: false,
      basis: g.basis,
      label: `Estimate: no verified program-level rule for ${what}; inferred from ${plural(g.payerRules.length, 'payer-level rule')} of ${PROGRAM_LABELS[q.program]} plans in ${q.state}.`,
      confidence: g.confidence,
      last_verified: latest.verification.lastVerified,
      source_url: latest.source.url,
      caveats,
    };
  }
  caveats.push('No verified rule for this subject; only the program appeal ladder grounds the plan.');
  return {
    verified: false,
    basis: g.basis,
    label: `Estimate: no verified rule for ${what} in ${q.state} ${PROGRAM_LABELS[q.program]}; the plan rests on the program's federal appeal ladder only.`,
    confidence: g.confidence,
    last_verified: null,
    source_url: null,
    caveats,
  };
}

function contextEcho(c: MemberContext): Record<string, unknown> {
  return {
    denied: c.denied,
    denial_basis: c.denialBasis,
    denial_days_ago: c.denialDaysAgo,
    urgency: c.urgency,
    drug_cost_usd: c.costUsd,
    has_alternative: c.hasAlternative,
    alternative_no_pa: c.alternativeNoPa,
    open_enrollment_near: c.openEnrollmentNear,
    recurring: c.recurring,
  };
}

export function buildActionPlan(model: ReadModel, q: ActionPlanQuery, now: Date): ActionPlanOutcome {
  const g = ground(model, q);
  if (!g) return { kind: 'scope_gap' };
  const today = isoDate(now);
  const ladder = ladderFor(q.program);
  const noticeDate = q.context.denied ? addDays(today, -(q.context.denialDaysAgo ?? 0)) : null;
  const changes = changeWindows(model.events, q, today);
  const jurisdiction = model.jurisdictions.get(q.state);

  const ranking = rankActions({
    program: q.program,
    rule: g.facts,
    ladder,
    context: q.context,
    upcomingChange: changes.some((x) => x.days_until <= WAIT_HORIZON_DAYS),
  });
  const words: WordsInput = { q, g, ladder, today, noticeDate, changes, jurisdiction };
  const ranked: RankedActionWire[] = ranking.ranked.map((a) => {
    const e = explain(a, words);
    return {
      rank: a.rank,
      kind: a.kind,
      title: e.title,
      score: a.score,
      deadline: e.deadline,
      deadline_basis: e.deadline_basis,
      ...(e.decision_expected_by ? { decision_expected_by: e.decision_expected_by } : {}),
      rationale: e.rationale,
      signals: a.signals,
      citations: e.citations,
      confidence: e.confidence,
      ...(e.caveat ? { caveat: e.caveat } : {}),
    };
  });

  const prov = provenance(g, q, ladder);
  const primary = ranked[0]!;
  const body: ActionPlanBody = {
    state: q.state,
    program: q.program,
    query: q.code ? { ...toQueryEcho(q.subject), code: q.code.code } : toQueryEcho(q.subject),
    code_resolution: q.code ?? null,
    rule: g.rule ? toPaRule(g.rule) : null,
    action_plan: {
      ranked_actions: ranked,
      primary,
      basis: {
        kind: g.basis,
        summary: `${primary.title}. ${prov.label}`,
        member_context: contextEcho(q.context),
        notice_date: noticeDate,
        as_of: today,
      },
      contacts: contactsFor(model, q, g, jurisdiction),
      state_specifics: {
        jurisdiction: jurisdiction
          ? {
              id: jurisdiction.id,
              name: jurisdiction.name,
              medicaid_agency: jurisdiction.medicaidAgency,
              medicaid_program_name: jurisdiction.medicaidProgramName ?? null,
              chip_program_name: jurisdiction.chipProgramName ?? null,
              flags: {
                medicaid_expansion: jurisdiction.flags.medicaidExpansion,
                ffs_dominant: jurisdiction.flags.ffsDominant,
                wiser: jurisdiction.flags.wiser,
              },
            }
          : null,
        appeal_ladder: ladderWire(ladder, noticeDate),
        appeal_notes: jurisdiction?.appealNotes ?? null,
        change_windows: changes,
      },
      not_applicable: ranking.not_applicable,
    },
    provenance: prov,
    supporting_criteria: supportingCriteria(q, g),
    grounding: 'keyword',
    timestamp: now.toISOString(),
  };
  return { kind: 'plan', body };
}
