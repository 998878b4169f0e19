// Da Vinci DTR declarations.
import { isDrugClass, isServiceCategory } from '../../domain/vocabulary.js';
import { DTR_OPERATION, DTR_PROFILE } from '../../../fhir-profiles/canonicals.js';
import { parseStateProgram, queryHints, type FhirDecl, type FhirOperationDecl, type FhirPathDecl } from '../decl-types.js';
import { isFailure } from '../outcome.js';
import { parsePackageInput, questionnairePackage, toDtrQuestionnaire } from '../questionnaire.js';

const dtrQuestionnaire: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-dtr-questionnaire',
  path: '/v1/dtr/questionnaire/:state/:program/:drug',
  pathParams: [
    { name: 'state', description: 'USPS code of a state or DC (case-insensitive)' },
    { name: 'program', description: 'Program (aliases accepted)' },
    { name: 'drug', description: 'A drug class code; a service category is also accepted (the canonical of service-rule questionnaires)' },
  ],
  auth: 'key',
  summary: 'DTR (2.2.0) Questionnaire for a rule',
  description:
    "The rule's criteria and documentation requirements as a dtr-std-questionnaire. Its url is this address (the canonical CRD points at) and its version the rule's stored version. 404 when there is no verified rule.",
  capability: [
    { type: 'Questionnaire', supportedProfile: [DTR_PROFILE.stdQuestionnaire], documentation: 'Read by canonical at GET /dtr/questionnaire/{state}/{program}/{code}; no read or search at /Questionnaire.' },
  ],
  run(input, env) {
    const sp = parseStateProgram(input.params.state, input.params.program, '');
    if (isFailure(sp)) return sp;
    const code = (input.params.drug ?? '').toLowerCase();
    const kind = isDrugClass(code) ? 'drug' : isServiceCategory(code) ? 'service' : undefined;
    if (!kind) return { status: 400, code: 'invalid_parameter', message: `Invalid drug '${code.slice(0, 40)}': not a drug class code or service category`, expression: 'drug' };
    const scope = { states: [sp.state], programs: [sp.program] };
    const rule = env.model.rules.get(`${sp.state}|${sp.program}|${kind}|${code}`);
    if (!rule) return { status: 404, code: 'scope_gap', message: `No verified rule for ${sp.state} ${sp.program} ${kind} '${code}' yet`, scope };
    return { body: toDtrQuestionnaire(rule, env.base), scope };
  },
};

const questionnairePackageOp: FhirOperationDecl = {
  kind: 'operation',
  id: 'fhir-questionnaire-package',
  resourceType: 'Questionnaire',
  name: 'questionnaire-package',
  definition: DTR_OPERATION.questionnairePackage,
  auth: 'key',
  queryParams: [
    { name: 'state', description: 'Optional: the member state when the Coverage does not tell' },
    { name: 'program', description: 'Optional: the program when the Coverage does not tell' },
  ],
  summary: 'DTR $questionnaire-package',
  description:
    "Parameters in (coverage, order*, questionnaire*, context); Parameters out with one `packagebundle` per resolved rule (the Questionnaire and a draft QuestionnaireResponse) and an `outcome` with warnings. The rule is found from `context` (CRD's coverage-assertion-id), a questionnaire canonical we issued, or the orders' codes.",
  run(input, env) {
    const hints = queryHints(input.query);
    if (isFailure(hints)) return hints;
    const parsed = parsePackageInput(input.body);
    if (isFailure(parsed)) return parsed;
    const out = questionnairePackage(env.model, parsed, { base: env.base, now: env.now, hints, inScope: env.inScope });
    if (isFailure(out)) return out;
    return { body: out.parameters, scope: out.scope };
  },
};


export const DTR_DECLS: readonly FhirDecl[] = [dtrQuestionnaire, questionnairePackageOp];
