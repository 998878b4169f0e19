// The CDS Hooks services (Da Vinci CRD), declared once; discovery, routes and OpenAPI are generated from here.
// Prefetch templates use root-level context tokens only (CDS Hooks; CRD#296): patient, coverage and, per hook, the
// encounter or the order being dispatched. Whatever a client does not prefetch is read from its FHIR server.
import type { CdsServiceDecl } from './decl-types.js';
import { runCoverageRequirements } from '../fhir/crd/crd.js';
import { CRD_READS } from '../fhir/shape/reads.js';
import { gatherHookData } from '../fhir/crd/hook-data.js';
import type { CrdHook } from '../fhir/crd/types.js';
// The CRD test kit's request for each hook (./examples/README.md): the OpenAPI example of each service.
import orderSign from './examples/crd-kit-spec-order-sign.json' with { type: 'json' };
import orderSelect from './examples/crd-kit-spec-order-select.json' with { type: 'json' };
import orderDispatch from './examples/crd-kit-spec-order-dispatch.json' with { type: 'json' };
import appointmentBook from './examples/crd-kit-spec-appointment-book.json' with { type: 'json' };
import encounterStart from './examples/crd-kit-spec-encounter-start.json' with { type: 'json' };
import encounterDischarge from './examples/crd-kit-spec-encounter-discharge.json' with { type: 'json' };

const PATIENT = { patient: 'Patient/{{context.patientId}}' };
const COVERAGE = { coverage: 'Coverage?patient={{context.patientId}}&status=active' };

const crdService = (id: string, hook: CrdHook, prefetch: Record<string, string>, example: unknown): CdsServiceDecl => ({
  id,
  hook,
  prefetch,
  example: { body: example },
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
  crdService('service-coverage-requirements', 'order-sign', { ...PATIENT, ...COVERAGE }, orderSign),
  crdService('service-coverage-requirements-select', 'order-select', { ...PATIENT, ...COVERAGE }, orderSelect),
  crdService('service-coverage-requirements-dispatch', 'order-dispatch', { ...PATIENT, ...COVERAGE, order: '{{context.order}}' }, orderDispatch),
  crdService('service-coverage-requirements-appointment', 'appointment-book', { ...PATIENT, ...COVERAGE }, appointmentBook),
  crdService('service-coverage-requirements-encounter-start', 'encounter-start', { ...PATIENT, ...COVERAGE, encounter: 'Encounter/{{context.encounterId}}' }, encounterStart),
  crdService('service-coverage-requirements-encounter-discharge', 'encounter-discharge', { ...PATIENT, ...COVERAGE, encounter: 'Encounter/{{context.encounterId}}' }, encounterDischarge),
];
