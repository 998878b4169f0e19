// Static parts of the CDS Hooks discovery document (titles, descriptions, CRD configuration options). The
// list of services comes from the registry (src/fhir/registry.ts).
import type { CdsConfigurationOption } from '../src/cds/types.js';

export const CRD_CONFIGURATION_OPTIONS: CdsConfigurationOption[] = [
  {
    code: 'coverage-info',
    type: 'boolean',
    name: 'Coverage Information',
    description:
      'Return the coverage-information extension (covered, prior authorization needed, documentation needed, DTR questionnaire) on each draft order as a system action',
    default: true,
  },
  {
    code: 'max-cards',
    type: 'integer',
    name: 'Maximum cards',
    description: 'The maximum number of informational cards (coverage limits such as step therapy and quantity limits) to return',
    default: 10,
  },
];

export const CDS_SERVICE_TEXT: Record<string, { title: string; description: string }> = {
  'order-sign': {
    title: 'Prior-authorization coverage requirements (order sign)',
    description:
      'For each draft ServiceRequest, DeviceRequest and MedicationRequest: whether the service is covered, whether prior authorization is needed, the documentation needed with a DTR questionnaire, and the source of the rule.',
  },
  'order-select': {
    title: 'Prior-authorization coverage requirements (order select)',
    description: 'The same coverage information as the order-sign service, for the orders just selected.',
  },
};
