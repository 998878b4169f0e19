// The CDS Hooks services (Da Vinci CRD), declared once; discovery, routes and OpenAPI are generated from here.
// Prefetch templates use root-level context tokens only (CDS Hooks; CRD#296): patient, coverage and, per hook, the
// encounter or the order being dispatched. Whatever a client does not prefetch is read from its FHIR server.
import type { CdsServiceDecl } from './decl-types.js';
import { runCoverageRequirements } from '../fhir/crd/crd.js';
import { CRD_READS } from '../fhir/shape/reads.js';
import { gatherHookData } from '../fhir/crd/hook-data.js';
import type { CrdHook } from '../fhir/crd/types.js';

const PATIENT = { patient: 'Patient/{{context.patientId}}' };
const COVERAGE = { coverage: 'Coverage?patient={{context.patientId}}&status=active' };

const crdService = (id: string, hook: CrdHook, prefetch: Record<string, string>): CdsServiceDecl => ({
  id,
  hook,
  prefetch,
  reads: CRD_READS,
  async run(req, hints, env) {
    const data = await gatherHookData(hook, req, env.cds.ehr.session(req.fhirServer, req.fhirAuthorization));
    const out = runCoverageRequirements(env.model, req, data, {
      base: env.base,
      now: env.now,
      hints,
      fallback: env.cds.subscriptionDefault,
      ...(env.cds.dtrLaunchUrl ? { dtrLaunchUrl: env.cds.dtrLaunchUrl } : {}),
    });
    return { body: out.response, scope: out.scope };
  },
});

export const CDS_SERVICES: readonly CdsServiceDecl[] = [
  crdService('service-coverage-requirements', 'order-sign', { ...PATIENT, ...COVERAGE }),
  crdService('service-coverage-requirements-select', 'order-select', { ...PATIENT, ...COVERAGE }),
  crdService('service-coverage-requirements-dispatch', 'order-dispatch', { ...PATIENT, ...COVERAGE, order: '{{context.order}}' }),
  crdService('service-coverage-requirements-appointment', 'appointment-book', { ...PATIENT, ...COVERAGE }),
  crdService('service-coverage-requirements-encounter-start', 'encounter-start', { ...PATIENT, ...COVERAGE, encounter: 'Encounter/{{context.encounterId}}' }),
  crdService('service-coverage-requirements-encounter-discharge', 'encounter-discharge', { ...PATIENT, ...COVERAGE, encounter: 'Encounter/{{context.encounterId}}' }),
];
