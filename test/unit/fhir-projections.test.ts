import { expect } from 'chai';
import { coverageInformationProblems, reason, toCoverageInformation, type CoverageVerdict } from '../../src/fhir/crd/coverage-info.js';
import { buildReadModel } from '../../src/corpus/read-model.js';
import type { CanonicalDoc, CodeMappingDoc, CoverageRuleDoc, DrugCrosswalkDoc, PayerDoc } from '../../src/domain/documents.js';
import { restrictionsOf, tierOf } from '../../src/fhir/formulary.js';
import { uuidFrom } from '../../src/fhir/ids.js';
import { parsePasRequest } from '../../src/fhir/pas/request.js';
import { bundleLookup } from '../../src/fhir/resolve/lookup.js';
import { resolveCoverageContext } from '../../src/fhir/resolve/coverage-context.js';
import { resolveRule, serviceForProcedureCode } from '../../src/fhir/resolve/rule-for-codes.js';
import { fhirCorpus } from '../support/fhir-corpus.js';
import { fhirProblems } from '../support/fhir-validate.js';
import { rule } from '../support/docs.js';

const model = (() => {
  const docs = fhirCorpus().map((d) => ({ ...d, meta: { versionId: '1', lastUpdated: '2026-11-01T00:00:00Z' } })) as CanonicalDoc[];
  const of = <T extends CanonicalDoc>(t: T['resourceType']) => docs.filter((d): d is T => d.resourceType === t);
  return buildReadModel(
    { rules: of<CoverageRuleDoc>('CoverageRule'), jurisdictions: of('Jurisdiction'), payers: of<PayerDoc>('Payer'), drugs: of<DrugCrosswalkDoc>('DrugCrosswalkEntry'), codeMappings: of<CodeMappingDoc>('CodeMapping'), events: [], topics: [] },
    1,
  );
})();

describe('unit: code resolution', () => {
  const cases: [string, string | undefined, string, string | undefined][] = [
    ['national range, inside', 'OK', '77065', 'diagnostic_imaging'],
    ['national range, bounds inclusive', 'OK', '77067', 'diagnostic_imaging'],
    ['range compares same-length strings only', 'OK', '7706', undefined],
    ['outside every range', 'OK', '77068', undefined],
    ['state list before the national range', 'TX', '70553', 'outpatient_surgery'],
    ['another state falls back to the national range', 'OK', '70553', 'advanced_imaging'],
    ['a code on another state list falls to the built-in DMEPOS family', 'TX', 'E0431', 'durable_medical_equipment'],
    ['a Level II family with no category (vision)', 'TX', 'V2020', undefined],
    ['lower-case HCPCS is normalised', 'OK', 'e0431', 'durable_medical_equipment'],
  ];
  for (const [name, state, code, expected] of cases) {
    it(`when ${name} (${state} ${code}), then ${expected ?? 'no mapping'}`, () => {
      expect(serviceForProcedureCode(model, state, code)?.serviceCategory).to.equal(expected);
    });
  }

  it('when an RxNorm SCD or ingredient is known to the crosswalk, then its drug class rule; an unknown code is unmapped', () => {
    const rx = (code: string) => resolveRule(model, { state: 'TX', program: 'part_d' }, [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code }]);
    expect(rx('1484919')).to.deep.include({ kind: 'rule' });
    expect((rx('1484911') as { rule: CoverageRuleDoc }).rule.id).to.equal('tx.part-d.d.hepatitis-c');
    expect(rx('42').kind).to.equal('unmapped');
  });

  it("when a rule's own codes match, then that rule wins before the code lists; a mapped subject without a rule is a gap", () => {
    const r = resolveRule(model, { state: 'MA', program: 'medicaid_mco' }, [{ system: 'https://codesystem.x12.org/005010/1365', code: '3' }]);
    expect(r.kind === 'rule' && r.rule.id).to.equal('ma.medicaid-mco.s.behavioral-health-outpatient');
    const gap = resolveRule(model, { state: 'OK', program: 'medicare_advantage' }, [{ system: 'http://www.ama-assn.org/go/cpt', code: '70551' }]);
    expect(gap).to.deep.include({ kind: 'no-rule', subject: { kind: 'service', code: 'advanced_imaging' } });
  });

  it('when Coverage names a program in class or SOPT type, then it is used; an ended address is not residence', () => {
    const lookup = bundleLookup([]);
    const cc = (coverage: object, patient?: object) =>
      resolveCoverageContext(model, { coverage: { resourceType: 'Coverage', ...coverage } as never, patient: patient as never, lookup, today: '2026-01-01' });
    expect(cc({ class: [{ type: { text: 'plan' }, value: 'MCO' }] }).program).to.equal('medicaid_mco');
    expect(cc({ type: { coding: [{ system: 'https://nahdo.org/sopt', code: '122' }] } }).program).to.equal('part_d');
    expect(cc({ type: { coding: [{ system: 'https://nahdo.org/sopt', code: '111' }] } }).program).to.equal('medicare_advantage');
    const p = { resourceType: 'Patient', address: [{ state: 'TX', period: { end: '2020-01-01' } }, { state: 'ok' }] };
    expect(cc({}, p).state).to.equal('OK');
    const none = cc({});
    expect(none.state).to.equal(undefined);
    expect(none.basis.join(' ')).to.contain('state unknown').and.contain('program unknown');
  });
});

describe('unit: formulary flags and tiers', () => {
  const cases: [string, Partial<CoverageRuleDoc['requirement']>, ReturnType<typeof restrictionsOf>][] = [
    ['full PA', { paRequired: true, paType: 'full' }, { pa: true, step: false, ql: false, newStartsOnly: false }],
    ['step therapy only', { paRequired: true, paType: 'step_therapy' }, { pa: false, step: true, ql: false, newStartsOnly: false }],
    ['quantity limit text on a no-PA rule', { paRequired: false, paType: 'none', quantityLimit: '30/30' }, { pa: false, step: false, ql: true, newStartsOnly: false }],
    ['notification only', { paRequired: true, paType: 'notification_only' }, { pa: false, step: false, ql: false, newStartsOnly: false }],
  ];
  for (const [name, req, expected] of cases) {
    it(`when a rule is ${name}, then the USDF flags say so`, () => {
      const r = rule({ state: 'TX', program: 'part_d', code: 'adhd_stimulants' });
      expect(restrictionsOf({ ...r, requirement: { ...r.requirement, ...req } })).to.deep.equal(expected);
    });
  }
  it('when the class is specialty or brand, then that USDF 2.0.1 tier; otherwise the tier is data-absent (not in the corpus)', () => {
    expect(tierOf(rule({ state: 'TX', program: 'part_d', code: 'hepatitis_c' })).coding?.[0]?.code).to.equal('specialty');
    expect(tierOf(rule({ state: 'TX', program: 'part_d', code: 'brand_name_no_generic' })).coding?.[0]?.code).to.equal('brand');
    const other = tierOf(rule({ state: 'TX', program: 'part_d', code: 'adhd_stimulants' }));
    expect(other.coding).to.equal(undefined);
    expect(other.extension).to.deep.equal([{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }]);
  });
});

describe('unit: CRD 2.0.1 coverage-information invariants', () => {
  const base: CoverageVerdict = { coverage: { reference: 'Coverage/1' }, covered: 'covered', paNeeded: 'auth-needed', date: '2026-01-01', assertionId: 'r1' };
  const cases: [string, Partial<CoverageVerdict>, string | null][] = [
    ['a plain auth-needed verdict', {}, null],
    ['questionnaire without doc-needed', { questionnaire: ['https://x/q|1'] }, 'crd-ci-q1'],
    ['covered without pa-needed', { paNeeded: undefined }, 'crd-ci-q2'],
    ['not-covered without pa-needed', { covered: 'not-covered', paNeeded: undefined }, null],
    ['info-needed without anything conditional', { infoNeeded: ['performer'] }, 'crd-ci-q3'],
    ['conditional without info-needed', { paNeeded: 'conditional' }, 'conditional requires info-needed'],
    ['satisfied without satisfied-pa-id', { paNeeded: 'satisfied' }, 'crd-ci-q5'],
    ['withpa with no-auth', { paNeeded: 'no-auth', docPurpose: ['withpa'], reason: [reason('x')] }, 'doc-purpose withpa'],
    ['info-needed OTH without reason', { paNeeded: 'conditional', infoNeeded: ['OTH'] }, 'info-needed OTH requires a reason'],
    ['doc-purpose without reason', { docNeeded: 'clinical', docPurpose: ['withpa'] }, 'doc-purpose requires a reason'],
    ['conditional with info-needed OTH and a reason', { paNeeded: 'conditional', infoNeeded: ['OTH'], reason: [reason('depends')] }, null],
    ['a string detail', { details: [{ code: { system: 'urn:x', code: 'c' }, value: { string: 'v' } }] }, null],
  ];
  for (const [name, over, invariant] of cases) {
    it(`when ${name}, then ${invariant ?? 'no problem'}`, () => {
      const problems = coverageInformationProblems(toCoverageInformation({ ...base, ...over } as CoverageVerdict));
      if (invariant) expect(problems.some((p) => p.startsWith(invariant)), problems.join('; ')).to.equal(true);
      else expect(problems).to.deep.equal([]);
    });
  }
  it('when a value is outside the 2.0.1 value sets (indeterminate, 2.2 detail shapes), then it is reported', () => {
    const ext = toCoverageInformation(base);
    ext.extension = ext.extension!.map((e) => (e.url === 'covered' ? { url: 'covered', valueCode: 'indeterminate' } : e));
    ext.extension.push({ url: 'detail', extension: [{ url: 'category', valueCodeableConcept: { text: 'x' } }, { url: 'code', valueCodeableConcept: { text: 'c' } }, { url: 'value', valueUrl: 'https://x' }] });
    const problems = coverageInformationProblems(ext);
    expect(problems).to.include("covered: code 'indeterminate' not in the CRD 2.0.1 value set");
    expect(problems.join(' ')).to.contain("sub-extension 'category'").and.contain('got valueUrl');
  });
  it('when a sub-extension is missing or duplicated, then the cardinality is reported', () => {
    const ext = toCoverageInformation({ ...base, docNeeded: 'clinical' });
    ext.extension = ext.extension!.filter((e) => e.url !== 'date').concat([{ url: 'covered', valueCode: 'covered' }, { url: 'doc-needed', valueCode: 'admin' }]);
    expect(coverageInformationProblems(ext)).to.include.members(['date: cardinality 0, expected 1..1', 'covered: cardinality 2, expected 1..1', 'doc-needed: cardinality 2, expected 0..1']);
  });
});

describe('unit: the validator used on every emission can fail', () => {
  it('when a resource has an unknown element, a bad code or misses a profile element, then it is reported', () => {
    expect(fhirProblems({ resourceType: 'Questionnaire', status: 'active', bogus: 1, item: [] }).join(' ')).to.contain('Unexpected property');
    expect(fhirProblems({ resourceType: 'Questionnaire', status: 'nope' }).join(' ')).to.contain('not found in value set');
    const q = { resourceType: 'Questionnaire', meta: { profile: ['http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-std-questionnaire'] }, status: 'active', item: [{ linkId: 'a', type: 'display' }] };
    expect(fhirProblems(q).join(' ')).to.contain('url, version, status').and.contain('subjectType');
  });
});

describe('unit: PAS request checks and ids', () => {
  it('when a bare Claim is not a preauthorization, then the failure points at Claim.use', () => {
    expect(parsePasRequest({ resourceType: 'Claim', use: 'claim' })).to.deep.include({ status: 400, expression: 'Claim.use' });
    expect(parsePasRequest('x')).to.deep.include({ status: 400 });
  });
  it('when a uuid is derived twice from the same seed, then it is the same RFC 4122-shaped value', () => {
    expect(uuidFrom('a')).to.equal(uuidFrom('a')).and.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidFrom('a')).to.not.equal(uuidFrom('b'));
  });
});
