// The CDS Hooks services (Da Vinci CRD), declared once; discovery, routes and OpenAPI are generated from here.
import type { CdsServiceDecl } from '../fhir/decl-types.js';
import { runCoverageRequirements } from './crd.js';

const CRD_PREFETCH = {
  patient: 'Patient/{{context.patientId}}',
  coverage: 'Coverage?patient={{context.patientId}}&status=active',
};

const crdService = (id: string, hook: CdsServiceDecl['hook']): CdsServiceDecl => ({
  id,
  hook,
  prefetch: CRD_PREFETCH,
  run(req, hints, env) {
    const out = runCoverageRequirements(env.model, req, { base: env.base, now: env.now, hints });
    return { body: out.response, scope: out.scope };
  },
});

export const CDS_SERVICES: readonly CdsServiceDecl[] = [
  crdService('service-coverage-requirements', 'order-sign'),
  crdService('service-coverage-requirements-select', 'order-select'),
];

