import { expect } from 'chai';
import { buildReadModel } from '../../src/corpus/read-model.js';
import type { CodeMappingDoc } from '../../src/domain/documents.js';
import { BUILTIN_RANGES, CODE_PATTERN, codeSystemOf, inRange, resolveCode } from '../../src/corpus/resolve-code.js';

const mapping = (m: Partial<CodeMappingDoc> & Pick<CodeMappingDoc, 'id' | 'serviceCategory'>): CodeMappingDoc => ({
  resourceType: 'CodeMapping',
  system: 'CPT',
  description: m.id,
  ...m,
});
const model = (codeMappings: CodeMappingDoc[]) =>
  buildReadModel({ rules: [], jurisdictions: [], payers: [], drugs: [], codeMappings, events: [], topics: [] }, 1);

describe('resolveCode: CPT/HCPCS -> service category', () => {
  it('when the built-in ranges are listed, then none overlaps another in the same system', () => {
    for (const [i, a] of BUILTIN_RANGES.entries()) {
      expect(a[1] <= a[2], `${a[1]}-${a[2]} is backwards`).to.equal(true);
      for (const b of BUILTIN_RANGES.slice(i + 1)) {
        if (a[0] !== b[0]) continue;
        const overlap = inRange(b[1], a[1], a[2]) || inRange(b[2], a[1], a[2]) || inRange(a[1], b[1], b[2]);
        expect(overlap, `${a[1]}-${a[2]} overlaps ${b[1]}-${b[2]}`).to.equal(false);
      }
    }
  });

  it('when codes of different shapes are compared, then a Category II/III code never falls in a numeric range', () => {
    expect(inRange('70553', '70540', '70559')).to.equal(true);
    expect(inRange('7001F', '70010', '70449')).to.equal(false);
    expect(inRange('E0601', 'E0100', 'E8002')).to.equal(true);
    expect(inRange('K0001', 'E0100', 'E8002')).to.equal(false);
    expect(codeSystemOf('E0601')).to.equal('HCPCS');
    expect(codeSystemOf('0042T')).to.equal('CPT');
    for (const ok of ['70553', '0042T', '3074F', 'E0601', 'J9035']) expect(CODE_PATTERN.test(ok), ok).to.equal(true);
    for (const bad of ['7055', '705533', 'e0601', 'W1234', 'ABCDE', '70-53']) expect(CODE_PATTERN.test(bad), bad).to.equal(false);
  });

  it('when the state PA list has the code, then it wins over a national range and the built-in table', () => {
    const m = model([
      mapping({ id: 'tx.cpt.70553', code: '70553', jurisdiction: 'TX', serviceCategory: 'diagnostic_imaging', source: { title: 'TX PA list', url: 'https://tx.example.gov/pa' } }),
      mapping({ id: 'us.cpt.70000-70999', range: { from: '70000', to: '70999' }, serviceCategory: 'laboratory' }),
    ]);
    expect(resolveCode(m, 'TX', '70553')).to.deep.include({
      service_category: 'diagnostic_imaging',
      matched_by: 'state_pa_list',
      mapping_id: 'tx.cpt.70553',
      source: { title: 'TX PA list', url: 'https://tx.example.gov/pa' },
    });
    // Another state's list does not apply: the national range does.
    expect(resolveCode(m, 'CA', '70553')).to.deep.include({ service_category: 'laboratory', matched_by: 'national_range' });
  });

  it('when two national ranges match, then the narrowest wins', () => {
    const m = model([
      mapping({ id: 'wide', range: { from: '70000', to: '79999' }, serviceCategory: 'diagnostic_imaging' }),
      mapping({ id: 'narrow', range: { from: '70540', to: '70559' }, serviceCategory: 'advanced_imaging' }),
    ]);
    expect(resolveCode(m, 'TX', '70553')?.mapping_id).to.equal('narrow');
    expect(resolveCode(m, 'TX', '71000')?.mapping_id).to.equal('wide');
  });

  it('when the corpus has no mappings, then the built-in table resolves common codes and unknown ones stay unresolved', () => {
    const m = model([]);
    expect(resolveCode(m, 'TX', '70553')).to.deep.equal({
      code: '70553',
      system: 'CPT',
      service_category: 'advanced_imaging',
      matched_by: 'builtin_range',
      mapping_id: null,
      description: 'MRI and MR angiography, face, neck and brain',
      source: null,
    });
    expect(resolveCode(m, 'TX', 'E0601')?.service_category).to.equal('durable_medical_equipment');
    expect(resolveCode(m, 'TX', 'J9035')?.service_category).to.equal('specialty_drugs');
    expect(resolveCode(m, 'TX', '99499')).to.equal(undefined);
    expect(resolveCode(m, 'TX', '0042T')).to.equal(undefined);
  });
});
