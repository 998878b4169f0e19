// What each FHIR operation and CDS service reads of a request body, per resource type: the one input of the
// acceptance policy (docs/fhir.md, "Acceptance of incoming bodies"). A value of the wrong JSON type inside an element
// listed here cannot be processed and is refused (400 naming it); every other base-R4 problem (an invariant, a
// cardinality, an unknown element, a primitive format, a wrong type in an element nobody reads) is a warning.
// Each list names the code that reads it; a reader added without its element here is caught by the property tests
// (test/contract/acceptance.test.ts: a wrong-typed value anywhere gives a 400 or an answer, never a 500).

/** Element paths (dotted, from the resource, no indexes; `*` = every element) per resource type; `*` as a type = every type. */
export type ReadSet = Readonly<Record<string, readonly string[]>>;

export function mergeReads(...sets: ReadSet[]): ReadSet {
  const out: Record<string, string[]> = {};
  for (const s of sets) for (const [type, paths] of Object.entries(s)) out[type] = [...new Set([...(out[type] ?? []), ...paths])];
  return out;
}

/** Every resource: its id (resolvers key on Type/id) and contained resources (`#id` references). */
const EVERY: ReadSet = { '*': ['id', 'contained'] };

/** src/fhir/resolve/ resolveCoverageContext / payerFromCoverage / stateFromAddresses. */
export const COVERAGE_CONTEXT_READS: ReadSet = {
  Coverage: ['status', 'class', 'type', 'payor', 'beneficiary', 'subscriberId', 'identifier'],
  Patient: ['address', 'identifier'],
  Organization: ['name', 'address', 'identifier'],
};

/** src/fhir/resolve/ requestCodings / orderCodings, and the order's Coverage (`insurance`) in src/fhir/crd/crd.ts. */
export const ORDER_READS: ReadSet = {
  ServiceRequest: ['code', 'insurance', 'subject'],
  DeviceRequest: ['codeCodeableConcept', 'insurance', 'subject'],
  MedicationRequest: ['medicationCodeableConcept', 'medicationReference', 'insurance', 'subject'],
  Medication: ['code'],
  Appointment: ['serviceType', 'basedOn'],
  Encounter: ['type', 'class'],
};

/** CDS Hooks CRD (src/fhir/crd/hook-data.ts, crd.ts): context Bundles and prefetch, orders, the member's coverage. */
export const CRD_READS: ReadSet = mergeReads(EVERY, COVERAGE_CONTEXT_READS, ORDER_READS, { Bundle: ['entry.resource', 'entry.fullUrl'] });

/**
 * PAS $submit and $inquire (src/fhir/pas/): the Bundle and the Claim as the checks and the item
 * decisions read them, the resources matched on (member, provider) and the documentation attached.
 */
export const PAS_READS: ReadSet = mergeReads(EVERY, COVERAGE_CONTEXT_READS, ORDER_READS, {
  Parameters: ['parameter.resource'],
  Bundle: ['type', 'identifier', 'entry.resource', 'entry.fullUrl'],
  Claim: ['use', 'type', 'patient', 'insurer', 'provider', 'item', 'identifier', 'insurance', 'related', 'supportingInfo', 'priority', 'extension'],
  PractitionerRole: ['practitioner', 'organization', 'identifier'],
  Practitioner: ['identifier'],
  QuestionnaireResponse: ['status', 'questionnaire', 'item'],
  DocumentReference: ['status', 'description', 'type', 'content'],
});

/** PAS Subscription create (src/fhir/subscription.ts parseSubscription). */
export const SUBSCRIPTION_READS: ReadSet = mergeReads(EVERY, { Subscription: ['criteria', '_criteria', 'channel', 'end'] });

/** DTR $questionnaire-package (src/fhir/dtr/package.ts parsePackageInput and the coverage resolution). */
export const DTR_PACKAGE_READS: ReadSet = mergeReads(EVERY, COVERAGE_CONTEXT_READS, ORDER_READS, { Parameters: ['parameter'] });

/** DTR $next-question (src/fhir/dtr/next-question.ts): the response, its contained adaptive Questionnaire. */
export const DTR_NEXT_READS: ReadSet = mergeReads(EVERY, {
  Parameters: ['parameter'],
  QuestionnaireResponse: ['questionnaire', 'item', 'contained', 'extension', 'subject', 'encounter', 'author', 'source'],
  Questionnaire: ['url', 'derivedFrom', 'item'],
});

const segmentsOf = (path: string): string[] => path.split('.');
const startsWith = (a: readonly string[], b: readonly string[]): boolean => b.every((s, i) => a[i] === s);

/**
 * Whether an element (its path from the innermost resource, indexes dropped) is read: it lies inside a read element,
 * or contains one (a broken container of a read element is itself unreadable).
 */
export function isRead(reads: ReadSet, resourceType: string, path: readonly string[]): boolean {
  for (const list of [reads[resourceType], reads['*']]) {
    for (const p of list ?? []) {
      if (p === '*') return true;
      const seg = segmentsOf(p);
      if (startsWith(path, seg) || (path.length > 0 && startsWith(seg, path))) return true;
    }
  }
  return false;
}
