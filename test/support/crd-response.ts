// What every CRD response must be (cards per CDS Hooks and CRD, coverage information per CRD 2.0.1), shared by the
// CRD tests and the acceptance tests of the kits' and reference implementations' requests.
import { expect } from 'chai';
import { CRD_EXT, CRD_PROFILE, CRD_TEMP_CS } from '../../fhir-profiles/canonicals.js';
import { coverageInformationProblems } from '../../src/fhir/crd/coverage-info.js';
import { fhirProblems } from './fhir-validate.js';
import { validateAgainst, valueSetCodes } from './ig-validate.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const VS = 'http://hl7.org/fhir/us/davinci-crd/ValueSet';
/** The required bindings of ext-coverage-information (CRD 2.0.1). */
export const BINDINGS: Record<string, string> = {
  covered: `${VS}/coverageInfo`,
  'pa-needed': `${VS}/coveragePaDetail`,
  'doc-needed': `${VS}/AdditionalDocumentation`,
  'doc-purpose': `${VS}/DocReason`,
  'info-needed': `${VS}/informationNeeded`,
};

/** The coverage-information sub-extensions of a system action as {url: values}. */
export const infoOf = (action: Any): Record<string, unknown[]> => {
  const ext = action.resource.extension.find((e: Any) => e.url === CRD_EXT.coverageInformation);
  const out: Record<string, unknown[]> = {};
  for (const s of ext.extension) {
    const v = s.valueCode ?? s.valueString ?? s.valueCanonical ?? s.valueDate ?? s.valueCoding ?? s.valueCodeableConcept ?? s.valueReference ?? s.extension;
    (out[s.url] ??= []).push(v);
  }
  return out;
};

/** What every CRD response must be: valid cards (CDS Hooks + CRD) and CRD 2.0.1 coverage information. */
export function expectValidCrdResponse(body: Any, request: Any): void {
  expect(body.cards, 'cards').to.be.an('array');
  expect(body.systemActions, 'systemActions').to.be.an('array');
  for (const c of body.cards) {
    expect(c.summary.length, c.summary).to.be.lessThan(140);
    expect(['info', 'warning', 'critical']).to.include(c.indicator);
    expect(c.source.label).to.be.a('string').and.not.equal('');
    expect(c.source.topic).to.deep.include({ system: CRD_TEMP_CS });
    for (const l of c.links ?? []) {
      expect(l.url).to.match(/^https?:\/\//);
      expect(['absolute', 'smart']).to.include(l.type);
      if (l.type === 'absolute') expect(l).to.not.have.property('appContext');
    }
  }
  const sent = new Map<string, Any>();
  for (const e of [...(request.context.draftOrders?.entry ?? []), ...(request.context.appointments?.entry ?? [])]) sent.set(`${e.resource.resourceType}/${e.resource.id}`, e.resource);
  for (const v of Object.values(request.prefetch ?? {}) as Any[]) if (v?.resourceType && v.resourceType !== 'Bundle') sent.set(`${v.resourceType}/${v.id}`, v);
  for (const a of body.systemActions) {
    expect(a.type).to.equal('update');
    // The resource is the client's order with our extension added (resp-37): what the client sent is its own, so
    // the action must add no problem to it. Base R4 (the `fhir` package), then the CRD 2.0.1 profile of the resource
    // type with the coverage-information extension validated against its StructureDefinition (cardinalities,
    // types, crd-ci-q1..q5), as the CRD test kit does.
    const original = sent.get(`${a.resource.resourceType}/${a.resource.id}`);
    const profile = CRD_PROFILE[a.resource.resourceType as keyof typeof CRD_PROFILE];
    const theirs = original ? { r4: new Set(fhirProblems(original)), profile: new Set(validateAgainst(original as never, profile)) } : { r4: new Set<string>(), profile: new Set<string>() };
    expect(fhirProblems(a.resource).filter((m) => !theirs.r4.has(m)), 'FHIR R4 validation (problems the action adds)').to.deep.equal([]);
    expect(validateAgainst(a.resource, profile).filter((m) => !theirs.profile.has(m)), `${a.resource.resourceType}/${a.resource.id} against ${profile} (problems the action adds)`).to.deep.equal([]);
    const ext = a.resource.extension.filter((e: Any) => e.url === CRD_EXT.coverageInformation);
    expect(ext).to.have.length(1);
    expect(coverageInformationProblems(ext[0]), JSON.stringify(ext[0])).to.deep.equal([]);
    const info = infoOf(a);
    // Required bindings, checked against the value sets inside the CRD 2.0.1 package (the validator does not expand them).
    for (const [url, vs] of Object.entries(BINDINGS)) for (const code of info[url] ?? []) expect(valueSetCodes(vs), `${url} ${String(code)}`).to.include(code);
    expect(info.covered).to.not.include('indeterminate');
    if (info.covered![0] !== 'not-covered') expect(info['pa-needed'], 'crd-ci-q2').to.have.length(1);
    // resp-37: nothing but the coverage-information extension changes.
    if (original) expect({ ...a.resource, extension: (a.resource.extension ?? []).filter((e: Any) => e.url !== CRD_EXT.coverageInformation) }).to.deep.equal({ ...original, extension: original.extension ?? [] });
  }
}

