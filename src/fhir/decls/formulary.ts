// US Drug Formulary declarations.
import { USDF_PROFILE } from '../../../fhir-profiles/canonicals.js';
import { parseStateProgram, type FhirDecl, type FhirPathDecl } from '../decl-types.js';
import { toFormularyBundle } from '../formulary.js';
import { isFailure } from '../outcome.js';

const formulary: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-formulary',
  path: '/v1/formulary/:state/:program',
  pathParams: [
    { name: 'state', description: 'USPS code of a state or DC, upper case (^[A-Z]{2}$)' },
    { name: 'program', description: 'Program (aliases accepted)' },
  ],
  auth: 'key',
  summary: 'US Drug Formulary (2.1.0) Bundle of a state and program',
  description:
    'A searchset Bundle of one InsurancePlan (usdf-Formulary), one Basic (usdf-FormularyItem: tier, prior-authorization, step-therapy and quantity-limit flags) per drug, and the MedicationKnowledge (usdf-FormularyDrug, RxNorm where the crosswalk knows it) each item points at. 404 when the pair has no verified drug rule.',
  capability: [
    { type: 'InsurancePlan', supportedProfile: [USDF_PROFILE.formulary], documentation: 'In the Bundle at GET /formulary/{state}/{program}; no read or search at /InsurancePlan.' },
    { type: 'Basic', supportedProfile: [USDF_PROFILE.formularyItem], documentation: 'FormularyItems, in the same Bundle; no read or search at /Basic.' },
    { type: 'MedicationKnowledge', supportedProfile: [USDF_PROFILE.formularyDrug], documentation: 'FormularyDrugs, in the same Bundle; no read or search at /MedicationKnowledge.' },
  ],
  run(input, env) {
    const sp = parseStateProgram(input.params.state, input.params.program, '');
    if (isFailure(sp)) return sp;
    const bundle = toFormularyBundle(env.model, { ...sp, base: env.base, now: env.now });
    const scope = { states: [sp.state], programs: [sp.program] };
    if (!bundle) return { status: 404, code: 'scope_gap', message: `No verified drug rule for ${sp.state} ${sp.program} yet`, scope };
    return { body: bundle, scope };
  },
};


export const FORMULARY_DECLS: readonly FhirDecl[] = [formulary];
