// Realistic CRD hook requests, one per hook, as EHRs send them (shapes follow the public CRD test kit's requests:
// Coverage search Bundles with fullUrls, Blue Button HCPCS, coverage-class "plan" values, Patient addresses).
// Each call returns a fresh object. The orders meet the CRD 2.0.1 profiles (authoredOn, requester...), because the
// coverage-information system action returns them and the test kit validates them against those profiles.
type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const BB_HCPCS = 'https://bluebutton.cms.gov/resources/codesystem/hcpcs';
export const CPT = 'http://www.ama-assn.org/go/cpt';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const SOPT = 'https://nahdo.org/sopt';
export const EHR = 'https://ehr.example.org/fhir';

export function patient(id: string, state: string, city: string): Any {
  return {
    resourceType: 'Patient',
    id,
    identifier: [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] }, system: 'urn:oid:1.2.36.146.595.217.0.1', value: `MRN-${id}` }],
    name: [{ use: 'official', family: 'Rivera', given: ['Ana'] }],
    gender: 'female',
    birthDate: '1951-03-14',
    address: [{ use: 'home', line: ['12 Main St'], city, state, postalCode: '00000' }],
  };
}

/** A Coverage with a SOPT type and a plan class value, as US Core and the CRD kit send them. */
export function coverage(id: string, patientId: string, sopt: string, soptDisplay: string, plan: string, payor: string): Any {
  return {
    resourceType: 'Coverage',
    id,
    status: 'active',
    type: { coding: [{ system: SOPT, code: sopt, display: soptDisplay }] },
    subscriberId: `SUB-${id}`,
    beneficiary: { reference: `Patient/${patientId}` },
    relationship: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship', code: 'self' }] },
    payor: [{ reference: payor }],
    class: [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'plan' }] }, value: plan }],
  };
}

export const searchset = (resources: Any[]): Any => ({
  resourceType: 'Bundle',
  type: 'searchset',
  total: resources.length,
  entry: resources.map((r) => ({ fullUrl: `${EHR}/${r.resourceType}/${r.id}`, resource: r, search: { mode: 'match' } })),
});

const auth = { access_token: 'ehr-token-for-tests', token_type: 'Bearer', expires_in: 300, scope: 'user/Patient.read user/Coverage.read', subject: 'prauth-crd' };

function request(hook: string, hookInstance: string, context: Any, prefetch: Any): Any {
  return { hookInstance, fhirServer: EHR, hook, fhirAuthorization: { ...auth }, context, prefetch };
}

export const devReqE0250 = (patientId: string): Any => ({
  resourceType: 'DeviceRequest',
  id: 'devreq-e0250',
  identifier: [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'PLAC' }] }, value: 'f105372f-0001' }],
  status: 'draft',
  intent: 'original-order',
  codeCodeableConcept: { coding: [{ system: BB_HCPCS, code: 'E0250', display: 'Hospital bed fixed height, with any type side rails, with mattress' }] },
  subject: { reference: `Patient/${patientId}` },
  authoredOn: '2026-11-20T10:00:00Z',
  requester: { reference: 'Practitioner/pra-1' },
  insurance: [{ reference: 'Coverage/cov-ny-medicare' }],
});

export const servReq = (id: string, patientId: string, code: string, display: string, coverageId: string): Any => ({
  resourceType: 'ServiceRequest',
  id,
  status: 'draft',
  intent: 'original-order',
  code: { coding: [{ system: CPT, code, display }] },
  subject: { reference: `Patient/${patientId}` },
  authoredOn: '2026-11-20T10:00:00Z',
  requester: { reference: 'Practitioner/pra-1' },
  insurance: [{ reference: `Coverage/${coverageId}` }],
});

/** order-sign, traditional Medicare (Part B) in New York: a hospital bed (E0250, Blue Button HCPCS). */
export function orderSignMedicareE0250(): Any {
  const pat = patient('pat-ny', 'NY', 'Buffalo');
  const cov = coverage('cov-ny-medicare', 'pat-ny', '121', 'Medicare FFS', 'Medicare Part B', 'Organization/cms');
  return request(
    'order-sign',
    'a1b2c3d4-0000-4000-8000-000000000001',
    { userId: 'Practitioner/pra-1', patientId: 'pat-ny', encounterId: 'enc-ny-1', draftOrders: { resourceType: 'Bundle', type: 'collection', entry: [{ resource: devReqE0250('pat-ny') }] } },
    { patient: pat, coverage: searchset([cov]) },
  );
}

/** order-sign with three draft orders (the bench case): E0250, a brain MRI (CPT 70553) and a PT evaluation (CPT 97161). */
export function orderSignThreeOrders(): Any {
  const body = orderSignMedicareE0250();
  body.context.draftOrders.entry.push(
    { resource: servReq('sr-mri', 'pat-ny', '70553', 'MRI brain without and with contrast', 'cov-ny-medicare') },
    { resource: servReq('sr-pt', 'pat-ny', '97161', 'Physical therapy evaluation, low complexity', 'cov-ny-medicare') },
  );
  return body;
}

/** order-select, Medicare Part D in New York: tacrolimus by RxNorm ingredient; only the selected order is answered. */
export function orderSelectPartDRxNorm(): Any {
  const pat = patient('pat-ny-d', 'NY', 'Albany');
  const cov = coverage('cov-ny-partd', 'pat-ny-d', '122', 'Medicare Drug Benefit', 'Medicare Part D', 'Organization/partd-sponsor');
  const med = (id: string, code: string, display: string) => ({
    resourceType: 'MedicationRequest',
    id,
    status: 'draft',
    intent: 'order',
    medicationCodeableConcept: { coding: [{ system: RXNORM, code, display }] },
    subject: { reference: 'Patient/pat-ny-d' },
    authoredOn: '2026-11-20',
    requester: { reference: 'Practitioner/pra-1' },
    insurance: [{ reference: 'Coverage/cov-ny-partd' }],
    dosageInstruction: [{ text: '1 mg by mouth twice daily' }],
  });
  return request(
    'order-select',
    'a1b2c3d4-0000-4000-8000-000000000002',
    {
      userId: 'Practitioner/pra-1',
      patientId: 'pat-ny-d',
      selections: ['MedicationRequest/mr-tacrolimus'],
      draftOrders: { resourceType: 'Bundle', type: 'collection', entry: [{ resource: med('mr-tacrolimus', '42316', 'tacrolimus') }, { resource: med('mr-lisinopril', '29046', 'lisinopril') }] },
    },
    { patient: pat, coverage: searchset([cov]) },
  );
}

/** order-dispatch, Texas Medicaid managed care: a brain MRI by CPT, the order in prefetch. */
export function orderDispatchTexasMri(): Any {
  const pat = patient('pat-tx', 'TX', 'Austin');
  const cov = coverage('cov-tx-mco', 'pat-tx', '211', 'Medicaid HMO', 'STAR', 'Organization/tx-mco');
  return request(
    'order-dispatch',
    'a1b2c3d4-0000-4000-8000-000000000003',
    { patientId: 'pat-tx', order: 'ServiceRequest/sr-tx-mri', performer: 'Organization/imaging-center' },
    { patient: pat, coverage: searchset([cov]), order: servReq('sr-tx-mri', 'pat-tx', '70553', 'MRI brain without and with contrast', 'cov-tx-mco') },
  );
}

/** appointment-book, Medicare Advantage in Florida: a physical therapy evaluation (CPT 97161 as the service type). */
export function appointmentBookFloridaPt(): Any {
  const pat = patient('pat-fl', 'FL', 'Tampa');
  const cov = coverage('cov-fl-ma', 'pat-fl', '112', 'Medicare PPO', 'Medicare Advantage PPO', 'Organization/fl-ma');
  const appt = {
    resourceType: 'Appointment',
    id: 'appt-pt-1',
    status: 'proposed',
    serviceType: [{ coding: [{ system: CPT, code: '97161', display: 'Physical therapy evaluation, low complexity' }] }],
    description: 'Physical therapy evaluation after knee replacement',
    start: '2026-12-02T14:00:00Z',
    end: '2026-12-02T15:00:00Z',
    created: '2026-11-20',
    participant: [
      { actor: { reference: 'Patient/pat-fl' }, required: 'required', status: 'accepted' },
      { actor: { reference: 'Practitioner/pra-pt' }, required: 'required', status: 'accepted' },
    ],
    requestedPeriod: [{ start: '2026-12-01', end: '2026-12-05' }],
  };
  return request(
    'appointment-book',
    'a1b2c3d4-0000-4000-8000-000000000004',
    { userId: 'Practitioner/pra-1', patientId: 'pat-fl', appointments: { resourceType: 'Bundle', type: 'collection', entry: [{ resource: appt }] } },
    { patient: pat, coverage: searchset([cov]) },
  );
}

const encounter = (id: string, patientId: string, cls: { code: string; display: string }, type: Any): Any => ({
  resourceType: 'Encounter',
  id,
  status: 'in-progress',
  class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', ...cls },
  type: [type],
  subject: { reference: `Patient/${patientId}` },
  period: { start: '2026-11-24T08:00:00Z' },
});

/** encounter-start, Alaska Medicaid fee-for-service: an inpatient admission (class IMP, CPT 99223 type). */
export function encounterStartAlaskaInpatient(): Any {
  const pat = patient('pat-ak', 'AK', 'Anchorage');
  const cov = coverage('cov-ak-ffs', 'pat-ak', '22', 'Medicaid (Non-managed Care Plan)', 'Alaska Medicaid', 'Organization/ak-medicaid');
  const enc = encounter('enc-ak-1', 'pat-ak', { code: 'IMP', display: 'inpatient encounter' }, { coding: [{ system: CPT, code: '99223', display: 'Initial hospital inpatient care, high' }] });
  return request('encounter-start', 'a1b2c3d4-0000-4000-8000-000000000005', { userId: 'Practitioner/pra-1', patientId: 'pat-ak', encounterId: 'enc-ak-1' }, { patient: pat, coverage: searchset([cov]), encounter: enc });
}

/** encounter-discharge, traditional Medicare in New York: a home health encounter (class HH). */
export function encounterDischargeNyHomeHealth(): Any {
  const pat = patient('pat-ny-hh', 'NY', 'Rochester');
  const cov = coverage('cov-ny-hh', 'pat-ny-hh', '121', 'Medicare FFS', 'Medicare Part A', 'Organization/cms');
  const enc = encounter('enc-ny-hh', 'pat-ny-hh', { code: 'HH', display: 'home health' }, { coding: [{ system: 'http://snomed.info/sct', code: '185345009', display: 'Encounter for symptom' }] });
  return request('encounter-discharge', 'a1b2c3d4-0000-4000-8000-000000000006', { userId: 'Practitioner/pra-1', patientId: 'pat-ny-hh', encounterId: 'enc-ny-hh' }, { patient: pat, coverage: searchset([cov]), encounter: enc });
}

/** Every fixture, by the service id that answers it. */
export const HOOK_FIXTURES: readonly [serviceId: string, build: () => Any][] = [
  ['service-coverage-requirements', orderSignMedicareE0250],
  ['service-coverage-requirements-select', orderSelectPartDRxNorm],
  ['service-coverage-requirements-dispatch', orderDispatchTexasMri],
  ['service-coverage-requirements-appointment', appointmentBookFloridaPt],
  ['service-coverage-requirements-encounter-start', encounterStartAlaskaInpatient],
  ['service-coverage-requirements-encounter-discharge', encounterDischargeNyHomeHealth],
];
