// DTR 2.0.1 Questionnaires for a rule: the static form (dtr-std-questionnaire) and, where the documentation
// branches, the adaptive form (dtr-questionnaire-adapt, served through $next-question). Pure projections.
import type { Extension, Questionnaire, QuestionnaireItem } from 'fhir/r4';
import type { ReadModel } from '../../corpus/read-model.js';
import type { CoverageRuleDoc } from '../../domain/documents.js';
import { NOT_COVERED_OPTIONS } from '../../domain/coverage-exclusion.js';
import { isJurisdiction, normalizeProgram, PROGRAM_LABELS, PROGRAMS, subjectLabel } from '../../domain/vocabulary.js';
import { DTR_PROFILE, SDC_EXT, SDC_LAUNCH_CONTEXT_CS } from '../../../fhir-profiles/canonicals.js';
import { fhirId, questionnaireUrl, questionnaireVersion } from '../ids.js';
import { libraryUrl } from './cql-libraries.js';
import { PATTERN_LIBRARY, patternItems, patternOf } from './patterns.js';

const pascal = (s: string): string => s.replace(/(^|[^A-Za-z0-9])([a-z0-9])/g, (_m, _p, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const staticId = (r: Pick<CoverageRuleDoc, 'jurisdiction' | 'program' | 'subject'>): string => fhirId('pa', r.jurisdiction, r.program, r.subject.code);
export const adaptiveId = (r: Pick<CoverageRuleDoc, 'jurisdiction' | 'program' | 'subject'>): string => fhirId('adaptive', r.jurisdiction, r.program, r.subject.code);
/** Where the adaptive form is read (and how a client names it in $questionnaire-package): it has no canonical url of its own. */
export const adaptiveAddress = (base: string, r: Pick<CoverageRuleDoc, 'jurisdiction' | 'program' | 'subject'>): string => `${base}/v1/Questionnaire/${adaptiveId(r)}`;

function heading(rule: CoverageRuleDoc): QuestionnaireItem[] {
  const r = rule.requirement;
  return [
    // A requirement limited to a population: the form is for those patients only.
    ...(r.population ? [{ linkId: 'applies-to', type: 'display' as const, text: `Applies to ${r.population} only: the rule claims nothing for other patients.` }] : []),
    { linkId: 'criteria', type: 'display', text: `Coverage criteria: ${r.criteria}` },
    { linkId: 'source', type: 'display', text: `Source: ${rule.source.title} (${rule.source.publisher}), ${rule.source.url}; last verified ${rule.verification.lastVerified}` },
    // An excluded subject: no PA route and a claim will be denied, so never "not required; keep this documentation".
    ...(r.exclusion
      ? [{ linkId: 'not-covered', type: 'display' as const, text: `Not covered${r.population ? ` for ${r.population}` : ''}: the program does not cover this (${r.exclusion.citation}); a claim will be denied and prior authorization does not lead to coverage. ${NOT_COVERED_OPTIONS}.` }]
      : !r.paRequired ? [{ linkId: 'no-pa', type: 'display' as const, text: 'Prior authorization is not required; keep this documentation with the record for the claim.' }] : []),
  ];
}

/** Every item of the static form, in order. */
export function formItems(rule: CoverageRuleDoc, base: string): QuestionnaireItem[] {
  return [...heading(rule), ...patternItems(rule, base).items];
}

function narrative(title: string, items: QuestionnaireItem[]): string {
  const li = (it: QuestionnaireItem): string =>
    `<li>${esc(it.text ?? it.linkId)} <i>(${it.type}${it.required ? ', required' : ''})</i>${it.item?.length ? `<ul>${it.item.map(li).join('')}</ul>` : ''}</li>`;
  return `<div xmlns="http://www.w3.org/1999/xhtml"><p><b>${esc(title)}</b></p>${items.length ? `<ul>${items.map(li).join('')}</ul>` : '<p>Adaptive form: questions are given one at a time by $next-question.</p>'}</div>`;
}

function common(rule: CoverageRuleDoc) {
  const label = subjectLabel(rule.subject.kind, rule.subject.code);
  return {
    // An excluded subject's form documents the case for an exception or hearing, not a PA request.
    title: `${rule.requirement.exclusion ? 'Not covered (documentation for an exception or hearing request)' : 'Prior authorization documentation'}: ${label}, ${rule.jurisdiction} ${PROGRAM_LABELS[rule.program]}`,
    version: questionnaireVersion(rule),
    status: 'active' as const,
    subjectType: ['Patient' as const],
    date: rule.verification.lastVerified,
    publisher: rule.source.publisher,
    description: `Documentation requirements of rule ${rule.id} (${rule.requirement.exclusion ? 'not covered: no PA route' : rule.requirement.paRequired ? 'PA required' : 'PA not required'}, type ${rule.requirement.paType}).`,
  };
}

/** What pre-populates a form's items: the launch context, the CQL library, its variable and the population context. */
export function prepopulation(rule: CoverageRuleDoc, base: string): Extension[] {
  const lib = PATTERN_LIBRARY[patternOf(rule)];
  return [
    {
      url: SDC_EXT.launchContext,
      extension: [
        { url: 'name', valueCoding: { system: SDC_LAUNCH_CONTEXT_CS, code: 'patient' } },
        { url: 'type', valueCode: 'Patient' },
        { url: 'description', valueString: 'The patient the order is for' },
      ],
    },
    { url: SDC_EXT.cqfLibrary, valueCanonical: libraryUrl(base, lib) },
    { url: SDC_EXT.variable, valueExpression: patternItems(rule, base).variable },
    { url: SDC_EXT.itemPopulationContext, valueExpression: { name: 'patient', language: 'text/cql', expression: `"${lib}"."Patient Record"` } },
  ];
}

/** The static form: every item, CQL pre-population, launch context, library and variable (dtr-std-questionnaire). */
export function toDtrQuestionnaire(rule: CoverageRuleDoc, base: string): Questionnaire {
  const items = formItems(rule, base);
  const c = common(rule);
  return {
    resourceType: 'Questionnaire',
    id: staticId(rule),
    meta: { profile: [DTR_PROFILE.stdQuestionnaire], ...(rule.meta?.lastUpdated ? { lastUpdated: rule.meta.lastUpdated } : {}) },
    text: { status: 'generated', div: narrative(c.title, items) },
    extension: prepopulation(rule, base),
    url: questionnaireUrl(base, rule),
    name: pascal(`pa ${rule.jurisdiction} ${rule.program} ${rule.subject.code}`).slice(0, 255),
    ...c,
    item: items,
  };
}

/** Whether the rule's documentation branches, so an adaptive form is offered. */
export const hasAdaptiveForm = (rule: CoverageRuleDoc): boolean => patternItems(rule, '').branches;

/**
 * The adaptive form of one session (dtr-questionnaire-adapt, contained in the QuestionnaireResponse $next-question
 * exchanges): the items asked so far, derived from the static form, no url (each session's form is its own).
 */
export function toAdaptiveQuestionnaire(rule: CoverageRuleDoc, base: string, items: QuestionnaireItem[] = []): Questionnaire {
  const c = common(rule);
  return {
    resourceType: 'Questionnaire',
    id: adaptiveId(rule),
    meta: { profile: [DTR_PROFILE.adaptQuestionnaire] },
    text: { status: 'generated', div: narrative(`${c.title} (adaptive)`, items) },
    extension: [
      { url: SDC_EXT.questionnaireAdaptive, valueBoolean: true },
      { url: SDC_EXT.cqfLibrary, valueCanonical: libraryUrl(base, PATTERN_LIBRARY[patternOf(rule)]) },
    ],
    // No url: dtr-questionnaire-adapt forbids one; derivedFrom names the static form.
    name: pascal(`pa ${rule.jurisdiction} ${rule.program} ${rule.subject.code} adaptive`).slice(0, 255),
    derivedFrom: [`${questionnaireUrl(base, rule)}|${c.version}`],
    ...c,
    title: `${c.title} (adaptive)`,
    ...(items.length ? { item: items } : {}),
  };
}

// ---- from ids and canonicals back to rules ----

/**
 * The state and program a questionnaire id names (pa-tx-medicaid-mco-...), whether or not a rule exists: the caller's
 * subscription is checked against it before a 404 says there is none. The state alone when the program part is not one.
 */
export function scopeOfQuestionnaireId(id: string): { states: string[]; programs: string[] } | undefined {
  const m = /^(?:pa|adaptive)-([a-z]{2})-(.+)$/.exec(id);
  const state = m?.[1]?.toUpperCase();
  if (!m || !state || !isJurisdiction(state)) return undefined;
  const program = PROGRAMS.find((p) => m[2]!.startsWith(`${p.replace(/_/g, '-')}-`));
  return { states: [state], programs: program ? [program] : [] };
}

const idIndex = new WeakMap<ReadModel, Map<string, { rule: CoverageRuleDoc; adaptive: boolean }>>();

/** The rule (and form variant) behind a Questionnaire id we serve, from an index built once per read model; adaptive ids only for rules whose documentation branches. */
export function ruleByQuestionnaireId(model: ReadModel, id: string): { rule: CoverageRuleDoc; adaptive: boolean } | undefined {
  let idx = idIndex.get(model);
  if (!idx) {
    idx = new Map();
    for (const rule of model.rules.values()) {
      idx.set(staticId(rule), { rule, adaptive: false });
      if (hasAdaptiveForm(rule)) idx.set(adaptiveId(rule), { rule, adaptive: true });
    }
    idIndex.set(model, idx);
  }
  return idx.get(id);
}

/**
 * The state and program a questionnaire canonical of ours names, whether or not a rule exists (on whichever host: the
 * path tells). The state alone when the program segment is not a program.
 */
export function scopeOfCanonical(canonical: string): { states: string[]; programs: string[] } | undefined {
  const url = canonical.split('|')[0]!;
  const m = /\/v1\/dtr\/questionnaire\/([A-Za-z]{2})\/([^/]+)\/[^/]+$/.exec(url);
  if (m) {
    const state = m[1]!.toUpperCase();
    const program = normalizeProgram(m[2]!.replace(/-/g, '_'));
    return isJurisdiction(state) ? { states: [state], programs: program ? [program] : [] } : undefined;
  }
  const q = /\/v1\/Questionnaire\/([A-Za-z0-9.-]{1,64})$/.exec(url);
  return q ? scopeOfQuestionnaireId(q[1]!) : undefined;
}

/**
 * The rule behind a questionnaire canonical we issued (any version): `{base}/v1/dtr/questionnaire/{state}/{program}/{code}`
 * (the static form's url, which CRD cards carry) or `{base}/v1/Questionnaire/{id}` (either form).
 */
export function ruleFromCanonical(model: ReadModel, canonical: string): { rule: CoverageRuleDoc; adaptive: boolean } | undefined {
  const url = canonical.split('|')[0]!;
  const m = /\/v1\/dtr\/questionnaire\/([A-Za-z]{2})\/([a-z_]+)\/([a-z_]+)$/.exec(url);
  if (m) {
    const rule = model.rules.get(`${m[1]!.toUpperCase()}|${m[2]}|drug|${m[3]}`) ?? model.rules.get(`${m[1]!.toUpperCase()}|${m[2]}|service|${m[3]}`);
    return rule ? { rule, adaptive: false } : undefined;
  }
  const q = /\/v1\/Questionnaire\/([A-Za-z0-9.-]{1,64})$/.exec(url);
  return q ? ruleByQuestionnaireId(model, q[1]!) : undefined;
}
