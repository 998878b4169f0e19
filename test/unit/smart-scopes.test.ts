import { expect } from 'chai';
import { grantable, grants, parseSystemScope, type SmartNeed } from '../../src/domain/smart-scopes.js';
import { FHIR_DECLS } from '../../src/api/registry.js';
import { servedResourceTypesOf, smartNeedOf } from '../../src/api/smart.js';

const letters = (text: string): string | null => {
  const s = parseSystemScope(text);
  return s ? `${s.resource}.${[...s.interactions].sort().join('')}` : null;
};

describe('SMART system scopes (pure)', () => {
  it('when scopes are read, then v2 letters and v1 words mean the same permissions, and other forms are not system scopes', () => {
    const cases: [string, string | null][] = [
      ['system/Claim.c', 'Claim.c'],
      ['system/*.rs', '*.rs'],
      ['system/*.cruds', '*.cdrsu'],
      ['system/*.read', '*.rs'],
      ['system/Claim.write', 'Claim.cdu'],
      ['system/*.*', '*.cdrsu'],
      ['system/Claim.sr', null], // v2 letters must be in c r u d s order
      ['system/Claim.', null],
      ['system/claim.r', null],
      ['system/Claim.rs?status=active', null], // query-narrowed scopes are not granted: no such filter is applied
      ['patient/*.read', null],
      ['user/Claim.c', null],
      ['openid', null],
      ['launch', null],
    ];
    for (const [text, expected] of cases) expect(letters(text), text).to.equal(expected);
  });

  it('when a need is checked, then every resource must be covered by some scope with one of the interactions', () => {
    const formulary: SmartNeed = { resources: ['InsurancePlan', 'Basic'], interactions: ['r', 's'] };
    const submit: SmartNeed = { resources: ['Claim'], interactions: ['c'] };
    const cases: [string[], SmartNeed, boolean][] = [
      [['system/*.rs'], formulary, true],
      [['system/*.read'], formulary, true],
      [['system/InsurancePlan.rs'], formulary, false], // Basic not covered
      [['system/InsurancePlan.s', 'system/Basic.r'], formulary, true],
      [['system/*.rs'], submit, false],
      [['system/Claim.c'], submit, true],
      [['system/Claim.write'], submit, true],
      [['system/Claim.r'], submit, false],
      [[], submit, false],
    ];
    for (const [scopes, need, ok] of cases) expect(grants(scopes, need), `${scopes.join(' ')} for ${need.resources.join(',')}.${need.interactions.join('')}`).to.equal(ok);
  });

  it('when scopes are requested, then only system scopes over served types (or *) are granted, once each', () => {
    const served = new Set(['Claim', 'Questionnaire']);
    expect(grantable(['system/*.rs', 'system/Claim.c', 'system/Claim.c', 'system/Patient.rs', 'patient/*.read', 'openid'], served)).to.deep.equal(['system/*.rs', 'system/Claim.c']);
    expect(grantable(['system/Appointment.rs'], served)).to.deep.equal([]);
  });

  it('when the registry is read, then every keyed declaration needs a scope and $submit needs system/Claim.c', () => {
    for (const d of FHIR_DECLS) {
      const need = smartNeedOf(d);
      if (d.auth === 'none') expect(need, d.id).to.equal(undefined);
      else expect(need?.resources.length, d.id).to.be.greaterThan(0);
    }
    const submit = FHIR_DECLS.find((d) => d.id === 'fhir-claim-submit')!;
    expect(smartNeedOf(submit)).to.deep.equal({ resources: ['Claim'], interactions: ['c'] });
    expect([...servedResourceTypesOf(FHIR_DECLS)]).to.include.members(['Claim', 'Questionnaire', 'InsurancePlan']);
  });
});
