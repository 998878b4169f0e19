// Every FHIR resource the server emits goes through here: the `fhir` package's R4 structure validator (unknown
// properties are errors), then the checks it cannot make: the profile elements our profiles require and the CRD
// coverage-information invariants (q1-q9).
import { expect } from 'chai';
import fhirPkg from 'fhir';
import { coverageInformationProblems } from '../../src/fhir/crd/coverage-info.js';
import { CRD_EXT, DTR_PROFILE, PAS_EXT, PAS_PROFILE, USDF_EXT, USDF_PROFILE } from '../../fhir-profiles/canonicals.js';
import type { Extension, Resource } from '../../src/fhir/r4.js';

const validator = new fhirPkg.Fhir();

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function profileProblems(r: Any): string[] {
  const p: string[] = [];
  const profiles: string[] = r.meta?.profile ?? [];
  const exts = (url: string) => (r.extension ?? []).filter((e: Extension) => e.url === url);
  const need = (cond: boolean, msg: string) => cond || p.push(`${r.resourceType}/${r.id}: ${msg}`);
  if (profiles.includes(USDF_PROFILE.formulary)) {
    need(!!r.meta?.lastUpdated, 'meta.lastUpdated 1..1');
    need(r.identifier?.length >= 1, 'identifier 1..*');
    need(r.type?.[0]?.coding?.[0]?.code === 'DRUGPOL', 'type DRUGPOL');
    need(!!r.name && !!r.status, 'name and status');
  }
  if (profiles.includes(USDF_PROFILE.formularyItem)) {
    for (const [url, min, max] of [
      [USDF_EXT.formularyReference, 1, 1],
      [USDF_EXT.availabilityStatus, 1, 1],
      [USDF_EXT.pharmacyBenefitType, 1, 99],
      [USDF_EXT.drugTier, 1, 1],
      [USDF_EXT.priorAuthorization, 0, 1],
      [USDF_EXT.stepTherapyLimit, 0, 1],
      [USDF_EXT.quantityLimit, 0, 1],
    ] as const) need(exts(url).length >= min && exts(url).length <= max, `${url} ${min}..${max}`);
    need(r.code?.coding?.[0]?.code === 'formulary-item', 'code formulary-item');
    need(/^MedicationKnowledge\//.test(r.subject?.reference ?? ''), 'subject -> MedicationKnowledge');
  }
  if (profiles.includes(USDF_PROFILE.formularyDrug)) need(!!r.meta?.lastUpdated && !!r.code && !!r.status, 'meta.lastUpdated, code, status');
  if (profiles.includes(DTR_PROFILE.stdQuestionnaire)) {
    need(!!r.url && !!r.version && !!r.status, 'url, version, status');
    need(JSON.stringify(r.subjectType) === '["Patient"]', 'subjectType = [Patient]');
    const ids: string[] = [];
    const walk = (items: Any[] = []) => items.forEach((i) => (ids.push(i.linkId), walk(i.item)));
    walk(r.item);
    need(ids.length > 0 && ids.every(Boolean) && new Set(ids).size === ids.length, 'items with unique linkIds');
  }
  if (profiles.includes(PAS_PROFILE.claimResponse)) {
    need(r.status === 'active' && r.use === 'preauthorization', 'status active, use preauthorization');
    need(!!r.patient && !!r.insurer && !!r.created && !!r.outcome, 'patient, insurer, created, outcome');
    for (const item of r.item ?? []) {
      const ra = (item.adjudication ?? []).flatMap((a: Any) => a.extension ?? []).filter((e: Extension) => e.url === PAS_EXT.reviewAction);
      need(Number.isInteger(item.itemSequence) && ra.length === 1, `item ${item.itemSequence}: itemSequence and one reviewAction`);
      need(ra[0]?.extension?.some((e: Extension) => e.url === PAS_EXT.reviewActionCode && e.valueCodeableConcept?.coding?.[0]?.code), 'reviewAction code');
    }
  }
  if (profiles.includes(PAS_PROFILE.responseBundle)) need(r.entry?.[0]?.resource?.resourceType === 'ClaimResponse', 'first entry ClaimResponse');
  if (profiles.includes(DTR_PROFILE.packageBundle)) {
    const types = (r.entry ?? []).map((e: Any) => e.resource.resourceType);
    need(types[0] === 'Questionnaire' && types.filter((t: string) => t === 'Questionnaire').length === 1, 'exactly one Questionnaire, first');
    need(types.filter((t: string) => t === 'QuestionnaireResponse').length === 1, 'exactly one QuestionnaireResponse');
  }
  return p;
}

/** Profile and CRD checks on a resource and everything inside it (Bundle entries, Parameters resources, extensions). */
function deepProblems(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => deepProblems(n, out));
  else if (node && typeof node === 'object') {
    const o = node as Any;
    if (typeof o.resourceType === 'string') out.push(...profileProblems(o));
    if (o.url === CRD_EXT.coverageInformation) out.push(...coverageInformationProblems(o as Extension).map((m) => `coverage-information: ${m}`));
    for (const v of Object.values(o)) deepProblems(v, out);
  }
  return out;
}

/**
 * R4 elements the `fhir` package (4.12.0) does not know: its types.json leaves out elements R4 defines by
 * contentReference, so ClaimResponse.adjudication (header-level adjudication, 0..* in R4 4.0.1, defined as
 * #ClaimResponse.item.adjudication; PAS 2.2.1 marks it must support) reads as unexpected. @medplum/core's R4 and the
 * PAS profile check it (test/support/ig-validate.ts).
 */
const CONTENT_REFERENCE_ELEMENTS = new Set(['ClaimResponse.adjudication']);
const knownToR4 = (location: string | undefined, message: string | undefined): boolean =>
  message === 'Unexpected property' && CONTENT_REFERENCE_ELEMENTS.has(String(location).replace(/\[\d+\]/g, '').replace(/^.*?\b(ClaimResponse\.)/, '$1'));

export function fhirProblems(resource: Resource | unknown): string[] {
  const res = validator.validate(resource as object, { errorOnUnexpected: true });
  const structural = res.messages.filter((m) => (m.severity === 'error' || m.severity === 'fatal') && !knownToR4(m.location, m.message)).map((m) => `${m.location}: ${m.message}`);
  return [...structural, ...deepProblems(resource)];
}

export function expectValidFhir(resource: unknown): void {
  expect(fhirProblems(resource), 'FHIR R4 validation').to.deep.equal([]);
}
