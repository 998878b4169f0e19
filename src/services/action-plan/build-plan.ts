// The action plan (spec 2.9): the rule, the program's appeal ladder, who to call, upcoming change windows and the
// member context, combined into ranked next actions with dates. rank-actions.ts decides the order; this module
// grounds it (which rule, which ladder), turns day counts into dates from `today`, and writes the plain words.
import type { JurisdictionDoc, RegulatoryEventDoc } from '../../domain/documents.js';
import {
  ANSWER_CHANGING_EFFECTS,
  PART_D_PROTECTED_DRUG_CLASSES,
  PROGRAM_LABELS,
  type DrugClass,
  type PaType,
} from '../../domain/vocabulary.js';
import { payerRuleKey, ruleKey, type ReadModel } from '../../corpus/read-model.js';
import { toQueryEcho } from '../lookup.js';
import { outsideFor } from '../../corpus/program-gap.js';
import { offersVoluntaryPa, toPaRule } from '../pa-rule.js';
import { isNotCovered } from '../../domain/coverage-exclusion.js';
import {
  FACT_CONFIDENCE,
  UNCONFIRMED_CAVEAT,
  ladderOf,
  type AppealLadder,
  type FactStatus,
} from './appeal-ladders.js';
import { isoDate, addDays, daysBetween } from '../../domain/time.js';
import {
  CHANGE_HORIZON_DAYS,
  ESTIMATE_CONFIDENCE,
  WAIT_HORIZON_DAYS,
  type ActionPlanBody,
  type ActionPlanOutcome,
  type ActionPlanQuery,
  type ChangeWindowWire,
  type ContactWire,
  type Grounding,
  type RankedActionWire,
} from './plan-types.js';
import { explain, plural, subjectWords, wordsOf } from './explain.js';
import { rankActions, type MemberContext } from './rank-actions.js';

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
  // Outside the program (an MRI under Part D; managed care where the state runs none): no rule, no appeal ladder.
  if (outsideFor(model, q)) return null;
  const rule = model.rules.get(ruleKey(state, program, subject.kind, subject.code)) ?? null;
  const payerRules = (model.payerRules.get(payerRuleKey(state, subject.kind, subject.code)) ?? []).filter((r) => r.program === program);
  const protectedClass = isProtectedClass(q);
  if (rule) {
    const r = rule.requirement;
    return {
      basis: 'verified_rule',
      rule,
      payerRules,
      facts: { paRequired: r.paRequired, paType: r.paType, newStartsOnly: r.newStartsOnly === true, protectedClass, voluntary: offersVoluntaryPa(rule), notCovered: isNotCovered(rule) },
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
/** An event concerns the plan when it is PA-relevant and applies to the state, the program and the subject. */
function relevant(e: RegulatoryEventDoc, q: ActionPlanQuery): boolean {
  if (!e.paRelevant) return false;
  if (e.jurisdiction !== q.state && e.jurisdiction !== 'US') return false;
  if (e.programs?.length && !e.programs.includes(q.program)) return false;
  if (e.subjectKinds?.length && !e.subjectKinds.includes(q.subject.kind)) return false; // CMS-0057-F: not drugs
  if (e.subjects?.length && !e.subjects.some((s) => s.kind === q.subject.kind && s.code === q.subject.code)) return false;
  return true;
}

/**
 * A date can change the PA answer when the event changes the PA requirement or how the request is decided (not an
 * API go-live, a reporting date or an announcement) and the date is when it takes effect (not a comment deadline).
 */
const changesTheAnswer = (e: RegulatoryEventDoc, kind: ChangeWindowWire['date_kind']): boolean =>
  kind !== 'comment_deadline' && !!e.paEffect && ANSWER_CHANGING_EFFECTS.includes(e.paEffect);

/** The change worth waiting for: the first window within WAIT_HORIZON_DAYS that can change the answer. */
export const waitWindow = (changes: readonly ChangeWindowWire[]): ChangeWindowWire | null =>
  changes.find((x) => x.changes_answer && x.days_until <= WAIT_HORIZON_DAYS) ?? null;

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
        pa_effect: e.paEffect ?? null,
        changes_answer: changesTheAnswer(e, kind),
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

// ---- the plan ------------------------------------------------------------------------------------------------
function supportingCriteria(q: ActionPlanQuery, g: Grounding): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (g.rule) {
    const r = g.rule.requirement;
    out.push({ kind: 'criteria', text: r.criteria, source_url: g.rule.source.url });
    if (r.exclusion) out.push({ kind: 'exclusion', text: `Not covered: ${r.exclusion.reason} (${r.exclusion.citation})`, source_url: g.rule.source.url });
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
  const ladder = ladderOf(model, q, g.rule);
  const noticeDate = q.context.denied ? addDays(today, -(q.context.denialDaysAgo ?? 0)) : null;
  const changes = changeWindows(model.events, q, today);
  const waitFor = waitWindow(changes);
  const jurisdiction = model.jurisdictions.get(q.state);

  const ranking = rankActions({
    program: q.program,
    rule: g.facts,
    ladder,
    context: q.context,
    upcomingChange: waitFor !== null,
  });
  const words = wordsOf({ q, g, ladder, today, noticeDate, waitFor, jurisdiction });
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
