// The US Drug Formulary projection over the WHOLE generated sample corpus (fixtures/, built by `npm run build`):
// ids within FHIR's 64 characters, unique per type and stable across rebuilds; every reference resolves; every
// shape of resource validates against its USDF 2.0.1 profile; class rules with no RxNorm drug yield none.
import { expect } from 'chai';
import { buildReadModel } from '../../src/corpus/read-model.js';
import { safeId } from '../../src/fhir/ids.js';
import { usdfIndex } from '../../src/fhir/usdf/resources.js';
import { validateAgainst } from '../support/ig-validate.js';
import { sampleCorpusDocuments } from '../support/sample-corpus.js';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const docs = sampleCorpusDocuments;

describe('unit: USDF resources over the whole sample corpus', function () {
  this.timeout(120_000);
  const model = buildReadModel(docs(), 1);
  const index = usdfIndex(model);
  const all = [...index.byType.values()].flat();

  it('when projected, then every id is a FHIR id of at most 64 characters, unique per type, and the same on a rebuild', () => {
    expect(all.length).to.be.greaterThan(1000);
    for (const r of all) expect(r.id, `${r.resourceType}/${r.id}`).to.match(/^[A-Za-z0-9\-.]{1,64}$/);
    for (const [type, list] of index.byType) expect(new Set(list.map((r) => r.id)).size, type).to.equal(list.length);
    const again = usdfIndex(buildReadModel(docs(), 2));
    for (const [type, list] of index.byType) expect(again.byType.get(type)!.map((r) => r.id), type).to.deep.equal(list.map((r) => r.id));
  });

  it('when ids would pass 64 characters, then a hash suffix keeps them unique and stable', () => {
    const long = 'x'.repeat(70);
    const a = safeId('formularyitem', long, 'a');
    const b = safeId('formularyitem', long, 'b');
    expect(a).to.have.length(64);
    expect(b).to.have.length(64);
    expect(a).to.not.equal(b);
    expect(safeId('formularyitem', long, 'a')).to.equal(a);
    expect(safeId('formulary', 'tx', 'part_d')).to.equal('formulary-tx-part-d');
  });

  it('a FormularyItem states prior authorization only where its rule does: where the plan decides or the rule is conditional, the flags are left out', () => {
    const ext = (r: Any, url: string) => (r.extension ?? []).find((e: Any) => e.url === url);
    const PA = 'http://hl7.org/fhir/us/davinci-drug-formulary/StructureDefinition/usdf-PriorAuthorization-extension';
    const FLAGS = [PA, ...['StepTherapyLimit', 'QuantityLimit', 'PriorAuthorizationNewStartsOnly', 'StepTherapyLimitNewStartsOnly'].map((n) => `http://hl7.org/fhir/us/davinci-drug-formulary/StructureDefinition/usdf-${n}-extension`)];
    const items = index.byType.get('Basic') as Any[];
    const formularyOf = (b: Any): string => ext(b, 'http://hl7.org/fhir/us/davinci-drug-formulary/StructureDefinition/usdf-FormularyReference-extension').valueReference.reference as string;
    const partD = items.filter((b) => formularyOf(b).startsWith('InsurancePlan/formulary-ga-part-d'));
    expect(partD.length).to.be.greaterThan(0);
    // Part D's drug rules say the plan may require PA: whether it does is the plan's, so no flag is stated.
    for (const b of partD) for (const url of FLAGS) expect(ext(b, url), `${b.id} ${url}`).to.equal(undefined);
    // A conditional Medicaid FFS rule (non-preferred agents need PA, preferred ones not): no flag for any one drug.
    const conditional = [...model.rules.values()].find((r) => r.program === 'medicaid_ffs' && r.subject.code === 'mental_health_antidepressants' && r.requirement.paType === 'conditional')!;
    const d = docs();
    const classDrugs = new Set(d.drugs.filter((x) => x.drugClass === 'mental_health_antidepressants').flatMap((x) => (x.rxnorm?.products ?? []).map((p) => `MedicationKnowledge/formularydrug-${p.code}`)));
    const inClass = (b: Any): boolean => classDrugs.has(b.subject?.reference);
    const condItems = items.filter((b) => formularyOf(b) === `InsurancePlan/formulary-${conditional.jurisdiction.toLowerCase()}-medicaid-ffs` && inClass(b));
    expect(condItems.length).to.be.greaterThan(0);
    for (const b of condItems) expect(ext(b, PA), b.id).to.equal(undefined);
    // A rule that says no PA applies states false; one that says every drug of the class needs PA states true.
    expect(items.some((b) => ext(b, PA)?.valueBoolean === false)).to.equal(true);
    const full = { ...conditional, requirement: { ...conditional.requirement, paType: 'full' as const } };
    const fullIndex = usdfIndex(buildReadModel({ ...d, rules: d.rules.map((r) => (r.id === full.id ? full : r)) }, 4));
    const fullItems = (fullIndex.byType.get('Basic') as Any[]).filter((b) => formularyOf(b) === `InsurancePlan/formulary-${full.jurisdiction.toLowerCase()}-medicaid-ffs` && inClass(b));
    expect(fullItems.length).to.be.greaterThan(0);
    for (const b of fullItems) expect(ext(b, PA).valueBoolean, b.id).to.equal(true);
  });

  it('a formulary whose drugs are all handed over to another program says so in its name; one of its own does not', () => {
    const plans = index.byType.get('InsurancePlan') as Any[];
    const name = (id: string): string => plans.find((p) => p.id === id)!.name;
    // The sample corpus also serves Original Medicare's own (Part B) drug rules: some drugs, not all, are Part D's.
    expect(name('formulary-ga-medicare-traditional')).to.equal('Georgia Traditional Medicare (Parts A/B): drug prior-authorization formulary (some drugs are covered through Medicare Part D)');
    const verifiedOnly = usdfIndex(buildReadModel(docs(), 3, new Date(), { verifiedOnly: true }));
    expect((verifiedOnly.byType.get('InsurancePlan') as Any[]).find((p) => p.id === 'formulary-ga-medicare-traditional')!.name).to.match(/\(these drugs are covered through Medicare Part D\)$/);
    expect(name('formulary-ga-part-d')).to.equal('Georgia Medicare Part D: drug prior-authorization formulary');
  });

  it('when references are followed, then every FormularyItem subject and formulary, plan formulary and coverage area resolves', () => {
    const ext = (r: Any, url: string) => (r.extension ?? []).filter((e: Any) => e.url.endsWith(url));
    for (const b of index.byType.get('Basic')! as Any[]) {
      expect(index.byRef.has(b.subject.reference), b.id).to.equal(true);
      for (const e of ext(b, 'usdf-FormularyReference-extension')) expect(index.byRef.has(e.valueReference.reference), b.id).to.equal(true);
    }
    for (const p of index.byType.get('InsurancePlan')! as Any[]) {
      for (const a of p.coverageArea ?? []) expect(index.byRef.has(a.reference), p.id).to.equal(true);
      for (const c of p.coverage ?? []) for (const e of ext(c, 'usdf-FormularyReference-extension')) expect(index.byRef.has(e.valueReference.reference), p.id).to.equal(true);
    }
  });

  it('when a drug class has no RxNorm-coded drug, then its rules yield no FormularyItem; every drug carries an RxNorm SCD', () => {
    const coded = new Set(model.drugs.filter((d) => d.rxnorm?.products?.length || d.rxnorm?.scd?.length).map((d) => d.drugClass));
    const drugRules = [...model.rulesByState.values()].flat().filter((r) => r.subject.kind === 'drug');
    expect(drugRules.some((r) => !coded.has(r.subject.code)), 'the sample has class rules without a coded drug').to.equal(true);
    const mks = index.byType.get('MedicationKnowledge')! as Any[];
    for (const mk of mks) expect(mk.code.coding[0].system).to.equal('http://www.nlm.nih.gov/research/umls/rxnorm');
    const itemCodes = new Set((index.byType.get('Basic')! as Any[]).map((b) => b.subject.reference));
    expect(itemCodes.size).to.equal(mks.length);
  });

  it('when validated against the USDF 2.0.1 profiles, then every shape of resource the corpus yields conforms', () => {
    // One resource per shape (profile, coded type, which extensions and flags, tier, contact, period): the projection
    // is one function per shape, so this covers every branch without validating ten thousand items (about 1 minute).
    const shape = (r: Any): string =>
      JSON.stringify([
        r.meta.profile,
        r.type?.[0]?.coding?.[0]?.code,
        !!r.contact,
        !!r.period,
        (r.extension ?? []).map((e: Any) => [e.url, e.valueBoolean, e.valueCodeableConcept?.coding?.[0]?.code]),
      ]);
    const sample = [...new Map(all.map((r) => [shape(r), r])).values()] as Any[];
    expect(sample.length).to.be.within(10, 200);
    const failures = sample.flatMap((r) => validateAgainst(r, r.meta.profile[0]).map((m) => `${r.resourceType}/${r.id}: ${m}`));
    expect(failures.slice(0, 10)).to.deep.equal([]);
  });
});
