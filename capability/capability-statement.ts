// Static parts of the CapabilityStatement. The resources and operations are added from the registry
// (src/api/registry.ts), so this file never lists what the server serves.
import { IMPLEMENTATION_GUIDES } from '../fhir-profiles/canonicals.js';
import type { CapabilityStatement } from 'fhir/r4';

export const CAPABILITY_STATIC: Omit<CapabilityStatement, 'date' | 'rest' | 'implementation'> & { restDocumentation: string; securityDescription: string } = {
  resourceType: 'CapabilityStatement',
  name: 'PriorAuthorizationRulesService',
  title: 'Prior-authorization rules service: FHIR R4 surfaces',
  status: 'active',
  publisher: 'prauth',
  description:
    'Projections of human-verified, source-linked prior-authorization rules: a US Drug Formulary bundle per state and program, ' +
    'DTR questionnaires, a PAS Claim/$submit that answers from the rules, and (outside this statement, at /v1/cds-services) a CRD CDS Hooks service. ' +
    'By default only verified rules are served (each read from an official source and confirmed by a second reading, with its evidence); elsewhere the answer is a scope gap. Rules are not legal or clinical advice; the bundled illustrative sample rules are served only when the operator turns them on (SERVE_SAMPLE_RULES).',
  kind: 'instance',
  software: { name: 'prauth' },
  fhirVersion: '4.0.1',
  format: ['application/fhir+json', 'json'],
  implementationGuide: Object.values(IMPLEMENTATION_GUIDES).map((g) => `${g.canonical}|${g.version}`),
  restDocumentation:
    'Paths are under {base}/v1. US Drug Formulary: read and search of InsurancePlan, Basic (FormularyItem), MedicationKnowledge and ' +
    'Location at /{type}/{id}, /{type}?params and POST /{type}/_search (form body); searchset Bundles page with _count and next links; ' +
    'unknown parameters are ignored (reported in an OperationOutcome entry, left out of the self link) or, with Prefer: handling=strict, a 400. ' +
    'One formulary Bundle per state and program at GET /formulary/{state}/{program}; DTR questionnaires at GET /dtr/questionnaire/{state}/{program}/{code}. ' +
    'CDS Hooks (CRD) are not described here: see GET /v1/cds-services.',
  securityDescription:
    'SMART Backend Services: a registered client gets an access token at the token endpoint (oauth-uris extension; ' +
    'client_credentials with a private_key_jwt assertion signed RS384 or ES384; discovery at [base]/.well-known/smart-configuration, that is /v1/.well-known/smart-configuration) and ' +
    'sends it as Authorization: Bearer. An API key (a UUID v4 issued per subscription) in the x-api-key header works as well. /metadata is public, ' +
    'and so are the US Drug Formulary read and search endpoints unless the operator sets FORMULARY_PUBLIC=false. ' +
    'A client or key is scoped to states, programs and endpoint groups; out-of-scope requests answer 403 with an OperationOutcome, as does a ' +
    'token whose SMART scopes do not cover the request; when the formulary is not public, formulary searches and reads see only what the credential covers (when it is public, every caller sees all of it); ' +
    'a missing, invalid or expired credential answers 401 with WWW-Authenticate: Bearer.',
};
