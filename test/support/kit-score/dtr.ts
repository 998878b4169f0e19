// The Da Vinci DTR payer server suite (inferno-framework/davinci-dtr-test-kit 9c77330, dtr_payer_server_suite.rb),
// its 14 counted tests re-implemented in the kit's manual flow: the static group (package response, libraries,
// Questionnaire extensions, item expressions) and the adaptive group (the same four on the adaptive package, the
// package Bundles against DTR-QPackageBundle, the forms against dtr-questionnaire-adapt-search, the $next-question
// responses, their contained forms' extensions and expressions, and completion). Not counted: the request tests
// (they wait for a client or pass on manual input) and the request validation tests (they check the tester's input).
// Assertions follow cql_test.rb: libraries carry text/cql and application/elm+json with data, unique names; every
// cqf-library names a Library of the package; launchContext, variable and itemPopulationContext present and in
// text/cql; item initial/candidate/context expressions in text/cql; an expression names an included library first.
// Inputs: the kit's preset static request (test/kit-requests/dtr-kit-preset-static-request.json, the key of a client
// registered for MA Medicare, as its SMART app would be); the preset runs the static flow only, so the adaptive inputs
// are what a tester gives for this server: the same request at the adaptive form's instance endpoint (the kit's
// "Endpoint for a Particular Adaptive Resource"), then the $next-question requests of a session answering each
// question it is asked.
import request from 'supertest';
import { DTR_PROFILE } from '../../../fhir-profiles/canonicals.js';
import { validateAgainst } from '../ig-validate.js';
import { kitBody } from '../kit-requests.js';
import type { TestApp } from '../test-app.js';
import { KitRun } from './score.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SDC = 'http://hl7.org/fhir/uv/sdc/StructureDefinition/';
const EXT = {
  launchContext: `${SDC}sdc-questionnaire-launchContext`,
  variable: 'http://hl7.org/fhir/StructureDefinition/variable',
  popContext: `${SDC}sdc-questionnaire-itemPopulationContext`,
  cqfLibrary: 'http://hl7.org/fhir/StructureDefinition/cqf-library',
  initial: `${SDC}sdc-questionnaire-initialExpression`,
  candidate: `${SDC}sdc-questionnaire-candidateExpression`,
  context: `${SDC}sdc-questionnaire-contextExpression`,
};

const bundlesOf = (p: Json): Json[] => (p?.parameter ?? []).map((x: Json) => x.resource).filter((r: Json) => r?.resourceType === 'Bundle');
const ofType = (bundles: Json[], type: string): Json[] => bundles.flatMap((b) => (b.entry ?? []).map((e: Json) => e.resource).filter((r: Json) => r?.resourceType === type));

/** The DTR profile check of the kit's validator; the one validator artefact dtr.test.ts documents is left out. */
function errorsAgainst(r: Json, profile: string): string[] {
  return validateAgainst(r as never, profile).filter((m) => !(m === 'Questionnaire.subjectType: Value did not match expected pattern' && JSON.stringify(r.subjectType) === '["Patient"]'));
}

/** check_libraries: a reason it fails, or undefined; fills `names` and `urls` for the tests after it. */
function librariesProblem(bundles: Json[], names: Set<string>, urls: Set<string>): string | undefined {
  const libs = ofType(bundles, 'Library');
  if (!libs.length) return 'No Libraries found.';
  for (const lib of libs) {
    if (lib.url) urls.add(lib.url);
    const types = (lib.content ?? []).map((c: Json) => c.contentType);
    if ((lib.content ?? []).some((c: Json) => !c.data)) return `${lib.url}: content without data`;
    if (names.has(lib.name)) return `duplicate library name ${lib.name}`;
    if (!types.includes('text/cql')) return `${lib.url} does not include CQL`;
    if (!types.includes('application/elm+json')) return `${lib.url} does not include ELM`;
    names.add(lib.name);
  }
  return undefined;
}

/** An expression names an included library first ("Lib"."Def"), when libraries are known. */
const misformatted = (e: Json, names: Set<string>): boolean => !!e.valueExpression && names.size > 0 && ![...names].some((n) => String(e.valueExpression.expression ?? '').startsWith(`"${n}"`));
const nonCql = (e: Json): boolean => !!e.valueExpression && e.valueExpression.language !== 'text/cql';

/** verify_questionnaire_extensions. */
function extensionsProblem(qs: Json[], names: Set<string>, urls: Set<string>): string | undefined {
  if (!qs.length) return 'No questionnaires found.';
  const seen = new Set<string>();
  for (const q of qs) {
    for (const e of q.extension ?? []) {
      const kind = Object.entries(EXT).find(([, u]) => u === e.url)?.[0];
      if (!kind || !['launchContext', 'variable', 'popContext', 'cqfLibrary'].includes(kind)) continue;
      seen.add(kind);
      if (kind === 'cqfLibrary' && !urls.has(e.valueCanonical)) return `cqf-library ${e.valueCanonical} is not in the package`;
      if (nonCql(e)) return `${kind} not written in CQL`;
      if (kind !== 'cqfLibrary' && misformatted(e, names)) return `${kind} expression does not begin with an included library`;
    }
  }
  return seen.size ? undefined : 'No extensions found. Questionnaire must demonstrate prepopulation.';
}

/** verify_questionnaire_items (nested items included). */
function expressionsProblem(qs: Json[], names: Set<string>): string | undefined {
  if (!qs.length) return 'No questionnaires found.';
  const exts: Json[] = [];
  const walk = (items: Json[] | undefined): void => {
    for (const it of items ?? []) {
      exts.push(...(it.extension ?? []).filter((e: Json) => [EXT.initial, EXT.candidate, EXT.context].includes(e.url)));
      walk(it.item);
    }
  };
  for (const q of qs) walk(q.item);
  if (!exts.length) return 'No extensions found. Questionnaire must demonstrate prepopulation.';
  if (exts.some(nonCql)) return 'Found non-cql expression.';
  if (exts.some((e) => misformatted(e, names))) return 'Expression in questionnaire misformatted.';
  return undefined;
}

/** An answer to one question, by its type (the first option or value-set code for a choice). */
function answerFor(item: Json, valueSets: Json[]): Json[] {
  switch (item.type) {
    case 'boolean':
      return [{ valueBoolean: true }];
    case 'decimal':
      return [{ valueDecimal: 90 }];
    case 'integer':
      return [{ valueInteger: 1 }];
    case 'date':
      return [{ valueDate: '2026-11-20' }];
    case 'string':
    case 'text':
      return [{ valueString: 'as documented' }];
    case 'attachment':
      return [{ valueAttachment: { contentType: 'application/pdf', title: item.text } }];
    case 'choice':
    case 'open-choice': {
      const opt = item.answerOption?.[0]?.valueCoding ?? valueSets.find((v) => v.url === String(item.answerValueSet ?? '').split('|')[0])?.expansion?.contains?.[0];
      if (opt) return [{ valueCoding: { system: opt.system, code: opt.code, ...(opt.display ? { display: opt.display } : {}) } }];
      return item.type === 'open-choice' ? [{ valueString: 'as documented in the clinical notes' }] : [];
    }
    default:
      return [];
  }
}

export async function runDtrKit(t: TestApp): Promise<KitRun> {
  const run = new KitRun('DTR payer server');
  const key = await t.key({ name: 'dtr-kit-app', states: ['MA'], programs: ['medicare_traditional'] });
  const post = async (path: string, body: Json): Promise<{ status: number; body: Json }> => {
    const res = await request(t.app.handler).post(path).set('x-api-key', key).set('content-type', 'application/fhir+json').send(JSON.stringify(body));
    return { status: res.status, body: res.body as Json };
  };
  const packageProblem = (res: { status: number; body: Json }): string | undefined => {
    if (![200, 201].includes(res.status)) return `HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`;
    const errors = errorsAgainst(res.body, DTR_PROFILE.outputParameters);
    if (errors.length) return errors.slice(0, 3).join('; ');
    return bundlesOf(res.body).length ? undefined : 'No questionnaire bundle found in the response';
  };

  // --- Static ---
  const staticRes = await post('/v1/Questionnaire/$questionnaire-package', kitBody('dtr-kit-preset-static-request.json'));
  const staticBundles = bundlesOf(staticRes.body);
  const names = new Set<string>();
  const urls = new Set<string>();
  await run.check('dtr_v201_payer_static_form_response_test', () => packageProblem(staticRes));
  await run.check('dtr_v201_payer_static_form_libraries_test', () => librariesProblem(staticBundles, names, urls));
  await run.check('dtr_v201_payer_static_form_extensions_test', () => extensionsProblem(ofType(staticBundles, 'Questionnaire'), names, urls));
  await run.check('dtr_v201_payer_static_form_expressions_test', () => expressionsProblem(ofType(staticBundles, 'Questionnaire'), names));

  // --- Adaptive (the static form's id names the rule: pa-{state}-{program}-{code}; its adaptive form is adaptive-...) ---
  const staticId = ofType(staticBundles, 'Questionnaire')[0]?.id ?? 'pa-unknown';
  const adaptiveRes = await post(`/v1/Questionnaire/${staticId.replace(/^pa-/, 'adaptive-')}/$questionnaire-package`, kitBody('dtr-kit-preset-static-request.json'));
  const adaptiveBundles = bundlesOf(adaptiveRes.body);
  const aNames = new Set<string>();
  const aUrls = new Set<string>();
  const adaptiveForms = ofType(adaptiveBundles, 'Questionnaire');
  await run.check('payer_server_adaptive_response_validation_test', () => packageProblem(adaptiveRes));
  await run.check('dtr_v201_payer_adaptive_form_libraries_test', () => librariesProblem(adaptiveBundles, aNames, aUrls));
  await run.check('dtr_v201_payer_adaptive_form_extensions_test', () => extensionsProblem(adaptiveForms, aNames, aUrls));
  await run.check('dtr_v201_payer_adaptive_form_expressions_test', () => expressionsProblem(adaptiveForms, aNames));
  await run.check('payer_server_adaptive_response_bundles_validation_test', () => (adaptiveBundles.length ? adaptiveBundles.flatMap((b) => errorsAgainst(b, DTR_PROFILE.packageBundle)).slice(0, 3).join('; ') || undefined : 'No resources to validate.'));
  await run.check('payer_server_adaptive_response_search_validation_test', () => (adaptiveForms.length ? adaptiveForms.flatMap((q) => errorsAgainst(q, DTR_PROFILE.adaptQuestionnaireSearch)).slice(0, 3).join('; ') || undefined : 'No adaptive questionnaires to validate.'));

  // $next-question: the draft response of the package, each question answered as it comes, to completion.
  const responses: { status: number; body: Json }[] = [];
  const valueSets = ofType(adaptiveBundles, 'ValueSet');
  let qr = ofType(adaptiveBundles, 'QuestionnaireResponse')[0];
  for (let step = 0; qr && step < 40 && qr.status !== 'completed'; step++) {
    const next = (qr.contained?.[0]?.item ?? []).at(-1);
    if (!next) break;
    const answered = { ...qr, item: (qr.item ?? []).map((i: Json) => (i.linkId === next.linkId ? { linkId: i.linkId, ...(i.text ? { text: i.text } : {}), answer: answerFor(next, valueSets) } : i)) };
    const res = await post('/v1/Questionnaire/$next-question', answered);
    responses.push(res);
    if (res.status !== 200) break;
    qr = res.body;
  }
  const contained = responses.flatMap((r) => (r.body?.contained ?? []).filter((c: Json) => c.resourceType === 'Questionnaire'));
  const nNames = new Set(aNames);
  await run.check('payer_server_next_response_validation_test', () => {
    if (!responses.length) return 'No requests to validate.';
    const bad = responses.find((r) => ![200, 202].includes(r.status));
    if (bad) return `HTTP ${bad.status}: ${JSON.stringify(bad.body).slice(0, 200)}`;
    // sdc-questionnaireresponse is not among the vendored packages: base R4 QuestionnaireResponse, and the DTR profile each response claims.
    return responses.flatMap((r) => errorsAgainst(r.body, r.body.meta?.profile?.[0])).slice(0, 3).join('; ') || undefined;
  });
  await run.check('dtr_v201_payer_adaptive_next_question_extensions_test', () => extensionsProblem(contained, nNames, aUrls));
  await run.check('dtr_v201_payer_adaptive_next_question_expressions_test', () => expressionsProblem(contained, nNames));
  await run.check('payer_server_adaptive_completion_test', () => (responses.some((r) => r.body?.status === 'completed') ? undefined : `Next request sequence did not result in a completed questionnaire (${responses.length} steps)`));
  return run;
}
