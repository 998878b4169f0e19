// The CRD cards this service returns (CRD 2.0.1 response types): a verdict card per order resolved to a rule
// (an External Reference card linking the rule's source, or a Launch SMART card when DTR documentation applies), an
// Instructions card for coverage limits, an informational card per order we cannot answer saying why, and an
// External Reference card with the sources the SMART cards do not link. Topic codes come from the CRD 2.0.1 card
// types (CodeSystem temp, _cardType).
import { CRD_TEMP_CS } from '../../../fhir-profiles/canonicals.js';
import type { CoverageRuleDoc } from '../../domain/documents.js';
import { NOT_COVERED_OPTIONS } from '../../domain/coverage-exclusion.js';
import { sourceLocator } from '../../domain/evidence.js';
import { PROGRAM_LABELS, subjectLabel, type Program } from '../../domain/vocabulary.js';
import { uuidFrom } from '../ids.js';
import type { Coding, Resource } from '../r4.js';
import type { CdsCard, CdsLink } from './types.js';

/** A text ending in one full stop (a caveat may already end with its own). */
const sentence = (text: string): string => (/[.!?]\)?$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`);

const TOPIC = {
  coverageInfo: { system: CRD_TEMP_CS, code: 'coverage-info', display: 'Coverage Information' },
  limits: { system: CRD_TEMP_CS, code: 'limits', display: 'Limits' },
} as const;

/** CDS Hooks: summary under 140 characters. */
const summary = (s: string): string => (s.length < 140 ? s : `${s.slice(0, 136).trimEnd()}...`);
const ref = (r: Resource): string => `${r.resourceType}/${r.id ?? '(no id)'}`;
const associated = (r: Resource) => ({ 'davinci-crd.associated-resource': [{ reference: ref(r) }] });

/** "E0250 Hospital bed ..." for the card text: the code that resolved, with its display when the EHR sent one. */
export const codingLabel = (c: Coding | undefined): string => (c?.code ? `${c.code}${c.display ? ` ${c.display}` : ''}` : '');

export interface VerdictInput {
  rule: CoverageRuleDoc;
  target: Resource;
  coding: Coding;
  label: string;
  /** How the state and program were found (shown so a subscription default is never silent). */
  basis: string[];
  /** The DTR questionnaire canonical (|version) when documentation is needed. */
  questionnaire?: string;
  coverageRef?: string;
  /** The SMART launch URL of the DTR app (config); no smart link without it. */
  dtrLaunchUrl?: string;
  seed: string;
}

function verdictLine(rule: CoverageRuleDoc): { head: string; indicator: CdsCard['indicator'] } {
  const r = rule.requirement;
  if (r.exclusion) return { head: 'Not covered', indicator: 'warning' };
  // Voluntary PA (the home health review choice, RSNAT-like programs): not required, but a request may be sent.
  if (!r.paRequired && r.paMode === 'voluntary') return { head: 'Prior authorization optional (voluntary)', indicator: 'info' };
  if (!r.paRequired) return { head: 'No prior authorization required', indicator: 'info' };
  if (r.paType === 'conditional') return { head: 'Prior authorization may be required', indicator: 'warning' };
  if (r.paType === 'notification_only') return { head: 'Notification required', indicator: 'info' };
  return { head: 'Prior authorization required', indicator: 'warning' };
}

/** What a verdict card says of its rule whatever the request: made once per rule (rule documents do not change). */
interface VerdictText {
  head: string;
  indicator: CdsCard['indicator'];
  what: string;
  program: string;
  summary: string;
  /** The criteria, documentation, timeframe and source paragraphs. */
  body: string;
}
const TEXTS = new WeakMap<CoverageRuleDoc, VerdictText>();

function verdictText(rule: CoverageRuleDoc): VerdictText {
  let t = TEXTS.get(rule);
  if (t) return t;
  const r = rule.requirement;
  const what = subjectLabel(rule.subject.kind, rule.subject.code);
  const program = PROGRAM_LABELS[rule.program as Program];
  const { head, indicator } = verdictLine(rule);
  const body = [
    ...(r.population ? [`**Applies to:** ${r.population} only; the rule claims nothing for other members.`] : []),
    ...(r.criteria ? [`**Criteria:** ${r.criteria}`] : []),
    ...(r.exclusion ? [`**Not covered:** a claim will be denied; a prior authorization request does not lead to coverage. ${NOT_COVERED_OPTIONS}. Where it is stated: ${r.exclusion.citation}.`] : []),
    ...(r.paRequired && r.documentation.length ? [`**Documentation to send with the request:** ${r.documentation.join('; ')}.`] : []),
    ...(r.paRequired
      ? [rule.turnaround.standardHours === 0 && rule.turnaround.expeditedHours === 0
        ? `**Decision timeframe:** none is traced to this rule's sources${rule.turnaround.basis ? ` (${rule.turnaround.basis})` : ''}.`
        : `**Decision timeframe:** standard ${rule.turnaround.standardHours} h, expedited ${rule.turnaround.expeditedHours ? `${rule.turnaround.expeditedHours} h` : 'none stated'}${rule.turnaround.basis ? ` (${rule.turnaround.basis})` : ''}.`]
      : []),
    sentence(`**Source:** [${rule.source.title}](${rule.source.url})${sourceLocator(rule) ? ` (${sourceLocator(rule)})` : ''}, last verified ${rule.verification.lastVerified}${rule.verification.caveat ? `. ${rule.verification.caveat}` : ''}`),
  ].join('\n\n');
  const who = r.population ? `; ${r.population} only` : '';
  t = { head, indicator, what, program, summary: summary(`${head}: ${what} (${program}, ${rule.jurisdiction}${who})`), body };
  TEXTS.set(rule, t);
  return t;
}

export function verdictCard(v: VerdictInput): CdsCard {
  const { rule } = v;
  const text = verdictText(rule);
  const { head, indicator, what, program, body } = text;
  const lines = [
    `**${head}** for ${ref(v.target)}${codingLabel(v.coding) ? ` (${codingLabel(v.coding)})` : ''}: ${what}, ${program}, ${rule.jurisdiction}.`,
    body,
    `**How the member's plan was identified:** ${v.basis.join('; ')}.`,
  ];
  // A Launch SMART card when DTR applies and a DTR app is configured; otherwise an External Reference card whose
  // link is the rule's source (each card keeps one link type, as the CRD response types define them).
  const links: CdsLink[] = [];
  if (!(v.questionnaire && v.dtrLaunchUrl)) links.push({ label: rule.source.title.slice(0, 120), url: rule.source.url, type: 'absolute' });
  else {
    links.push({
      label: 'Complete the documentation (DTR)',
      url: v.dtrLaunchUrl,
      type: 'smart',
      // DTR launch context: the order, the coverage, the questionnaire canonical and the coverage assertion id.
      appContext: JSON.stringify({
        order: ref(v.target),
        ...(v.coverageRef ? { coverage: v.coverageRef } : {}),
        questionnaire: [v.questionnaire],
        coverageAssertionId: rule.id,
      }),
    });
  }
  return {
    uuid: uuidFrom(`verdict|${v.seed}`),
    summary: text.summary,
    detail: lines.join('\n\n'),
    indicator,
    source: { label: v.label, url: rule.source.url, topic: TOPIC.coverageInfo },
    ...(links.length ? { links } : {}),
    extension: associated(v.target),
  };
}

/** Step therapy, quantity limits and new-starts-only: what the coverage-information extension cannot carry. */
export function limitsCard(rule: CoverageRuleDoc, target: Resource, label: string, seed: string): CdsCard | undefined {
  const r = rule.requirement;
  const lines = [
    ...(r.stepTherapy ? [`**Step therapy:** ${r.stepTherapy}`] : []),
    ...(r.quantityLimit ? [`**Quantity limit:** ${r.quantityLimit}`] : []),
    ...(r.newStartsOnly ? ['**New starts only:** members continuing therapy are not subject to this requirement.'] : []),
  ];
  if (!lines.length) return undefined;
  const what = [r.stepTherapy ? 'step therapy' : '', r.quantityLimit ? 'quantity limit' : '', r.newStartsOnly ? 'new starts only' : ''].filter(Boolean).join(', ');
  return {
    uuid: uuidFrom(`card|${seed}`),
    summary: summary(`Coverage limits apply: ${what}`),
    detail: `${lines.join('\n\n')}\n\nSource: [${rule.source.title}](${rule.source.url}), last verified ${rule.verification.lastVerified}.`,
    indicator: 'info',
    source: { label, url: rule.source.url, topic: TOPIC.limits },
    extension: associated(target),
  };
}

/** An order we cannot answer: no coverage information is sent for it, and this card says why. */
export function unresolvedCard(target: Resource | string, why: string, label: string, seed: string, annotated = false): CdsCard {
  const name = typeof target === 'string' ? target : ref(target);
  const added = annotated
    ? 'Coverage information saying coverage and prior authorization are conditional (not determined), with this reason, was added to it.'
    : 'No coverage information was added to this order.';
  return {
    uuid: uuidFrom(`unresolved|${seed}`),
    summary: summary(`Coverage requirements not determined for ${name}`),
    detail: `${why}\n\n${added} Check the payer's requirements before ordering.`,
    indicator: 'info',
    source: { label, topic: TOPIC.coverageInfo },
    ...(typeof target === 'string' ? {} : { extension: associated(target) }),
  };
}

/** An order outside the member's program's benefit: not covered under this Coverage, and where it is covered instead. */
export function outsideBenefitCard(target: Resource, why: string, label: string, seed: string): CdsCard {
  return {
    uuid: uuidFrom(`outside|${seed}`),
    summary: summary(`Not covered by this coverage: ${ref(target)}`),
    detail: `${why}\n\nCoverage information saying not-covered, with this reason, was added to it. Check the member's other coverage before ordering.`,
    indicator: 'info',
    source: { label, topic: TOPIC.coverageInfo },
    extension: associated(target),
  };
}

/** One External Reference card with the policy sources not already linked from a verdict card (absolute links only). */
export function externalReferenceCard(rules: readonly CoverageRuleDoc[], label: string, seed: string): CdsCard | undefined {
  const bySource = new Map<string, CoverageRuleDoc>();
  for (const r of rules) if (!bySource.has(r.source.url)) bySource.set(r.source.url, r);
  if (!bySource.size) return undefined;
  const sources = [...bySource.values()];
  return {
    uuid: uuidFrom(`sources|${seed}`),
    summary: summary(sources.length === 1 ? `Policy source: ${sources[0]!.source.title}` : `Policy sources for these orders (${sources.length})`),
    detail: sources.map((r) => `- [${r.source.title}](${r.source.url}) (${r.source.publisher}), last verified ${r.verification.lastVerified}`).join('\n'),
    indicator: 'info',
    source: { label, topic: TOPIC.coverageInfo },
    links: sources.map((r) => ({ label: r.source.title.slice(0, 120), url: r.source.url, type: 'absolute' as const })),
  };
}
