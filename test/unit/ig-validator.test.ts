// Calibration of the IG validator (test/support/ig-validate.ts) on the packages' own examples, and proof that it can
// fail. Examples that still fail are listed with the reason, so a new failure in emitted resources can be told from a
// validator artefact.
import { expect } from 'chai';
import { igContent, validateAgainst, valueSetCodes } from '../support/ig-validate.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function examplesFailing(pkg: string): { path: string; errors: string[] }[] {
  const out: { path: string; errors: string[] }[] = [];
  for (const ex of igContent().examples.filter((e) => e.pkg === pkg)) {
    const p = ((ex.resource as Json).meta?.profile ?? [])[0]?.split('|')[0];
    if (!p || !igContent().profiles.has(p)) continue;
    const errors = validateAgainst(ex.resource, p);
    if (errors.length) out.push({ path: ex.path, errors });
  }
  return out;
}

describe('IG validator (@medplum/core over the vendored Da Vinci packages)', function () {
  this.timeout(60_000);
  before(() => igContent());

  it('passes every CRD 2.0.1 example', () => {
    expect(examplesFailing('hl7.fhir.us.davinci-crd-2.0.1')).to.deep.equal([]);
  });

  it('passes the DTR 2.0.1 examples but one (a Questionnaire example whose subjectType pattern the validator compares as a whole array)', () => {
    expect(examplesFailing('hl7.fhir.us.davinci-dtr-2.0.1').length).to.be.at.most(1);
  });

  it('passes at least 42 of the 47 PAS 2.2.1 examples (the rest: careTeam/Task slices the validator cannot discriminate, examples that omit required elements)', () => {
    const failing = examplesFailing('hl7.fhir.us.davinci-pas-2.2.1');
    expect(failing.length, JSON.stringify(failing, null, 1)).to.be.at.most(5);
  });

  it('passes at least 15 of the 24 USDF 2.0.1 examples (the rest: InsurancePlan pattern slices on coverage.type the validator cannot discriminate)', () => {
    const failing = examplesFailing('hl7.fhir.us.davinci-drug-formulary-2.0.1');
    expect(failing.length, JSON.stringify(failing, null, 1)).to.be.at.most(9);
  });

  it('can fail: a CRD MedicationRequest without its subject, and with a coverage-information extension lacking its required parts', () => {
    const crdMedReq = 'http://hl7.org/fhir/us/davinci-crd/StructureDefinition/profile-medicationrequest';
    const ex = igContent().examples.find((e) => e.pkg.includes('crd') && e.resource.resourceType === 'MedicationRequest')!;
    expect(validateAgainst(ex.resource, crdMedReq)).to.deep.equal([]);
    const broken = JSON.parse(JSON.stringify(ex.resource)) as Json;
    delete broken.subject;
    expect(validateAgainst(broken as never, crdMedReq).join('\n')).to.match(/subject/);
    const withBadCoverageInfo = { ...JSON.parse(JSON.stringify(ex.resource)), extension: [{ url: 'http://hl7.org/fhir/us/davinci-crd/StructureDefinition/ext-coverage-information', extension: [{ url: 'covered', valueCode: 'covered' }] }] };
    expect(validateAgainst(withBadCoverageInfo as never, crdMedReq)).to.not.deep.equal([]);
    const ci = (ex.resource as Json).extension.find((e: Json) => e.url.endsWith('ext-coverage-information'));
    const withoutPaNeeded = { ...JSON.parse(JSON.stringify(ex.resource)), extension: [{ ...ci, extension: ci.extension.filter((e: Json) => e.url !== 'pa-needed').map((e: Json) => (e.url === 'covered' ? { url: 'covered', valueCode: 'covered' } : e)) }] };
    expect(validateAgainst(withoutPaNeeded as never, crdMedReq).join('\n')).to.match(/crd-ci-q2/);
  });

  it('lists the codes of value sets enumerated in the packages', () => {
    const covered = valueSetCodes('http://hl7.org/fhir/us/davinci-crd/ValueSet/coverageInfo');
    expect(covered && [...covered].sort()).to.deep.equal(['conditional', 'covered', 'not-covered']);
  });
});
