// Adaptive forms (DTR 2.0.1 via SDC $next-question): the client sends the QuestionnaireResponse with the adaptive
// Questionnaire contained; we add the next question the answers so far call for, or mark it completed. Stateless:
// the response carries the whole session. The questions and their branching are those of the static form
// (patterns.ts), asked one at a time, so both variants collect the same documentation.
import type { Questionnaire, QuestionnaireItem, QuestionnaireItemEnableWhen, QuestionnaireResponse, QuestionnaireResponseItem, QuestionnaireResponseItemAnswer } from 'fhir/r4';
import type { ReadModel } from '../../corpus/read-model.js';
import type { CoverageRuleDoc } from '../../domain/documents.js';
import { DTR_PROFILE, SDC_EXT } from '../../../fhir-profiles/canonicals.js';
import type { Failure } from '../outcome.js';
import { mergeScopes } from '../../domain/named-scope.js';
import { adaptiveAddress, adaptiveId, formItems, prepopulation, ruleFromCanonical, scopeOfCanonical, toAdaptiveQuestionnaire } from './questionnaires.js';
import { VALUE_SETS, valueSetUrl, type ValueSetKey } from './value-sets.js';
import { isRecord } from '../../domain/json.js';

interface Step {
  item: QuestionnaireItem;
  /** Every enableWhen on the way to the item (its own and its groups'); all must hold. */
  conditions: QuestionnaireItemEnableWhen[];
}

/** The static form flattened into the order questions are asked; groups become conditions on their questions. */
function steps(rule: CoverageRuleDoc, base: string): Step[] {
  const out: Step[] = [];
  const walk = (items: QuestionnaireItem[], inherited: QuestionnaireItemEnableWhen[]): void => {
    for (const it of items) {
      const conditions = [...inherited, ...(it.enableWhen ?? [])];
      if (it.type === 'group') {
        walk(it.item ?? [], conditions);
        continue;
      }
      const { enableWhen: _w, enableBehavior: _b, item: _i, ...flat } = it;
      out.push({ item: flat, conditions });
    }
  };
  walk(formItems(rule, base), []);
  return out;
}

type Answers = Map<string, QuestionnaireResponseItemAnswer[]>;

function collect(items: QuestionnaireResponseItem[] | undefined, into: Answers): void {
  for (const it of items ?? []) {
    if (it.answer?.length) into.set(it.linkId, it.answer);
    collect(it.item, into);
    for (const a of it.answer ?? []) collect(a.item, into);
  }
}

function holds(c: QuestionnaireItemEnableWhen, answers: Answers): boolean {
  const given = answers.get(c.question) ?? [];
  if (c.operator === 'exists') return (given.length > 0) === (c.answerBoolean ?? true);
  const equal = (a: QuestionnaireResponseItemAnswer): boolean => {
    if (c.answerBoolean !== undefined) return a.valueBoolean === c.answerBoolean;
    if (c.answerCoding) return a.valueCoding?.code === c.answerCoding.code && (!c.answerCoding.system || a.valueCoding?.system === c.answerCoding.system);
    return false;
  };
  // R4: '=' holds when some answer equals the value, '!=' when some answer differs; neither holds while unanswered.
  if (c.operator === '!=') return given.some((a) => !equal(a));
  if (c.operator === '=') return given.some(equal);
  return false;
}
const enabled = (s: Step, answers: Answers): boolean => s.conditions.every((c) => holds(c, answers));

const VALUE_KEYS: Readonly<Record<string, readonly string[]>> = {
  boolean: ['valueBoolean'],
  decimal: ['valueDecimal', 'valueInteger'],
  integer: ['valueInteger'],
  date: ['valueDate'],
  dateTime: ['valueDateTime'],
  time: ['valueTime'],
  string: ['valueString'],
  text: ['valueString'],
  url: ['valueUri'],
  choice: ['valueCoding'],
  'open-choice': ['valueCoding', 'valueString'],
  attachment: ['valueAttachment'],
  reference: ['valueReference'],
  quantity: ['valueQuantity'],
};

/** A 400 when an answer does not fit its question (wrong type, a code outside our answer value set). */
function checkAnswer(item: QuestionnaireItem, answer: QuestionnaireResponseItemAnswer, at: string, base: string): Failure | undefined {
  const keys = VALUE_KEYS[item.type] ?? [];
  const present = Object.keys(answer).filter((k) => k.startsWith('value'));
  if (present.length !== 1 || !keys.includes(present[0]!)) {
    return { status: 400, code: 'invalid_body', message: `Item '${item.linkId}' (${item.type}) takes ${keys.join(' or ')}; got ${present.join(', ') || 'no value'}`, expression: at };
  }
  const vsKey = (Object.keys(VALUE_SETS) as ValueSetKey[]).find((k) => item.answerValueSet === valueSetUrl(base, k));
  if (vsKey && item.type === 'choice') {
    const vs = VALUE_SETS[vsKey];
    const c = answer.valueCoding;
    if (c?.system !== vs.system || !vs.concepts.some((x) => x.code === c.code)) {
      return { status: 400, code: 'invalid_body', message: `Item '${item.linkId}': the coding is not in ${item.answerValueSet}`, expression: `${at}.valueCoding` };
    }
  }
  return undefined;
}

export interface NextInput {
  response: QuestionnaireResponse;
  rule: CoverageRuleDoc;
}

const bad = (message: string, expression: string): Failure => ({ status: 400, code: 'invalid_body', message, expression });

/**
 * The QuestionnaireResponse in the request: a Parameters with `questionnaire-response` (SDC's input) or the bare
 * resource (how some clients, the DTR test kit's manual flow among them, send it); and the rule its adaptive
 * Questionnaire is for.
 */
/**
 * What a $next-question request names, read from the request alone and never failing: the state and program of the
 * questionnaire canonicals it carries (the response's questionnaire, the contained form's url and derivedFrom).
 * Authorized before the body is validated, so an out-of-scope form is a 403 whether or not we publish it.
 */
export function namedScopeOfNextInput(body: unknown): { states: string[]; programs: string[] } {
  const params = isRecord(body) && body.resourceType === 'Parameters' && Array.isArray(body.parameter) ? body.parameter : undefined;
  const qr = params ? (params.find((p: unknown) => isRecord(p) && p.name === 'questionnaire-response') as Record<string, unknown> | undefined)?.resource : body;
  if (!isRecord(qr)) return { states: [], programs: [] };
  const contained = Array.isArray(qr.contained) ? qr.contained.filter((c: unknown) => isRecord(c) && c.resourceType === 'Questionnaire') : [];
  const canonicals = [qr.questionnaire, ...contained.flatMap((c: Record<string, unknown>) => [c.url, ...(Array.isArray(c.derivedFrom) ? c.derivedFrom : [])])];
  return canonicals.filter((c): c is string => typeof c === 'string').reduce((scope, c) => mergeScopes(scope, scopeOfCanonical(c) ?? {}), { states: [] as string[], programs: [] as string[] });
}

export function parseNextInput(model: ReadModel, body: unknown): NextInput | Failure {
  let qr: unknown = body;
  let at = 'QuestionnaireResponse';
  if (isRecord(body) && body.resourceType === 'Parameters') {
    const params = Array.isArray(body.parameter) ? body.parameter : [];
    const i = params.findIndex((p: unknown) => isRecord(p) && p.name === 'questionnaire-response');
    if (i < 0) return bad("Parameters need a 'questionnaire-response' parameter holding the QuestionnaireResponse", 'Parameters.parameter');
    qr = (params[i] as Record<string, unknown>).resource;
    at = `Parameters.parameter[${i}].resource`;
  }
  if (!isRecord(qr) || qr.resourceType !== 'QuestionnaireResponse') return bad('Send the adaptive QuestionnaireResponse (or Parameters with questionnaire-response)', at);
  const response = qr as unknown as QuestionnaireResponse;
  if (response.item !== undefined && !Array.isArray(response.item)) return bad('QuestionnaireResponse.item must be an array', `${at}.item`);
  if (response.contained !== undefined && !Array.isArray(response.contained)) return bad('QuestionnaireResponse.contained must be an array', `${at}.contained`);
  const ref = typeof response.questionnaire === 'string' ? response.questionnaire : '';
  const contained = (response.contained ?? []).find((c) => isRecord(c) && c.resourceType === 'Questionnaire' && (!ref.startsWith('#') || c.id === ref.slice(1))) as Questionnaire | undefined;
  const canonicals = [contained?.url, ...(contained?.derivedFrom ?? []), ref.startsWith('#') ? undefined : ref].filter((c): c is string => typeof c === 'string' && !!c);
  for (const c of canonicals) {
    const hit = ruleFromCanonical(model, c);
    if (hit) return { response, rule: hit.rule };
  }
  return bad(
    `The adaptive Questionnaire is not one we publish (url or derivedFrom must be a questionnaire canonical from $questionnaire-package): ${canonicals.join(', ').slice(0, 200) || 'none given'}`,
    `${at}.contained`,
  );
}

function advance(rule: CoverageRuleDoc, base: string, answers: Answers, asked: Set<string>): { items: QuestionnaireItem[]; done: boolean; missing?: string } {
  const all = steps(rule, base);
  const items: QuestionnaireItem[] = [];
  for (const s of all) {
    if (!enabled(s, answers)) continue;
    const id = s.item.linkId;
    if (asked.has(id)) {
      items.push(s.item);
      if (s.item.type !== 'display' && s.item.required && !answers.get(id)?.length) return { items, done: false, missing: id };
      continue;
    }
    items.push(s.item);
    if (s.item.type !== 'display') return { items, done: false };
  }
  return { items, done: true };
}

function build(rule: CoverageRuleDoc, base: string, from: Pick<QuestionnaireResponse, 'id' | 'extension' | 'subject' | 'author' | 'encounter' | 'source'>, items: QuestionnaireItem[], answers: Answers, done: boolean, now: Date): QuestionnaireResponse {
  const q = toAdaptiveQuestionnaire(rule, base, items);
  return {
    resourceType: 'QuestionnaireResponse',
    ...(from.id ? { id: from.id } : {}),
    meta: { profile: [DTR_PROFILE.questionnaireResponse] },
    contained: [q],
    ...(from.extension?.length ? { extension: from.extension } : {}),
    questionnaire: `#${adaptiveId(rule)}`,
    status: done ? 'completed' : 'in-progress',
    ...(from.subject ? { subject: from.subject } : {}),
    ...(from.encounter ? { encounter: from.encounter } : {}),
    authored: now.toISOString(),
    ...(from.author ? { author: from.author } : {}),
    ...(from.source ? { source: from.source } : {}),
    item: items
      .filter((it) => it.type !== 'display')
      .map((it) => ({ linkId: it.linkId, ...(it.text ? { text: it.text } : {}), ...(answers.get(it.linkId)?.length ? { answer: answers.get(it.linkId) } : {}) })),
  };
}

/**
 * The adaptive form as a package carries it and a read of its address returns it (dtr-questionnaire-adapt-search,
 * url 1..1, the address $questionnaire-package and $next-question resolve): the first question(s) a session is
 * asked, with what pre-populates them (the DTR kit looks for item expressions; DTR allows the first questions).
 */
export function toAdaptivePackageQuestionnaire(rule: CoverageRuleDoc, base: string): Questionnaire {
  const { items } = advance(rule, base, new Map(), new Set());
  const q = toAdaptiveQuestionnaire(rule, base, items);
  return {
    ...q,
    meta: { profile: [DTR_PROFILE.adaptQuestionnaireSearch] },
    extension: [...(q.extension ?? []).filter((e) => e.url !== SDC_EXT.cqfLibrary), ...prepopulation(rule, base)],
    url: adaptiveAddress(base, rule),
  };
}

/** The draft response of an adaptive package: the first question(s), nothing answered. */
export function firstQuestions(rule: CoverageRuleDoc, base: string, envelope: Pick<QuestionnaireResponse, 'extension' | 'subject'>, now: Date): QuestionnaireResponse {
  const answers: Answers = new Map();
  const step = advance(rule, base, answers, new Set());
  return build(rule, base, envelope, step.items, answers, step.done, now);
}

/** One $next-question step: the answers are checked against their questions, then the next question is added. */
export function nextQuestion(input: NextInput, base: string, now: Date): QuestionnaireResponse | Failure {
  const { response, rule } = input;
  const byId = new Map(steps(rule, base).map((s) => [s.item.linkId, s.item]));
  const answers: Answers = new Map();
  collect(response.item, answers);
  for (const [i, it] of (response.item ?? []).entries()) {
    const at = `QuestionnaireResponse.item[${i}]`;
    if (!isRecord(it) || typeof it.linkId !== 'string') return bad('Every item needs a linkId', `${at}.linkId`);
    const question = byId.get(it.linkId);
    if (!question) return bad(`Item '${it.linkId.slice(0, 60)}' is not a question of this form`, `${at}.linkId`);
    if (it.answer !== undefined && !Array.isArray(it.answer)) return bad('answer must be an array', `${at}.answer`);
    if ((it.answer?.length ?? 0) > 1 && !question.repeats) return bad(`Item '${it.linkId}' takes one answer`, `${at}.answer`);
    for (const [j, a] of (it.answer ?? []).entries()) {
      const f = isRecord(a) ? checkAnswer(question, a, `${at}.answer[${j}]`, base) : bad('An answer must be an object', `${at}.answer[${j}]`);
      if (f) return f;
    }
  }
  const contained = (response.contained ?? []).find((c) => c.resourceType === 'Questionnaire') as Questionnaire | undefined;
  const asked = new Set<string>((contained?.item ?? []).map((it) => it.linkId));
  // An item answered is an item asked, whatever the contained copy says.
  for (const k of answers.keys()) asked.add(k);
  const step = advance(rule, base, answers, asked);
  if (step.missing) return bad(`Answer the required item '${step.missing}' before asking for the next question`, 'QuestionnaireResponse.item');
  return build(rule, base, response, step.items, answers, step.done, now);
}
