// A rule, or the lack of one, as CRD 2.0.1 coverage information for one order (coverage-info.ts writes the extension).
import type { CoverageRuleDoc } from '../../domain/documents.js';
import { PROGRAM_LABELS } from '../../domain/vocabulary.js';
import { PRAUTH_DETAIL_CS, PROCEDURE_CODE_SYSTEMS } from '../../../fhir-profiles/canonicals.js';
import { shortHash } from '../ids.js';
import { deepFreeze } from '../../domain/json.js';
import type { CodeableConcept } from '../r4.js';
import { reason, type CoverageDetail, type CoverageVerdict } from './coverage-info.js';

/**
 * What a rule's coverage information says whatever the request: its details and reasons. Made once per rule (the
 * read model's rule documents do not change; a reload brings new ones) and frozen, so answers share them.
 */
interface RuleParts {
  details: readonly CoverageDetail[];
  /** notification_only: the reason saying who must be notified. */
  notification: readonly CodeableConcept[];
  /** conditional: the criteria reason, then the documentation reason when documentation is listed. */
  conditional: readonly CodeableConcept[];
  /** The documentation reason alone (auth-needed), empty when none is listed. */
  documentation: readonly CodeableConcept[];
  /** not-covered: the exclusion and where it is stated (empty when the rule has none). */
  exclusion: readonly CodeableConcept[];
}
const PARTS = new WeakMap<CoverageRuleDoc, RuleParts>();

/** A reason short enough for an order's coverage-information: the first sentence, cut at a word near 240 characters. */
function brief(text: string): string {
  const first = text.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? text;
  if (first.length <= 240) return first === text ? text : `${first} (full criteria: the 'criteria' detail)`;
  return `${first.slice(0, 240).replace(/\s+\S*$/, '')}… (full criteria: the 'criteria' detail)`;
}

function partsOf(rule: CoverageRuleDoc): RuleParts {
  let parts = PARTS.get(rule);
  if (parts) return parts;
  const r = rule.requirement;
  const code = (c: string, display: string) => ({ system: PRAUTH_DETAIL_CS, code: c, display });
  // A rule another program decides (a hand-over): its documentation is the deciding program's, not its own source's
  // publisher's (a dual's Part D exception documentation is not the state Medicaid agency's list).
  const lister = rule.decidedBy ? `the ${PROGRAM_LABELS[rule.decidedBy]} rule` : rule.source.publisher;
  const documentation = r.documentation.length ? [reason(`Send the documentation ${lister} lists with the prior authorization request: ${r.documentation.join('; ')}`)] : [];
  parts = deepFreeze({
    details: [
      { code: code('policy-source', 'Policy source'), value: { string: rule.source.url } },
      { code: code('last-verified', 'Rule last verified'), value: { string: rule.verification.lastVerified } },
      ...(r.criteria ? [{ code: code('criteria', 'Coverage criteria'), value: { string: r.criteria } }] : []),
    ],
    notification: [reason(`Prior authorization is not required, but ${rule.source.publisher} must be notified: ${brief(r.criteria)}`)],
    conditional: [reason(`Prior authorization depends on the criteria: ${brief(r.criteria)}`), ...documentation],
    documentation,
    exclusion: r.exclusion ? [reason(`Not covered: ${r.exclusion.reason} (${r.exclusion.citation}). A claim will be denied; a prior authorization request does not lead to coverage.`)] : [],
  });
  PARTS.set(rule, parts);
  return parts;
}

/**
 * Our rule as CRD 2.0.1 coverage information, with pa-needed always (crd-ci-q2): covered where the source states the
 * program's own requirement; conditional ("cannot be made without more information") where it only lets the plan
 * require PA (pa_mode plan_may_require), since such a source makes no claim about the plan's coverage either; or,
 * where the program excludes the subject, not-covered with the exclusion as the reason (no pa-needed: crd-ci-q2 lets
 * a not-covered answer leave it out, and no PA applies).
 */
export function ruleVerdict(rule: CoverageRuleDoc, coding: { system?: string; code?: string }, base: Pick<CoverageVerdict, 'coverage' | 'date'>, questionnaire: string): CoverageVerdict {
  const r = rule.requirement;
  const parts = partsOf(rule);
  // Built field by field (no spreads): one answer makes one per order.
  const v: CoverageVerdict = { coverage: base.coverage, date: base.date, details: parts.details, assertionId: rule.id, covered: r.paMode === 'plan_may_require' ? 'conditional' : 'covered' };
  if (coding.system && coding.code && PROCEDURE_CODE_SYSTEMS.includes(coding.system)) v.billingCode = [{ system: coding.system, code: coding.code }];
  if (r.exclusion) {
    v.covered = 'not-covered';
    v.reason = parts.exclusion;
    return v;
  }
  if (!r.paRequired) {
    v.paNeeded = 'no-auth';
    // Voluntary PA (a review choice): not required, but the order may go through it; the reason says what it is.
    if (r.paMode === 'voluntary') v.reason = [reason(`Prior authorization is not required but may be requested (voluntary): ${brief(r.criteria)}`)];
    return v;
  }
  if (r.paType === 'notification_only') {
    v.paNeeded = 'no-auth';
    v.reason = parts.notification;
    return v;
  }
  if (r.documentation.length > 0) {
    v.docNeeded = 'clinical';
    v.docPurpose = ['withpa'];
    v.questionnaire = [questionnaire];
  }
  if (r.paType === 'conditional') {
    v.paNeeded = 'conditional';
    v.infoNeeded = ['OTH'];
    v.reason = parts.conditional;
  } else {
    v.paNeeded = 'auth-needed';
    if (parts.documentation.length) v.reason = parts.documentation;
  }
  return v;
}

/**
 * Coverage we could not determine, as CRD 2.0.1 lets it be said (it has no `indeterminate`): covered and pa-needed
 * `conditional`, info-needed `OTH` (crd-ci-q3 of 2.2 asks it of conditional answers; 2.0.1 allows it) and the reason
 * as text. The assertion id names this answer only: a DTR `context` with it finds no rule.
 */
export function undetermined(why: string, coverageRef: string, seed: string, date: string): CoverageVerdict {
  return {
    coverage: { reference: coverageRef },
    covered: 'conditional',
    paNeeded: 'conditional',
    infoNeeded: ['OTH'],
    reason: [reason(`Coverage could not be determined: ${why}`)],
    date,
    // The answer's own id: the same order under another coverage or program (another reason) gets another one.
    assertionId: `undetermined-${shortHash(`${seed}|${coverageRef}|${why}`, 16)}`,
  };
}

/**
 * An order the member's program does not cover at all (an MRI under a Part D plan): CRD 2.0.1 `not-covered` ("no
 * coverage or possibility of coverage for this service") under this Coverage, no pa-needed (crd-ci-q2), and the
 * reason naming the programs that cover it instead. Not for a program the state does not run (the Coverage then names
 * the wrong program, and nothing is known of it).
 */
export function outsideBenefit(why: string, coverageRef: string, seed: string, date: string): CoverageVerdict {
  return {
    coverage: { reference: coverageRef },
    covered: 'not-covered',
    reason: [reason(why)],
    date,
    assertionId: `outside-${shortHash(`${seed}|${coverageRef}|${why}`, 16)}`,
  };
}
