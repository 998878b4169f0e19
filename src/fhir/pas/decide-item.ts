// PAS item decisions from our rules; pure (the caller passes the read model and the clock):
//   rule excludes the subject            -> A3 (not certified) with the exclusion as the reason
//   rule, PA not required               -> A1 (certified in total) + a note that no PA was needed
//   rule, PA required, documentation in -> A1 with a certification period (itemPreAuthPeriod)
//   rule, PA required, documentation out-> A4 (pended) naming the documentation still missing
//   subject outside the program's benefit (an MRI under Part D) -> A3, naming the programs to submit to instead
//   subject known, no rule              -> A4 (pended for manual review; a data gap is never a denial)
//   a program the state does not run    -> A4 (pended), naming the program to submit to instead
//   rule for an age group the patient is outside of -> A4 (pended: no verified rule decides it)
//   no code we can map                  -> A4 (pended for manual review) + a note asking for a CPT/HCPCS/RxNorm code
import { citationLine } from '../../domain/evidence.js';
import type { ReadModel } from '../../corpus/read-model.js';
import type { CoverageRuleDoc } from '../../domain/documents.js';
import { PAS_EXT, type ReviewActionCode } from '../../../fhir-profiles/canonicals.js';
import { isoDate } from '../../domain/time.js';
import type { Claim, ClaimItem, Resource } from '../r4.js';
import { isOrder, type Lookup } from '../resolve/lookup.js';
import { orderCodings, resolveRule } from '../resolve/rule-for-codes.js';
import type { CoverageContext } from '../resolve/coverage-context.js';
import type { PasRequest } from './request.js';
import { programNotRun } from '../../corpus/program-gap.js';
import { outsideProgram } from '../../domain/program-scope.js';
import { ageOutside } from '../../domain/population.js';

export type ItemAction = ReviewActionCode | 'cancelled';

export interface ItemDecision {
  sequence: number;
  action: ReviewActionCode;
  ruleId?: string;
  notes: string[];
  /** A4: the rule's documentation items not yet attached. */
  missing?: string[];
  /** A4 under a rule: the path (under the service base) of the rule's DTR Questionnaire, which asks for them. */
  questionnairePath?: string;
  /** A1 after review: the certified period (YYYY-MM-DD). */
  certification?: { start: string; end: string };
  /** The rule's decision clock, hours (standard, expedited). */
  turnaround?: { standardHours: number; expeditedHours: number };
  /** Drug or service, when the code resolved to a subject (CMS-0057-F metrics leave drugs out). */
  subjectKind?: 'drug' | 'service';
}

/** Our choice where the request names no service period: a certification runs 90 days from the decision. */
export const DEFAULT_CERTIFICATION_DAYS = 90;

function itemCodings(item: ClaimItem, lookup: Lookup, claim: Claim) {
  const requested = (item.extension ?? [])
    .filter((e) => e.url === PAS_EXT.requestedService)
    .map((e) => lookup(e.valueReference, claim))
    .filter(isOrder)
    .flatMap((o) => orderCodings(o, lookup));
  return [...(item.productOrService?.coding ?? []), ...requested];
}

const norm = (s: string | undefined): string => (s ?? '').toLowerCase().replace(/\s+/g, ' ').trim();

interface QrItem {
  linkId?: string;
  answer?: { valueBoolean?: boolean }[];
  item?: QrItem[];
}
function answeredTrue(items: QrItem[] | undefined, out = new Set<string>()): Set<string> {
  for (const it of items ?? []) {
    if (it.linkId && (it.answer ?? []).some((a) => a.valueBoolean === true)) out.add(it.linkId);
    answeredTrue(it.item, out);
  }
  return out;
}

/**
 * Which of the rule's documentation items the request carries, from what Claim.supportingInfo references: a DTR
 * QuestionnaireResponse (completed or amended) to this rule's questionnaire answering `documentation.N` true, or
 * a DocumentReference whose description, type or attachment title names the item.
 */
export function attachedDocumentation(req: PasRequest, rule: CoverageRuleDoc): Set<string> {
  const docs = rule.requirement.documentation;
  const have = new Set<string>();
  const questionnairePath = `/dtr/questionnaire/${rule.jurisdiction}/${rule.program}/${rule.subject.code}`.toLowerCase();
  for (const info of req.claim.supportingInfo ?? []) {
    const r = req.lookup(info.valueReference, req.claim) as (Resource & Record<string, unknown>) | undefined;
    if (!r) continue;
    if (r.resourceType === 'QuestionnaireResponse') {
      const qr = r as unknown as { status?: string; questionnaire?: string; item?: QrItem[] };
      if (!['completed', 'amended'].includes(qr.status ?? '') || !(qr.questionnaire ?? '').toLowerCase().split('|')[0]!.endsWith(questionnairePath)) continue;
      const yes = answeredTrue(qr.item);
      docs.forEach((d, i) => yes.has(`documentation.${i + 1}`) && have.add(d));
    } else if (r.resourceType === 'DocumentReference') {
      const dr = r as unknown as { status?: string; description?: string; type?: { text?: string; coding?: { display?: string }[] }; content?: { attachment?: { title?: string } }[] };
      if (dr.status && dr.status !== 'current') continue;
      const labels = [dr.description, dr.type?.text, ...(dr.type?.coding ?? []).map((c) => c.display), ...(dr.content ?? []).map((c) => c.attachment?.title)].map(norm).filter(Boolean);
      for (const d of docs) if (labels.some((l) => l === norm(d) || l.startsWith(`${norm(d)}:`))) have.add(d);
    }
  }
  return have;
}

/** The certified period of an approved item: its service period, else 90 days from its service date or today. */
export function certificationPeriod(item: ClaimItem | undefined, now: Date): { start: string; end: string } {
  const p = item?.servicedPeriod;
  if (p?.start && p.end) return { start: p.start.slice(0, 10), end: p.end.slice(0, 10) };
  const start = item?.servicedDate?.slice(0, 10) ?? p?.start?.slice(0, 10) ?? isoDate(now);
  const end = new Date(`${start}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + DEFAULT_CERTIFICATION_DAYS);
  return { start, end: isoDate(end) };
}

export function decideItem(model: ReadModel, req: PasRequest, item: ClaimItem, cc: { state: string; program: CoverageContext['program'] & string; payer?: CoverageContext['payer'] }, now: Date): ItemDecision {
  const sequence = item.sequence;
  const res = resolveRule(model, cc, itemCodings(item, req.lookup, req.claim));
  if (res.kind === 'unmapped') {
    const codes = res.codings.map((c) => c.code).filter(Boolean).join(', ') || 'none';
    return { sequence, action: 'A4', notes: [`Pended for manual review: the service codes (${codes}) are not in our CPT/HCPCS/RxNorm code lists, so no rule could be applied automatically. Resubmit with a CPT, HCPCS or RxNorm code for an automated answer.`] };
  }
  if (res.kind === 'no-rule') {
    const what = `${cc.state} ${cc.program} ${res.subject.kind} '${res.subject.code}'`;
    // Outside the program's benefit (an MRI under Part D): not certified under this program, as CRD says not-covered.
    const benefit = outsideProgram(cc.program, res.subject);
    if (benefit) return { sequence, action: 'A3', subjectKind: res.subject.kind, notes: [`Not certified: no rule will exist for ${what}. ${benefit.reason} Submit to ${benefit.try_programs.join(' or ')} instead.`] };
    // A program the state does not run: the request names the wrong program; pended, saying where to submit.
    const notRun = programNotRun(model, cc.state, cc.program);
    return {
      sequence, action: 'A4', subjectKind: res.subject.kind,
      notes: [notRun
        ? `Pended: no rule will exist for ${what}. ${notRun.reason} Submit to ${notRun.try_programs.join(' or ')} instead.`
        : `Pended for manual review: no verified rule yet for ${what}.`],
    };
  }
  const r = res.rule;
  // A rule limited to an age group speaks only for it: a patient outside it is pended, never decided by that rule.
  const patient = req.lookup(req.claim.patient, req.claim) as { birthDate?: unknown } | undefined;
  const age = ageOutside(r.requirement.ages, patient?.birthDate, isoDate(now));
  if (age !== undefined) {
    return { sequence, action: 'A4', subjectKind: r.subject.kind, notes: [`Pended for manual review: the verified rule ${r.id} applies to ${r.requirement.population} only; this patient (age ${age}) is outside it, so no verified rule decides this item.`] };
  }
  const base = { sequence, ruleId: r.id, subjectKind: r.subject.kind, turnaround: { standardHours: r.turnaround.standardHours, expeditedHours: r.turnaround.expeditedHours } };
  const d = underRule(req, item, r, base, now);
  // A rule limited to a population the request cannot show (D-SNP or MA-PD enrollment) says so on the item.
  if (r.requirement.population) d.notes.push(`Rule ${r.id} applies to ${r.requirement.population} only; the source claims nothing for other members.`);
  return d;
}

/** The decision under a rule that speaks for this item. */
function underRule(req: PasRequest, item: ClaimItem, r: CoverageRuleDoc, base: Pick<ItemDecision, 'sequence' | 'ruleId' | 'subjectKind' | 'turnaround'>, now: Date): ItemDecision {
  if (r.requirement.exclusion) {
    return { ...base, action: 'A3', notes: [`Not certified: ${r.requirement.exclusion.reason} (${r.requirement.exclusion.citation}; rule ${r.id}).`] };
  }
  if (!r.requirement.paRequired) {
    return { ...base, action: 'A1', notes: [`Prior authorization is not required (rule ${r.id}; ${citationLine(r)}). Certified: no review was needed.`] };
  }
  const docs = r.requirement.documentation;
  if (!docs.length) {
    // The rule's sources list no documents: nothing can be checked off, and none is invented; the payer reviews it.
    return {
      ...base,
      action: 'A4',
      questionnairePath: `/v1/dtr/questionnaire/${r.jurisdiction}/${r.program}/${r.subject.code}`,
      notes: [
        `Pended for review under rule ${r.id} (${citationLine(r)}). The rule's sources list no documents for this request; the payer says what to send.`,
        ...(r.requirement.criteria ? [`Criteria: ${r.requirement.criteria}`] : []),
      ],
    };
  }
  const have = attachedDocumentation(req, r);
  const missing = docs.filter((d) => !have.has(d));
  if (!missing.length) {
    const certification = certificationPeriod(item, now);
    return { ...base, action: 'A1', certification, notes: [`Certified under rule ${r.id} (${citationLine(r)}): the attached documentation covers every item the rule lists (${docs.join('; ')}). Valid ${certification.start} to ${certification.end}.`] };
  }
  return {
    ...base,
    action: 'A4',
    missing,
    questionnairePath: `/v1/dtr/questionnaire/${r.jurisdiction}/${r.program}/${r.subject.code}`,
    notes: [
      `Pended for review under rule ${r.id} (${citationLine(r)}). Documentation needed: ${docs.join('; ')}.${have.size ? ` Received: ${[...have].join('; ')}. Still missing: ${missing.join('; ')}.` : ''}`,
      ...(r.requirement.criteria ? [`Criteria: ${r.requirement.criteria}`] : []),
    ],
  };
}
