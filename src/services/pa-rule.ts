// Projection of a canonical rule document to the wire PaRule (spec 2.2) and its next steps (spec 2.3).
// Shared by lookup, compare, compare-payers and the action plan so that every JSON surface says the same thing.
import type { CoverageRuleDoc } from '../domain/documents.js';
import { distinctItems } from '../domain/distinct-items.js';
import { isNotCovered, NOT_COVERED_OPTIONS } from '../domain/coverage-exclusion.js';
import type { ServedRuleStatus } from '../domain/vocabulary.js';
import { toWireEvidence, type WireEvidence } from '../domain/evidence.js';

export interface PaRule {
  pa_required: boolean;
  pa_type: string;
  confidence: number;
  notes: string;
  source_url: string;
  last_verified: string;
  federal_override: boolean;
  // Additive fields (spec 9.2): what a client needs to act and to cite.
  rule_id: string;
  /** verified (every claim checked against a cited official source) or sample (illustrative / not fully confirmed). */
  rule_status: ServedRuleStatus;
  source_title: string;
  source_publisher: string;
  documentation: string[];
  /** required, plan_may_require or voluntary (absent: required); see docs/sample-corpus.md. */
  pa_mode?: string;
  new_starts_only?: boolean;
  applies_to?: string;
  step_therapy?: string;
  quantity_limit?: string;
  /** Present (true) only when the program does not cover the subject: pa_required false then means "no PA route", not "no PA needed". */
  not_covered?: true;
  /** Why the subject is not covered and where that is stated (present with not_covered). */
  exclusion?: { reason: string; citation: string };
  submission: { channel: string; target: string; url?: string; fax?: string; phone?: string };
  turnaround: { standard_hours: number; expedited_hours: number; basis?: string };
  payer: { id: string; name: string } | null;
  codes?: { system: string; code: string; display?: string }[];
  caveat?: string;
  /** Where each served claim is stated (rules derived from curated facts); empty for a sample rule. */
  evidence: WireEvidence[];
  version_id?: string;
}

/** The PaRule fields a gap row (a state or payer without a verified rule) carries as null. */
export const GAP_RULE_FIELDS = ['pa_required', 'pa_type', 'confidence', 'notes', 'source_url', 'last_verified'] as const;
/** Compare rows also null the fields every state row carries. */
export const COMPARE_GAP_FIELDS = [...GAP_RULE_FIELDS, 'federal_override', 'rule_id'] as const;

export function nullFields<K extends string>(fields: readonly K[]): { [P in K]: null } {
  return Object.fromEntries(fields.map((f) => [f, null])) as { [P in K]: null };
}

export interface NextStep {
  step: number;
  title: string;
  items: string[];
}

export function toPaRule(rule: CoverageRuleDoc): PaRule {
  const { requirement: r, submission: s, turnaround: t, verification: v } = rule;
  return {
    pa_required: r.paRequired,
    pa_type: r.paType,
    confidence: v.confidence,
    notes: r.criteria,
    source_url: rule.source.url,
    last_verified: v.lastVerified,
    federal_override: rule.federalOverride,
    rule_id: rule.id,
    rule_status: v.status === 'verified' ? 'verified' : 'sample',
    source_title: rule.source.title,
    source_publisher: rule.source.publisher,
    documentation: [...r.documentation], // the read model serves it distinct and frozen; the wire object gets its own copy
    ...(r.paMode ? { pa_mode: r.paMode } : {}),
    ...(r.newStartsOnly !== undefined ? { new_starts_only: r.newStartsOnly } : {}),
    ...(r.population ? { applies_to: r.population } : {}),
    ...(r.stepTherapy ? { step_therapy: r.stepTherapy } : {}),
    ...(r.quantityLimit ? { quantity_limit: r.quantityLimit } : {}),
    ...(r.exclusion ? { not_covered: true as const, exclusion: { reason: r.exclusion.reason, citation: r.exclusion.citation } } : {}),
    submission: {
      channel: s.channel,
      target: s.target,
      ...(s.url ? { url: s.url } : {}),
      ...(s.fax ? { fax: s.fax } : {}),
      ...(s.phone ? { phone: s.phone } : {}),
    },
    turnaround: {
      standard_hours: t.standardHours,
      expedited_hours: t.expeditedHours,
      ...(t.basis ? { basis: t.basis } : {}),
    },
    payer: rule.payer ? { id: rule.payer.id, name: rule.payer.name } : null,
    ...(rule.codes?.length ? { codes: rule.codes } : {}),
    ...(v.caveat ? { caveat: v.caveat } : {}),
    evidence: toWireEvidence(rule),
    ...(rule.meta?.versionId ? { version_id: rule.meta.versionId } : {}),
  };
}

export function formatHours(hours: number): string {
  if (hours === 0) return 'not applicable';
  if (hours % 24 === 0 && hours > 72) return `${hours / 24} calendar days (${hours} hours)`;
  return `${hours} hours`;
}

/** Channels whose address is where a request is sent (a portal, an electronic PA, a FHIR PAS endpoint). */
const ONLINE_CHANNELS: readonly string[] = ['portal', 'epa', 'fhir_pas'];

/** Voluntary PA (the alternative being, say, prepayment review): not required, but a request may be sent. */
export const offersVoluntaryPa = (rule: CoverageRuleDoc): boolean =>
  !rule.requirement.paRequired && rule.requirement.paMode === 'voluntary' && rule.submission.channel !== 'none';

/**
 * An excluded subject's steps, in the spec's order (documentation, submission, turnaround): it has no PA route, so
 * the steps say "not covered" instead of "no PA needed; bill as usual".
 */
/** The first item of step 1 for a rule limited to a population: it speaks for them only. */
const appliesToItems = (r: CoverageRuleDoc['requirement']): string[] =>
  r.population ? [`Applies to ${r.population} only: the source claims nothing for other members`] : [];

function notCoveredSteps(rule: CoverageRuleDoc): NextStep[] {
  const x = rule.requirement.exclusion!;
  return [
    { step: 1, title: 'Not covered', items: [
      ...appliesToItems(rule.requirement),
      `Not covered; a claim will be denied. ${x.reason}`, `Where the exclusion is stated: ${x.citation}`,
    ] },
    { step: 2, title: 'Submission', items: [`No prior authorization request leads to coverage. ${NOT_COVERED_OPTIONS}`] },
    { step: 3, title: 'Expected turnaround', items: ['No prior authorization decision applies: the program does not cover this'] },
  ];
}

/**
 * The three steps, always in this order: gather documentation, submit, expected turnaround. Each step's items are
 * built afresh (never the rule's own list, which every request shares) and never repeat an item: a documentation
 * list that already says "Step therapy: ..." does not get the line twice.
 */
export function toNextSteps(rule: CoverageRuleDoc): NextStep[] {
  if (isNotCovered(rule)) return notCoveredSteps(rule);
  const { requirement: r, submission: s, turnaround: t } = rule;
  const voluntary = offersVoluntaryPa(rule);
  const requested = r.paRequired || voluntary;
  // Conditional PA (some agents or situations only, a PDL's non-preferred agents for example): the criteria say when.
  const conditional = r.paRequired && r.paType === 'conditional';
  const gather = distinctItems([
    ...appliesToItems(r),
    ...(conditional ? ['Check the criteria first: prior authorization applies only to the agents or situations they name; where none applies, no request is needed'] : []),
    ...(r.paRequired
      ? r.documentation.length
        ? r.documentation
        : ['The source lists no documents for this request; ask the payer what to send']
      : voluntary
        ? ['Prior authorization is voluntary here; for a request, send:', ...(r.documentation.length ? r.documentation : ['what the payer asks for (the source lists no documents)'])]
        : ['Prior authorization is not required; keep clinical documentation with the record for the claim', ...r.documentation]),
    ...(r.stepTherapy ? [`Step therapy: ${r.stepTherapy}`] : []),
    ...(r.quantityLimit ? [`Quantity limit: ${r.quantityLimit}`] : []),
  ]);

  const submit: string[] = [];
  if (requested && s.channel !== 'none') {
    if (voluntary) submit.push('Voluntary: you may request prior authorization; without it, the rule\'s notes say what happens instead (for example prepayment review)');
    submit.push(`Submit to: ${s.target}`);
    submit.push(s.channel === 'payer_process'
      ? 'Channel: the payer\'s own process (the source names none); ask the payer how to send the request'
      : `Channel: ${s.channel.replace('_', ' ')}`);
    // A portal or electronic route's address is where to submit; any other route's is where the details are.
    if (s.url) submit.push(`${ONLINE_CHANNELS.includes(s.channel) ? 'Online' : 'Details'}: ${s.url}`);
    if (s.fax) submit.push(`Fax: ${s.fax}`);
    if (s.phone) submit.push(`Phone: ${s.phone}`);
    if (r.newStartsOnly) submit.push('Applies to new starts only; members continuing therapy are not subject to this PA');
  } else {
    submit.push(`No prior authorization request is needed; bill as usual (${s.target})`);
  }

  const turnaround = requested
    ? t.standardHours === 0 && t.expeditedHours === 0
      ? ['No decision timeframe is traced to this rule\'s sources; see the basis']
      : [`Standard: ${formatHours(t.standardHours)}`, `Expedited: ${t.expeditedHours ? formatHours(t.expeditedHours) : 'no separate expedited timeframe is stated'}`]
    : ['No decision to wait for'];
  if (requested && t.basis) turnaround.push(`Basis: ${t.basis}`);

  return [
    { step: 1, title: 'Gather clinical documentation', items: gather },
    { step: 2, title: r.paRequired ? (conditional ? 'Submit the prior authorization request (where the criteria require one)' : 'Submit the prior authorization request') : voluntary ? 'Submit a voluntary prior authorization request (optional)' : 'Submission', items: distinctItems(submit) },
    { step: 3, title: 'Expected turnaround', items: distinctItems(turnaround) },
  ];
}
