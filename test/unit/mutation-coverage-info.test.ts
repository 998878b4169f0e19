// The CRD coverage-information extension: the builder's exact output, and each rule of the checker (CRD 2.0.1
// cardinalities, value sets, crd-ci-q1..q5 and our reason rules) shown failing on the smallest extension that
// breaks it, with its message. The checker guards every CRD emission in the suite, so a checker that let a rule
// slip would let a bad card through unseen. Written for the mutation run (issue 26).
import { expect } from 'chai';
import { CRD_EXT } from '../../fhir-profiles/canonicals.js';
import { coverageInformationProblems, reason, toCoverageInformation, type CoverageVerdict } from '../../src/fhir/crd/coverage-info.js';
import type { Extension } from '../../src/fhir/r4.js';

const base: CoverageVerdict = { coverage: { reference: 'Coverage/c1' }, covered: 'covered', paNeeded: 'no-auth', date: '2026-04-05', assertionId: 'a-1' };
const ext = (...subs: Extension[]): Extension => ({ url: CRD_EXT.coverageInformation, extension: subs });
const COV: Extension = { url: 'coverage', valueReference: { reference: 'Coverage/c1' } };
const DATE: Extension = { url: 'date', valueDate: '2026-04-05' };
const ID: Extension = { url: 'coverage-assertion-id', valueString: 'a-1' };
const code = (url: string, c: string): Extension => ({ url, valueCode: c });
const minimal = (...more: Extension[]) => ext(COV, code('covered', 'covered'), code('pa-needed', 'no-auth'), DATE, ID, ...more);

describe('CRD coverage information: builder', () => {
  it('when only the required parts are given, then coverage, covered, pa-needed, date and assertion id in that order', () => {
    expect(toCoverageInformation(base)).to.deep.equal(minimal());
    expect(coverageInformationProblems(toCoverageInformation(base))).to.deep.equal([]);
  });

  it('when every part is given, then each appears once per value, in the CRD order, and the result is valid', () => {
    const v: CoverageVerdict = {
      ...base, covered: 'conditional', paNeeded: 'auth-needed', docNeeded: 'clinical', docPurpose: ['withpa', 'withorder'], infoNeeded: ['OTH'],
      billingCode: [{ system: 'http://www.ama-assn.org/go/cpt', code: '97110' }], reason: [reason('why')],
      details: [{ code: { system: 's', code: 'x' }, value: { string: 'text' } }, { code: { system: 's', code: 'y' }, value: { boolean: false } }],
      questionnaire: ['http://example.org/Questionnaire/q'],
    };
    const out = toCoverageInformation(v);
    expect(out.url).to.equal(CRD_EXT.coverageInformation);
    expect(out.extension).to.deep.equal([
      COV, code('covered', 'conditional'), code('pa-needed', 'auth-needed'), code('doc-needed', 'clinical'), code('doc-purpose', 'withpa'), code('doc-purpose', 'withorder'),
      code('info-needed', 'OTH'), { url: 'billingCode', valueCoding: { system: 'http://www.ama-assn.org/go/cpt', code: '97110' } }, { url: 'reason', valueCodeableConcept: { text: 'why' } },
      { url: 'detail', extension: [{ url: 'code', valueCodeableConcept: { coding: [{ system: 's', code: 'x' }] } }, { url: 'value', valueString: 'text' }] },
      { url: 'detail', extension: [{ url: 'code', valueCodeableConcept: { coding: [{ system: 's', code: 'y' }] } }, { url: 'value', valueBoolean: false }] },
      { url: 'questionnaire', valueCanonical: 'http://example.org/Questionnaire/q' }, DATE, ID,
    ]);
    expect(coverageInformationProblems(out)).to.deep.equal([]);
  });
});

describe('CRD coverage information: checker', () => {
  const cases: [string, Extension, string[]][] = [
    ['another extension', { url: 'http://example.org/other', extension: [] }, ['not a coverage-information extension: http://example.org/other']],
    ['an unknown sub-extension', minimal({ url: 'colour', valueString: 'x' }), ["unknown sub-extension 'colour' (not defined in CRD 2.0.1)"]],
    ['no coverage', ext(code('covered', 'covered'), code('pa-needed', 'no-auth'), DATE, ID), ['coverage: cardinality 0, expected 1..1']],
    ['two dates', minimal(DATE), ['date: cardinality 2, expected 1..1']],
    ['no assertion id', ext(COV, code('covered', 'covered'), code('pa-needed', 'no-auth'), DATE), ['coverage-assertion-id: cardinality 0, expected 1..1']],
    ['two pa-needed', minimal(code('pa-needed', 'no-auth')), ['pa-needed: cardinality 2, expected 0..1']],
    ['a covered code outside the value set', ext(COV, code('covered', 'indeterminate'), code('pa-needed', 'no-auth'), DATE, ID), ["covered: code 'indeterminate' not in the CRD 2.0.1 value set"]],
    ['a covered with no code', ext(COV, { url: 'covered', valueString: 'covered' }, code('pa-needed', 'no-auth'), DATE, ID), ["covered: code 'undefined' not in the CRD 2.0.1 value set"]],
    ['a doc-purpose outside the value set', minimal(code('doc-purpose', 'later'), { url: 'reason', valueCodeableConcept: { text: 'r' } }, code('doc-needed', 'clinical')), ["doc-purpose: code 'later' not in the CRD 2.0.1 value set"]],
    ['a coverage without a reference', ext({ url: 'coverage', valueReference: { display: 'x' } }, code('covered', 'covered'), code('pa-needed', 'no-auth'), DATE, ID), ['coverage: must be a valueReference with a reference']],
    ['a date-time for date', ext(COV, code('covered', 'covered'), code('pa-needed', 'no-auth'), { url: 'date', valueDate: '2026-04-05T10:00:00Z' }, ID), ['date: must be a valueDate']],
    ['a date as a string', ext(COV, code('covered', 'covered'), code('pa-needed', 'no-auth'), { url: 'date', valueString: '2026-04-05' }, ID), ['date: must be a valueDate']],
    ['an empty assertion id', ext(COV, code('covered', 'covered'), code('pa-needed', 'no-auth'), DATE, { url: 'coverage-assertion-id', valueString: '' }), ['coverage-assertion-id: must be a non-empty valueString']],
    ['a detail with an unknown part', minimal({ url: 'detail', extension: [{ url: 'code', valueCodeableConcept: {} }, { url: 'value', valueBoolean: true }, { url: 'note', valueString: 'n' }] }), ["detail: sub-extension 'note' is not defined in CRD 2.0.1"]],
    ['a detail with a qualification', minimal({ url: 'detail', extension: [{ url: 'code', valueCodeableConcept: {} }, { url: 'value', valueBoolean: true }, { url: 'qualification', valueString: 'q' }] }), []],
    ['a detail without a code', minimal({ url: 'detail', extension: [{ url: 'value', valueBoolean: true }] }), ['detail: needs exactly one code']],
    ['a detail with two codes', minimal({ url: 'detail', extension: [{ url: 'code', valueCodeableConcept: {} }, { url: 'code', valueCodeableConcept: {} }, { url: 'value', valueBoolean: true }] }), ['detail: needs exactly one code']],
    ['a detail without a value', minimal({ url: 'detail', extension: [{ url: 'code', valueCodeableConcept: {} }] }), ['detail: needs exactly one value of type boolean, string, Period or SimpleQuantity (got none)']],
    ['a detail with two values', minimal({ url: 'detail', extension: [{ url: 'code', valueCodeableConcept: {} }, { url: 'value', valueBoolean: true }, { url: 'value', valueString: 's' }] }), ['detail: needs exactly one value of type boolean, string, Period or SimpleQuantity (got valueBoolean, valueString)']],
    ['a detail value of two types', minimal({ url: 'detail', extension: [{ url: 'code', valueCodeableConcept: {} }, { url: 'value', valueBoolean: true, valueString: 's' } as Extension] }), ['detail: needs exactly one value of type boolean, string, Period or SimpleQuantity (got valueBoolean, valueString)']],
    ['a detail value of a type 2.0.1 lacks', minimal({ url: 'detail', extension: [{ url: 'code', valueCodeableConcept: {} }, { url: 'value', valueUrl: 'http://x' } as Extension] }), ['detail: needs exactly one value of type boolean, string, Period or SimpleQuantity (got valueUrl)']],
    ['detail values of each allowed type', minimal(
      { url: 'detail', extension: [{ url: 'code', valueCodeableConcept: {} }, { url: 'value', valuePeriod: { start: '2026-01-01' } } as Extension] },
      { url: 'detail', extension: [{ url: 'code', valueCodeableConcept: {} }, { url: 'value', valueQuantity: { value: 3 } } as Extension] },
    ), []],
    ['a questionnaire that is not a canonical', minimal({ url: 'questionnaire', valueUri: 'http://q' } as Extension, code('doc-needed', 'clinical')), ['questionnaire: must be a valueCanonical']],
    ['crd-ci-q1: a questionnaire without doc-needed', minimal({ url: 'questionnaire', valueCanonical: 'http://q' }), ['crd-ci-q1: questionnaire or response requires doc-needed']],
    ['crd-ci-q1: a response without doc-needed', minimal({ url: 'response', valueReference: { reference: 'QuestionnaireResponse/1' } }), ['crd-ci-q1: questionnaire or response requires doc-needed']],
    ['crd-ci-q2: covered without pa-needed', ext(COV, code('covered', 'covered'), DATE, ID), ['crd-ci-q2: pa-needed is required unless covered is not-covered']],
    ['crd-ci-q2: not-covered without pa-needed', ext(COV, code('covered', 'not-covered'), DATE, ID), []],
    ['crd-ci-q3: info-needed with nothing conditional', minimal(code('info-needed', 'performer')), ['crd-ci-q3: info-needed requires covered, pa-needed or doc-needed to be conditional']],
    ['conditional pa-needed without info-needed', ext(COV, code('covered', 'covered'), code('pa-needed', 'conditional'), DATE, ID), ['conditional requires info-needed (CRD 2.2 crd-ci-q3; met here so both versions hold)']],
    ['conditional doc-needed with info-needed', minimal(code('doc-needed', 'conditional'), code('info-needed', 'timeframe')), []],
    ['conditional covered with info-needed', ext(COV, code('covered', 'conditional'), code('pa-needed', 'auth-needed'), code('info-needed', 'location'), DATE, ID), []],
    ['crd-ci-q5: satisfied without its id', ext(COV, code('covered', 'covered'), code('pa-needed', 'satisfied'), DATE, ID), ['crd-ci-q5: satisfied-pa-id if and only if pa-needed=satisfied']],
    ['crd-ci-q5: an id without satisfied', minimal({ url: 'satisfied-pa-id', valueString: 'p1' }), ['crd-ci-q5: satisfied-pa-id if and only if pa-needed=satisfied']],
    ['crd-ci-q5: satisfied with its id', ext(COV, code('covered', 'covered'), code('pa-needed', 'satisfied'), { url: 'satisfied-pa-id', valueString: 'p1' }, DATE, ID), []],
    ['withpa when no auth is needed', minimal(code('doc-purpose', 'withpa'), { url: 'reason', valueCodeableConcept: { text: 'r' } }), ['doc-purpose withpa is not allowed when pa-needed is satisfied or no-auth']],
    ['withpa when satisfied', ext(COV, code('covered', 'covered'), code('pa-needed', 'satisfied'), { url: 'satisfied-pa-id', valueString: 'p' }, code('doc-purpose', 'withpa'), { url: 'reason', valueCodeableConcept: { text: 'r' } }, DATE, ID), ['doc-purpose withpa is not allowed when pa-needed is satisfied or no-auth']],
    ['withpa when auth is needed', ext(COV, code('covered', 'covered'), code('pa-needed', 'auth-needed'), code('doc-purpose', 'withpa'), { url: 'reason', valueCodeableConcept: { text: 'r' } }, DATE, ID), []],
    ['info-needed OTH without a reason', ext(COV, code('covered', 'conditional'), code('pa-needed', 'auth-needed'), code('info-needed', 'OTH'), DATE, ID), ['info-needed OTH requires a reason']],
    ['doc-purpose without a reason', minimal(code('doc-purpose', 'withclaim')), ['doc-purpose requires a reason']],
  ];
  for (const [what, e, problems] of cases) {
    it(`${what}: ${problems.length ? problems.join('; ') : 'valid'}`, () => {
      expect(coverageInformationProblems(e)).to.deep.equal(problems);
    });
  }

  it('when several rules are broken, then each is listed once, in the checker order', () => {
    expect(coverageInformationProblems(ext(code('covered', 'covered'), { url: 'x' }, code('info-needed', 'OTH')))).to.deep.equal([
      "unknown sub-extension 'x' (not defined in CRD 2.0.1)",
      'coverage: cardinality 0, expected 1..1',
      'date: cardinality 0, expected 1..1',
      'coverage-assertion-id: cardinality 0, expected 1..1',
      'crd-ci-q2: pa-needed is required unless covered is not-covered',
      'crd-ci-q3: info-needed requires covered, pa-needed or doc-needed to be conditional',
      'info-needed OTH requires a reason',
    ]);
  });
});
