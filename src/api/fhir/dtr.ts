// Da Vinci DTR 2.0.1 declarations: $questionnaire-package, $next-question (adaptive forms), and reads of the
// Questionnaires, Libraries and ValueSets the packages carry.
import e0424PackageRequest from '../examples/dtr-kit-payer-server-e0424-questionnaire-package-request.json' with { type: 'json' };
import { isDrugClass, isServiceCategory } from '../../domain/vocabulary.js';
import { DTR_OPERATION, DTR_PROFILE } from '../../../fhir-profiles/canonicals.js';
import { parseStateProgram, queryHints, type FhirDecl, type FhirOperationDecl, type FhirPathDecl, type FhirResourceDecl } from '../decl-types.js';
import type { Scope } from '../../domain/named-scope.js';
import { cqlLibrary, toLibraryResource } from '../../fhir/dtr/cql-libraries.js';
import { namedScopeOfNextInput, nextQuestion, parseNextInput, toAdaptivePackageQuestionnaire } from '../../fhir/dtr/next-question.js';
import { namedScopeOfPackageRequest, parsePackageInput, questionnairePackage } from '../../fhir/dtr/package.js';
import { ruleByQuestionnaireId, scopeOfQuestionnaireId, toDtrQuestionnaire } from '../../fhir/dtr/questionnaires.js';
import { toValueSet, valueSetKeyById } from '../../fhir/dtr/value-sets.js';
import { isFailure, type Failure } from '../../fhir/outcome.js';
import { DTR_NEXT_READS, DTR_PACKAGE_READS } from '../../fhir/shape/reads.js';
import { noneWillExist, outsideFor } from '../../corpus/program-gap.js';

const dtrQuestionnaire: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-dtr-questionnaire',
  path: '/v1/dtr/questionnaire/:state/:program/:drug',
  pathParams: [
    { name: 'state', description: 'USPS code of a state or DC, upper case (^[A-Z]{2}$)' },
    { name: 'program', description: 'Program (aliases accepted)' },
    { name: 'drug', description: 'A drug class code; a service category is also accepted (the canonical of service-rule questionnaires)' },
  ],
  auth: 'key',
  summary: 'DTR (2.0.1) Questionnaire for a rule, at its canonical address',
  description:
    "The rule's documentation requirements as a dtr-std-questionnaire with CQL pre-population. Its url is this address (the canonical CRD cards point at) and its version the rule's stored version; GET /Questionnaire/{id} serves the same resource. 404 when there is no verified rule.",
  // What it returns (the SMART scope it needs, system/Questionnaire.rs, is derived from this).
  capability: [{ type: 'Questionnaire', supportedProfile: [DTR_PROFILE.stdQuestionnaire] }],
  run(input, env) {
    const sp = parseStateProgram(input.params.state, input.params.program, '');
    if (isFailure(sp)) return sp;
    const code = (input.params.drug ?? '').toLowerCase();
    const kind = isDrugClass(code) ? 'drug' : isServiceCategory(code) ? 'service' : undefined;
    if (!kind) return { status: 400, code: 'invalid_parameter', message: `Invalid drug '${code.slice(0, 40)}': not a drug class code or service category`, expression: 'drug' };
    const scope = { states: [sp.state], programs: [sp.program] };
    const rule = env.model.rules.get(`${sp.state}|${sp.program}|${kind}|${code}`);
    if (!rule) {
      const outside = outsideFor(env.model, { state: sp.state, program: sp.program, subject: { kind, code } });
      const what = `${sp.state} ${sp.program} ${kind} '${code}'`;
      const message = outside ? noneWillExist(what, outside) : `No verified rule for ${what} yet`;
      return { status: 404, code: 'scope_gap', message, scope };
    }
    return { body: toDtrQuestionnaire(rule, env.base), scope };
  },
};

/** The scope a questionnaire id names, for the subscription check before a 404. */
const scopeOf = (id: string): { scope?: Scope } => {
  const scope = scopeOfQuestionnaireId(id);
  return scope ? { scope } : {};
};

const notFound = (type: string, id: string): Failure => ({ status: 404, code: 'not_found', message: `No ${type} '${id.slice(0, 64)}'`, expression: 'id' });

const questionnaireRead: FhirResourceDecl = {
  kind: 'resource',
  id: 'fhir-questionnaire',
  resourceType: 'Questionnaire',
  auth: 'key',
  example: { params: { id: 'pa-tx-medicaid-mco-durable-medical-equipment' } },
  summary: 'Read a DTR Questionnaire',
  description:
    'DTR 2.0.1 Questionnaires by id: pa-{state}-{program}-{code} is the static form (dtr-std-questionnaire, CQL pre-population), adaptive-{state}-{program}-{code} the adaptive form (dtr-questionnaire-adapt) of a rule whose documentation branches. Packages: POST /Questionnaire/$questionnaire-package.',
  supportedProfile: [DTR_PROFILE.stdQuestionnaire, DTR_PROFILE.adaptQuestionnaireSearch, DTR_PROFILE.adaptQuestionnaire],
  searchParams: [],
  read(id, env) {
    const hit = ruleByQuestionnaireId(env.model, id);
    if (!hit) return { ...notFound('Questionnaire', id), ...scopeOf(id) };
    const scope = { states: [hit.rule.jurisdiction], programs: [hit.rule.program] };
    return { body: hit.adaptive ? toAdaptivePackageQuestionnaire(hit.rule, env.base) : toDtrQuestionnaire(hit.rule, env.base), scope };
  },
};

const libraryRead: FhirResourceDecl = {
  kind: 'resource',
  id: 'fhir-library',
  resourceType: 'Library',
  auth: 'key',
  example: { params: { id: 'DTRCommon' } },
  summary: 'Read a CQL Library',
  description: 'The CQL libraries the DTR questionnaires use (DTRCommon, DTRDevice, DTRDrug, DTRService, FHIRHelpers), each with its CQL text and the ELM JSON the CQL reference translator produced.',
  supportedProfile: [],
  searchParams: [],
  read(id, env) {
    const lib = cqlLibrary(id);
    return lib ? { body: toLibraryResource(lib, env.base, env.model.lastVerified ?? env.now.toISOString().slice(0, 10)) } : notFound('Library', id);
  },
};

const valueSetRead: FhirResourceDecl = {
  kind: 'resource',
  id: 'fhir-valueset',
  resourceType: 'ValueSet',
  auth: 'key',
  example: { params: { id: 'dtr-dme-category' } },
  summary: 'Read an answer ValueSet',
  description: 'The answer value sets the DTR questionnaires bind coded items to, expanded.',
  supportedProfile: [],
  searchParams: [],
  read(id, env) {
    const key = valueSetKeyById(id);
    return key ? { body: toValueSet(key, env.base, env.now) } : notFound('ValueSet', id);
  },
};

const questionnairePackageOp: FhirOperationDecl = {
  kind: 'operation',
  id: 'fhir-questionnaire-package',
  resourceType: 'Questionnaire',
  name: 'questionnaire-package',
  definition: DTR_OPERATION.questionnairePackage,
  auth: 'key',
  reads: DTR_PACKAGE_READS,
  // The DTR kit's home-oxygen request (E0424; its Coverage names no state or program, so the hints say them).
  example: { params: { state: 'TX', program: 'medicaid_mco', id: 'pa-tx-medicaid-mco-durable-medical-equipment' }, body: e0424PackageRequest },
  queryParams: [
    { name: 'state', description: 'Optional: the member state when the Coverage does not tell' },
    { name: 'program', description: 'Optional: the program when the Coverage does not tell' },
  ],
  summary: 'DTR $questionnaire-package',
  description:
    "dtr-qpackage-input-parameters in (coverage, order*, referenced*, questionnaire*, context, changedsince); dtr-qpackage-output-parameters out: one `PackageBundle` per questionnaire (the Questionnaire, its CQL Libraries with CQL and ELM, its ValueSets expanded, a draft QuestionnaireResponse) and an `operationOutcome` with warnings. The rule is found from `context` (CRD's coverage-assertion-id), a questionnaire canonical we issued (the adaptive form's address selects the adaptive form), or the orders' codes. Also at the instance level, POST /Questionnaire/{id}/$questionnaire-package, for that questionnaire. A canonical, coverage-assertion id, instance id or ?state=&program= hint naming a state or program outside the subscription is a 403 before the body is checked, whether or not a rule exists there.",
  instance: true,
  scope: (input) => namedScopeOfPackageRequest(input.body, input.params.id),
  run(input, env) {
    const hints = queryHints(input.query);
    if (isFailure(hints)) return hints;
    // Instance level (POST /Questionnaire/{id}/$questionnaire-package): that questionnaire, e.g. the adaptive form.
    const id = input.params.id;
    if (id !== undefined && !ruleByQuestionnaireId(env.model, id)) return { ...notFound('Questionnaire', id), ...scopeOf(id) };
    const parsed = parsePackageInput(input.body, id !== undefined ? [`${env.base}/v1/Questionnaire/${id}`] : []);
    if (isFailure(parsed)) return parsed;
    const out = questionnairePackage(env.model, parsed, {
      base: env.base,
      now: env.now,
      hints,
      // The caller's only state/program when the request cannot tell (the kit's oxygen preset: Coverage "MedicarePartA", no Patient).
      fallback: env.cds.subscriptionDefault,
      bodyWarnings: input.warnings ?? [],
    });
    if (isFailure(out)) return out;
    return { body: out.parameters, scope: out.scope };
  },
};

const nextQuestionOp: FhirOperationDecl = {
  kind: 'operation',
  id: 'fhir-next-question',
  resourceType: 'Questionnaire',
  name: 'next-question',
  definition: DTR_OPERATION.nextQuestion,
  auth: 'key',
  reads: DTR_NEXT_READS,
  queryParams: [],
  summary: 'SDC $next-question (DTR adaptive forms)',
  description:
    'The adaptive QuestionnaireResponse in (bare, or in Parameters as `questionnaire-response`), with the adaptive Questionnaire from $questionnaire-package contained; out: the same response with the next question added to the contained Questionnaire, or status `completed` when every question the answers call for is answered. Answers that do not fit their question are a 400.',
  scope: (input) => namedScopeOfNextInput(input.body),
  run(input, env) {
    const parsed = parseNextInput(env.model, input.body);
    if (isFailure(parsed)) return parsed;
    const scope = { states: [parsed.rule.jurisdiction], programs: [parsed.rule.program] };
    const out = nextQuestion(parsed, env.base, env.now);
    return isFailure(out) ? { ...out, scope } : { body: out, scope };
  },
};

export const DTR_DECLS: readonly FhirDecl[] = [dtrQuestionnaire, questionnaireRead, libraryRead, valueSetRead, questionnairePackageOp, nextQuestionOp];
