// Da Vinci PAS declarations.
import { PAS_OPERATION } from '../../../fhir-profiles/canonicals.js';
import { queryHints, today, type FhirDecl, type FhirOperationDecl } from '../decl-types.js';
import { isFailure } from '../outcome.js';
import { decideItems, parsePasRequest, pasCoverageContext, toPasResponse } from '../pas.js';

const claimSubmit: FhirOperationDecl = {
  kind: 'operation',
  id: 'fhir-claim-submit',
  resourceType: 'Claim',
  name: 'submit',
  definition: PAS_OPERATION.submit,
  auth: 'key',
  queryParams: [
    { name: 'state', description: 'Optional: the member state (else the claim jurisdiction, the patient address or the payer)' },
    { name: 'program', description: 'Optional: the program (else Coverage.class naming a program, an SOPT Coverage.type or the payer)' },
  ],
  summary: 'PAS (2.2.1) Claim/$submit',
  description:
    'Body: a PAS request Bundle (first entry a Claim with use=preauthorization, every referenced resource included) or a bare Claim. Answers a response Bundle whose first entry is a ClaimResponse: each item echoes itemSequence with a reviewAction (A1 no PA needed, A4 pended with the documentation needed, A3 not certified when no code can be identified) and a preAuthRef for inquiry. 400 OperationOutcome pointing at the bad element.',
  capability: [{ type: 'Claim', supportedProfile: ['http://hl7.org/fhir/us/davinci-pas/StructureDefinition/profile-claim'], documentation: 'Only the $submit operation; no read, search or $inquire.' }],
  run(input, env) {
    const hints = queryHints(input.query);
    if (isFailure(hints)) return hints;
    const req = parsePasRequest(input.body);
    if (isFailure(req)) return req;
    const cc = pasCoverageContext(env.model, req, hints, today(env.now));
    if (!cc.state || !cc.program) {
      return {
        status: 400,
        code: 'missing_parameter',
        message: `Cannot tell the member's state and program: ${cc.basis.filter((b) => b.includes('unknown')).join('; ')}. Send ?state=&program= or a Coverage that names them.`,
        expression: `${req.claimPath}.insurance`,
      };
    }
    const decisions = decideItems(env.model, req, { state: cc.state, program: cc.program, payer: cc.payer });
    return { body: toPasResponse(req, decisions, env.now), scope: { states: [cc.state], programs: [cc.program] } };
  },
};


export const PAS_DECLS: readonly FhirDecl[] = [claimSubmit];
