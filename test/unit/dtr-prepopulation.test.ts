// Pre-population runs: the ELM a package carries (decoded from its Library resources) is executed with cql-execution
// and cql-exec-fhir against a realistic patient record, each item's initialExpression gives the expected answer,
// and the pre-populated QuestionnaireResponse validates against dtr-questionnaireresponse.
import { expect } from 'chai';
import type { Bundle, Extension, Questionnaire, QuestionnaireResponseItem } from 'fhir/r4';
import { DTR_EXT, DTR_PROFILE, SDC_EXT } from '../../fhir-profiles/canonicals.js';
import { questionnairePackage } from '../../src/fhir/dtr/package.js';
import { buildReadModel, type CorpusDocuments } from '../../src/corpus/read-model.js';
import type { CanonicalDoc } from '../../src/domain/documents.js';
import { validateAgainst } from '../support/ig-validate.js';
import { dtrCorpus } from '../support/dtr/corpus.js';
import { allItems, elmOf, evaluate, expressionOf, patientRecord, recordResource, toAnswers } from '../support/dtr/dtr-client.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const BASE = 'https://payer.test';
const AT = '2026-10-05T12:00:00.000Z';
const HCPCS = 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets';
const AUTO: Extension = { url: DTR_EXT.informationOrigin, extension: [{ url: 'source', valueCode: 'auto' }] };

function packageFor(program: string, orderResource: Any): Bundle {
  const out = questionnairePackage(
    buildReadModel(split(dtrCorpus()), 1),
    {
      coverages: [{ resourceType: 'Coverage', id: 'cov-1', status: 'active', beneficiary: { reference: 'Patient/dtr-pat-1' }, payor: [{ display: 'Payer' }], class: [{ value: program }] } as never],
      orders: [orderResource as never],
      unsupportedOrders: [],
      referenced: [recordResource('dtr-pat-1') as never],
      questionnaires: [],
    },
    { base: BASE, now: new Date(AT) },
  );
  if ('status' in out) throw new Error(out.message);
  return out.parameters.parameter![0]!.resource as Bundle;
}

function split(docs: CanonicalDoc[]): CorpusDocuments {
  const by = (t: string) => docs.filter((d) => d.resourceType === t);
  return { rules: by('CoverageRule'), jurisdictions: by('Jurisdiction'), payers: by('Payer'), drugs: by('DrugCrosswalkEntry'), codeMappings: by('CodeMapping'), events: by('RegulatoryEvent'), topics: by('Topic') } as unknown as CorpusDocuments;
}

/** What a DTR client does: evaluate every initialExpression and fill the draft response's items. */
async function prepopulate(bundle: Bundle): Promise<{ answers: Map<string, unknown[]>; response: Any }> {
  const q = bundle.entry![0]!.resource as Questionnaire;
  const lib = q.extension!.find((e) => e.url === SDC_EXT.cqfLibrary)!.valueCanonical!.split('/').pop()!;
  const results = await evaluate(elmOf(bundle), lib, patientRecord(), AT);
  const answers = new Map<string, unknown[]>();
  for (const it of allItems(q)) {
    const e = expressionOf(it, SDC_EXT.initialExpression);
    if (!e) continue;
    expect(e.library, `${it.linkId} names the questionnaire's library`).to.equal(lib);
    expect(results, `${lib} defines ${e.name}`).to.have.property(e.name);
    answers.set(it.linkId, toAnswers(it, results[e.name]));
  }
  const draft = bundle.entry!.find((x) => x.resource!.resourceType === 'QuestionnaireResponse')!.resource as Any;
  const fill = (items: QuestionnaireResponseItem[]): QuestionnaireResponseItem[] =>
    items.map((i) => ({ ...i, ...(i.item ? { item: fill(i.item) } : {}), ...(answers.get(i.linkId)?.length ? { answer: (answers.get(i.linkId) as Any[]).map((a) => ({ ...a, extension: [AUTO] })) } : {}) }));
  return { answers, response: { ...draft, item: fill(draft.item) } };
}

const codes = (answers: unknown[] | undefined) => ((answers ?? []) as Any[]).map((a) => a.valueCoding?.code ?? a.valueString);

describe('DTR pre-population: the package ELM run with cql-execution against a patient record', function () {
  this.timeout(60_000);

  it('when the home oxygen package (E0424) is pre-populated, then active qualifying diagnoses, the order and visit dates, the latest final oximetry and blood gas, and the threshold flag', async () => {
    const b = packageFor('medicare_traditional', { ...recordResource('dtr-devreq-o2'), codeCodeableConcept: { coding: [{ system: HCPCS, code: 'E0424' }] } });
    const { answers, response } = await prepopulate(b);
    // J44.9 and J96.11 are active; J20.9 is resolved, I27.20 refuted, M06.9 and I10 are not oxygen diagnoses
    expect(codes(answers.get('diagnosis'))).to.deep.equal(['J44.9', 'J96.11']);
    expect(codes(answers.get('oxygen-diagnosis'))).to.deep.equal(['J44.9', 'J96.11']);
    expect(answers.get('order-date')).to.deep.equal([{ valueDate: '2026-10-03' }]);
    expect(answers.get('face-to-face-date')).to.deep.equal([{ valueDate: '2026-10-02' }]);
    expect(codes(answers.get('equipment-category'))).to.deep.equal(['oxygen']);
    // 86 % on 2026-10-02, not the older 91 % nor the later preliminary 95 %
    expect(answers.get('oxygen-saturation')).to.deep.equal([{ valueDecimal: 86 }]);
    expect(answers.get('oxygen-test-date')).to.deep.equal([{ valueDate: '2026-10-02' }]);
    expect(answers.get('arterial-po2')).to.deep.equal([{ valueDecimal: 54 }]);
    expect(answers.get('oxygen-threshold')).to.deep.equal([{ valueBoolean: true }]);
    expect(response.meta.profile).to.deep.equal([DTR_PROFILE.questionnaireResponse]);
    expect(validateAgainst(response as never, DTR_PROFILE.questionnaireResponse)).to.deep.equal([]);
  });

  it('when the drug package (RxNorm 327361) is pre-populated, then the requested drug, prior therapies, weight in kg from pounds and the prescribing visit', async () => {
    const { answers, response } = await prepopulate(packageFor('medicaid_mco', recordResource('dtr-med-ada')));
    expect(codes(answers.get('requested-medication'))).to.deep.equal(['327361']);
    expect(codes(answers.get('prior-medications'))).to.deep.equal(['6851', '6809']);
    expect(answers.get('prior-therapy')).to.deep.equal([{ valueBoolean: true }]);
    expect(answers.get('body-weight')).to.deep.equal([{ valueDecimal: 79.8 }]); // 176 lb
    expect(answers.get('prescriber-visit-date')).to.deep.equal([{ valueDate: '2026-10-02' }]); // the planned December visit is not finished
    expect(validateAgainst(response as never, DTR_PROFILE.questionnaireResponse)).to.deep.equal([]);
  });

  it('when the procedure package (CPT 70553) is pre-populated, then the requested service, the completed therapy and the last finished visit', async () => {
    const { answers, response } = await prepopulate(packageFor('medicaid_mco', recordResource('dtr-sr-mri')));
    expect(codes(answers.get('requested-service'))).to.deep.equal(['70553']);
    expect(codes(answers.get('conservative-procedures'))).to.deep.equal(['97110']);
    expect(answers.get('conservative-treatment')).to.deep.equal([{ valueBoolean: true }]);
    expect(answers.get('last-visit-date')).to.deep.equal([{ valueDate: '2026-10-02' }]);
    expect(validateAgainst(response as never, DTR_PROFILE.questionnaireResponse)).to.deep.equal([]);
  });

  it('when the record has no oximetry, blood gas or device order, then those answers are empty rather than wrong', async () => {
    const b = packageFor('medicare_traditional', { ...recordResource('dtr-devreq-o2'), codeCodeableConcept: { coding: [{ system: HCPCS, code: 'E0424' }] } });
    const record = patientRecord();
    record.entry = record.entry!.filter((e) => !['Observation', 'DeviceRequest'].includes(e.resource!.resourceType));
    const q = b.entry![0]!.resource as Questionnaire;
    const results = await evaluate(elmOf(b), 'DTRDevice', record, AT);
    expect(results['Most Recent Oxygen Saturation']).to.equal(null);
    expect(results['Equipment Category']).to.equal(null);
    expect(results['Meets Oxygen Test Threshold']).to.equal(false);
    // without an oxygen order every active diagnosis is a candidate
    expect(results['Qualifying Diagnoses'].map((c: Any) => c.code)).to.deep.equal(['J44.9', 'J96.11', 'M06.9', 'I10']);
    expect(allItems(q).length).to.be.greaterThan(10);
  });
});
