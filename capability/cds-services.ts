// Static parts of the CDS Hooks discovery document (titles, descriptions, CRD configuration options). The
// list of services comes from the registry (src/api/registry.ts).

/** A CRD configuration option advertised in CDS Hooks discovery (CRD 2.0.1 §configuration options). */
export interface CdsConfigurationOption {
  code: string;
  type: 'boolean' | 'integer';
  name: string;
  description: string;
  default: boolean | number;
}

/** Codes from the CRD card types (CRD 2.0.1 binds configuration codes to them), plus max-cards (CRD 2.2). */
export const CRD_CONFIGURATION_OPTIONS: CdsConfigurationOption[] = [
  {
    code: 'coverage-info',
    type: 'boolean',
    name: 'Coverage Information',
    description:
      'Coverage information on each order (covered, prior authorization needed, documentation with its DTR questionnaire) as a system action, with a verdict card per order and the policy sources. Also read as "coverage".',
    default: true,
  },
  {
    code: 'limits',
    type: 'boolean',
    name: 'Limits',
    description: 'Instructions cards for step therapy, quantity limits and new-starts-only rules on an order',
    default: true,
  },
  {
    code: 'max-cards',
    type: 'integer',
    name: 'Maximum cards',
    description: 'The maximum number of cards to return',
    default: 10,
  },
];

const WHAT =
  'whether prior authorization is needed under the member\'s state and program, the documentation to send (with its DTR questionnaire), the decision timeframe and the source of the rule';

export const CDS_SERVICE_TEXT: Record<string, { title: string; description: string }> = {
  'order-sign': {
    title: 'Prior-authorization coverage requirements (order sign)',
    description: `For each draft ServiceRequest, DeviceRequest and MedicationRequest: ${WHAT}.`,
  },
  'order-select': {
    title: 'Prior-authorization coverage requirements (order select)',
    description: `For the orders just selected: ${WHAT}.`,
  },
  'order-dispatch': {
    title: 'Prior-authorization coverage requirements (order dispatch)',
    description: `For the order being dispatched to a performer: ${WHAT}.`,
  },
  'appointment-book': {
    title: 'Prior-authorization coverage requirements (appointment book)',
    description: `For each appointment being booked (its service type and the orders it is based on): ${WHAT}.`,
  },
  'encounter-start': {
    title: 'Prior-authorization coverage requirements (encounter start)',
    description: `For the encounter being started (inpatient and home health classes, procedure-coded types): ${WHAT}.`,
  },
  'encounter-discharge': {
    title: 'Prior-authorization coverage requirements (encounter discharge)',
    description: `For the encounter being discharged: ${WHAT}.`,
  },
};
