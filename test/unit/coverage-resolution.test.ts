// What real EHRs send, resolved to our vocabulary: HCPCS Level II families, Coverage.type / class values (SOPT,
// X12, plan names), and the member's state from Patient, plan name, payer Organization or the caller's subscription.
import { expect } from 'chai';
import { buildReadModel } from '../../src/corpus/read-model.js';
import type { CanonicalDoc, CodeMappingDoc, CoverageRuleDoc, DrugCrosswalkDoc, JurisdictionDoc, PayerDoc } from '../../src/domain/documents.js';
import { bundleLookup } from '../../src/fhir/resolve/lookup.js';
import { orderCodings, resolveRule, serviceForProcedureCode } from '../../src/fhir/resolve/rule-for-codes.js';
import { programFromName, resolveCoverageContext, SOPT_PROGRAMS, stateCode } from '../../src/fhir/resolve/coverage-context.js';
import { jurisdiction } from '../support/docs.js';
import { fhirCorpus } from '../support/fhir-corpus.js';

const docs = [
  ...fhirCorpus(),
  { ...jurisdiction('CA'), medicaidProgramName: 'Medi-Cal', chipProgramName: 'Medi-Cal (CHIP-funded coverage within Medi-Cal)', mcoBrands: ['L.A. Care Health Plan'], flags: { medicaidExpansion: true, ffsDominant: false, wiser: false } },
  { ...jurisdiction('AK'), medicaidProgramName: 'Alaska Medicaid', chipProgramName: 'Denali KidCare', mcoBrands: [], flags: { medicaidExpansion: true, ffsDominant: true, wiser: false } },
  { ...jurisdiction('NY'), medicaidProgramName: 'New York Medicaid', chipProgramName: 'Child Health Plus', mcoBrands: ['Fidelis Care', 'UnitedHealthcare Community Plan'], flags: { medicaidExpansion: true, ffsDominant: false, wiser: false } },
  { ...jurisdiction('NJ'), medicaidProgramName: 'NJ FamilyCare', mcoBrands: ['UnitedHealthcare Community Plan'], flags: { medicaidExpansion: true, ffsDominant: false, wiser: false } },
] as CanonicalDoc[];
const of = <T extends CanonicalDoc>(t: T['resourceType']) => docs.filter((d): d is T => d.resourceType === t).map((d) => ({ ...d, meta: { versionId: '1', lastUpdated: '2026-11-01T00:00:00Z' } })) as T[];
const model = buildReadModel(
  { rules: of<CoverageRuleDoc>('CoverageRule'), jurisdictions: of<JurisdictionDoc>('Jurisdiction'), payers: of<PayerDoc>('Payer'), drugs: of<DrugCrosswalkDoc>('DrugCrosswalkEntry'), codeMappings: of<CodeMappingDoc>('CodeMapping'), events: [], topics: [] },
  1,
);
const BB_HCPCS = 'https://bluebutton.cms.gov/resources/codesystem/hcpcs';
const SOPT = 'https://nahdo.org/sopt';

describe('unit: HCPCS Level II families', () => {
  const cases: [string, string | undefined][] = [
    ['E0424', 'durable_medical_equipment'], // stationary oxygen (the DTR kit's preset)
    ['E0250', 'durable_medical_equipment'], // hospital bed
    ['K0856', 'durable_medical_equipment'], // power wheelchair
    ['L1844', 'durable_medical_equipment'], // knee orthosis on the DMEPOS Required PA list
    ['A7030', 'durable_medical_equipment'], // CPAP full face mask
    ['A4253', 'durable_medical_equipment'], // blood glucose test strips
    ['B4035', 'durable_medical_equipment'], // enteral feeding supply kit
    ['A0428', 'ambulance_transport'],
    ['J9035', 'specialty_drugs'],
    ['Q5103', 'specialty_drugs'], // a biosimilar
    ['G0180', 'home_health'], // the CRD kit's order-dispatch order
    ['G0182', 'hospice'],
    ['P3000', 'laboratory'],
    ['R0070', 'diagnostic_imaging'],
    ['A9500', undefined], // radiopharmaceutical: not a DMEPOS supply
    ['C1713', undefined], // OPPS pass-through device: no category of ours
    ['V2020', undefined], // vision
  ];
  for (const [code, expected] of cases) {
    it(`when ${code} is ordered, then ${expected ?? 'no category'}`, () => {
      expect(serviceForProcedureCode(model, 'NY', code)?.serviceCategory).to.equal(expected);
    });
  }

  it("when a DeviceRequest codes E0431 in Blue Button's HCPCS system, then the OK Medicare Advantage DME rule applies", () => {
    const order = { resourceType: 'DeviceRequest', id: 'd1', status: 'draft', intent: 'original-order', subject: { reference: 'Patient/p' }, codeCodeableConcept: { coding: [{ system: BB_HCPCS, code: 'E0431' }] } };
    const r = resolveRule(model, { state: 'OK', program: 'medicare_advantage' }, orderCodings(order as never));
    expect(r.kind === 'rule' && r.rule.subject).to.deep.equal({ kind: 'service', code: 'durable_medical_equipment' });
  });

  it('when an order carries odd data (nulls, numbers where strings belong), then resolution answers without throwing', () => {
    const odd = { resourceType: 'ServiceRequest', code: { coding: [null, { system: 5, code: 70553 }, { code: null }], extension: [null, { url: 3 }] } };
    expect(orderCodings(odd as never)).to.have.length(2);
    expect(resolveRule(model, { state: 'OK', program: 'medicare_advantage' }, orderCodings(odd as never)).kind).to.equal('unmapped');
    expect(orderCodings({ resourceType: 'DeviceRequest', codeCodeableConcept: { coding: 'E0250' } } as never)).to.deep.equal([]);
  });
});

describe('unit: Coverage -> program', () => {
  const lookup = bundleLookup([]);
  const cc = (coverage: object, extra: Partial<Parameters<typeof resolveCoverageContext>[1]> = {}) =>
    resolveCoverageContext(model, { coverage: { resourceType: 'Coverage', ...coverage } as never, lookup, today: '2026-11-25', ...extra });

  it('when Coverage.type is a SOPT code, then every listed code names its program and unlisted ones name none', () => {
    const expected: Record<string, string> = { '111': 'medicare_advantage', '112': 'medicare_advantage', '121': 'medicare_traditional', '122': 'part_d', '14': 'dual_eligible', '211': 'medicaid_mco', '22': 'medicaid_ffs', '23': 'chip', '213': 'medicaid_ffs' };
    for (const [code, program] of Object.entries(expected)) expect(cc({ type: { coding: [{ system: SOPT, code }] } }).program, code).to.equal(program);
    for (const code of ['1', '2', '5', '81', '191', '1223']) expect(cc({ type: { coding: [{ system: SOPT, code }] } }).program, code).to.equal(undefined);
    expect(cc({ type: { coding: [{ system: 'urn:oid:2.16.840.1.113883.3.221.5', code: '122' }] } }).program).to.equal('part_d');
    // A SOPT-looking code in another system is not SOPT.
    expect(cc({ type: { coding: [{ system: 'http://example.org/plans', code: '122' }] } }).program).to.equal(undefined);
    expect(Object.keys(SOPT_PROGRAMS)).to.include.members(['11', '12', '21']);
  });

  it('when Coverage.class names Medicare parts as the CRD test kit sends them, then the program follows', () => {
    const cls = (value: string) => cc({ class: [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'plan' }] }, value }] });
    expect(cls('Medicare Part A').program).to.equal('medicare_traditional');
    expect(cls('Medicare Part B').program).to.equal('medicare_traditional');
    expect(cls('Part D').program).to.equal('part_d');
    expect(cls('Medicare Advantage PPO').program).to.equal('medicare_advantage');
    expect(cls('Humana Gold Plus D-SNP').program).to.equal('dual_eligible');
    expect(cls('Medicaid Managed Care').program).to.equal('medicaid_mco');
    // 'medicare' is the interface's own alias for traditional Medicare (README, input aliases).
    expect(cls('Medicare').program).to.equal('medicare_traditional');
    expect(cls('Gold plan').program, 'a plan name we do not know names no program').to.equal(undefined);
    expect(cls('Medicare Part A').basis[0]).to.contain("Coverage.class 'Medicare Part A'");
  });

  it("when a class or type names a state's Medicaid or CHIP program or an MCO brand, then program (and state when only one state uses the name)", () => {
    expect(cc({ class: [{ value: 'Medi-Cal' }] })).to.deep.include({ program: 'medicaid_mco', state: 'CA' });
    expect(cc({ class: [{ name: 'Denali KidCare', value: 'G-1' }] })).to.deep.include({ program: 'chip', state: 'AK' });
    expect(cc({ type: { text: 'Alaska Medicaid' } })).to.deep.include({ program: 'medicaid_ffs', state: 'AK' });
    const multi = cc({ class: [{ value: 'UnitedHealthcare Community Plan' }] });
    expect(multi.program).to.equal('medicaid_mco');
    expect(multi.state, 'a brand in two states names no state').to.equal(undefined);
    expect(programFromName(model, 'Fidelis Care')).to.deep.include({ program: 'medicaid_mco', state: 'NY' });
  });

  it("when a class names the state's Medicaid program (both delivery systems) and the type is coded SOPT 213 'Medicaid FFS', then fee-for-service, keeping the state; an MCO brand is not overridden", () => {
    const sopt = (code: string) => ({ coding: [{ system: 'https://nahdo.org/sopt', code }] });
    const ffs = cc({ class: [{ value: 'Medi-Cal' }], type: sopt('213') });
    expect(ffs).to.deep.include({ program: 'medicaid_ffs', state: 'CA' });
    expect(ffs.basis.join(' ')).to.contain("Coverage.type SOPT 213 (Coverage.class 'Medi-Cal'");
    expect(cc({ class: [{ value: 'Medi-Cal' }] })).to.deep.include({ program: 'medicaid_mco', state: 'CA' }); // no code: the name's default
    expect(cc({ class: [{ value: 'Fidelis Care' }], type: sopt('213') })).to.deep.include({ program: 'medicaid_mco' }); // a plan brand names the plan
  });

  it('when a plan name only hints at another program by a word in it, then the coded type decides (seventh test pass, #1)', () => {
    const sopt = (code: string) => ({ coding: [{ system: 'https://nahdo.org/sopt', code }] });
    // A dual in Original Medicare is not a D-SNP member: Medicare FFS rules, not the MA-plan hand-over.
    const ffsDual = cc({ class: [{ value: 'Original Medicare, dual eligible (QMB+)' }], type: sopt('121') });
    expect(ffsDual.program).to.equal('medicare_traditional');
    expect(ffsDual.basis.join(' ')).to.contain('Coverage.type SOPT 121').and.contain('the coded type decides');
    // An MA plan without drug coverage is MA, not Part D.
    expect(cc({ class: [{ value: 'Acme Medicare Advantage (MA-only, no Part D)' }], type: sopt('112') }).program).to.equal('medicare_advantage');
    // Without a code the words still say what they can.
    expect(cc({ class: [{ value: 'Original Medicare, dual eligible (QMB+)' }] }).program).to.equal('dual_eligible');
  });

  it('when Coverage.type carries the X12 claim filing indicator for Part A as a translation, then traditional Medicare', () => {
    expect(cc({ type: { coding: [{ system: 'https://x12.org/codes/claim-filing-indicator-codes', code: 'MA' }] } }).program).to.equal('medicare_traditional');
  });
});

describe('unit: member state', () => {
  it('when the Patient address names a state by its full name, then its USPS code; an old address is skipped', () => {
    expect(stateCode('New York')).to.equal('NY');
    expect(stateCode('tx')).to.equal('TX');
    expect(stateCode('Ontario')).to.equal(undefined);
    const patient = { resourceType: 'Patient', address: [{ use: 'old', state: 'TX' }, { use: 'home', state: 'New York' }] };
    const ctx = resolveCoverageContext(model, { coverage: { resourceType: 'Coverage', class: [{ value: 'Medicare Part A' }] } as never, patient: patient as never, lookup: bundleLookup([]), today: '2026-11-25' });
    expect(ctx).to.deep.include({ state: 'NY', program: 'medicare_traditional' });
  });

  it("when only the payer Organization has an address, then the state comes from it and the basis says so", () => {
    const org = { resourceType: 'Organization', id: 'org1234', name: 'Example Medicare Administrative Contractor', address: [{ state: 'NY', city: 'Buffalo' }] };
    const lookup = bundleLookup([{ resource: org as never }]);
    const ctx = resolveCoverageContext(model, { coverage: { resourceType: 'Coverage', class: [{ value: 'Medicare Part A' }], payor: [{ reference: 'Organization/org1234' }] } as never, lookup, today: '2026-11-25' });
    expect(ctx.state).to.equal('NY');
    expect(ctx.basis.join('; ')).to.contain("payer Organization's address");
  });

  it("when nothing names a state or program but the caller's subscription names exactly one, then it is used and said", () => {
    const ctx = resolveCoverageContext(model, { coverage: { resourceType: 'Coverage' } as never, lookup: bundleLookup([]), today: '2026-11-25', fallback: { state: 'OK', program: 'medicare_advantage' } });
    expect(ctx).to.deep.include({ state: 'OK', program: 'medicare_advantage' });
    expect(ctx.basis.join('; ')).to.contain("caller's subscription");
    // The request's own data wins over the subscription.
    const own = resolveCoverageContext(model, { coverage: { resourceType: 'Coverage', type: { coding: [{ system: SOPT, code: '122' }] } } as never, lookup: bundleLookup([]), today: '2026-11-25', fallback: { program: 'medicare_advantage' } });
    expect(own.program).to.equal('part_d');
  });

  it('when Coverage and Patient hold wrong types everywhere, then nothing throws and both stay unknown', () => {
    const coverage = { resourceType: 'Coverage', class: 'plan', type: { coding: { code: '122' }, text: 7 }, payor: [null, 5, { reference: 9 }], beneficiary: 'Patient/1' };
    const patient = { resourceType: 'Patient', address: [null, { state: 12 }, 'TX'] };
    const ctx = resolveCoverageContext(model, { coverage: coverage as never, patient: patient as never, lookup: bundleLookup([{ resource: null as never }, { fullUrl: 3 as never }]), today: '2026-11-25' });
    expect(ctx.state).to.equal(undefined);
    expect(ctx.program).to.equal(undefined);
  });
});
