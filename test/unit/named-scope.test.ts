// The one rule on scope (issue 28): what a request names, read from the request alone, each value on its own; a rule
// id names its state and program by its own text in the corpus's forms, else through the rule it resolves to.
import { expect } from 'chai';
import { buildReadModel } from '../../src/corpus/read-model.js';
import { mergeScopes, namedScope, scopeOfRuleId } from '../../src/domain/named-scope.js';
import { similarRules } from '../../src/services/explore/similar.js';
import { rule } from '../support/docs.js';

describe('named scope', () => {
  it('when values are given, then only valid states (upper case) and programs (aliases too) are named, once each', () => {
    expect(namedScope({ states: ['CA', 'ca', 'XX', undefined, 42, 'CA', ' TX '], programs: ['mco', 'bogus', 'medicaid', '', null, 'part_d'] })).to.deep.equal({
      states: ['CA', 'TX'],
      programs: ['medicaid_mco', 'part_d'],
    });
    expect(mergeScopes({ states: ['CA'] }, { states: ['CA', 'TX'], programs: ['chip'] })).to.deep.equal({ states: ['CA', 'TX'], programs: ['chip'] });
  });

  it('when a rule id has one of the corpus forms, then its text names the state (and the program when it says one)', () => {
    const cases: [string, { states: string[]; programs: string[] }][] = [
      ['tx.medicaid-mco.d.hepatitis-c', { states: ['TX'], programs: ['medicaid_mco'] }],
      ['ca.part-d.s.advanced-imaging', { states: ['CA'], programs: ['part_d'] }],
      ['humana.tx.part-d.d.hepatitis-c', { states: ['TX'], programs: ['part_d'] }],
      ['aetna.oh.ma.d.glp1-weight-loss', { states: ['OH'], programs: ['medicare_advantage'] }],
      ['tx-superior.d.glp1-weight-loss', { states: ['TX'], programs: [] }],
      ['zz.nothing', { states: [], programs: [] }],
      ['acme.d.hepatitis-c', { states: [], programs: [] }],
      ['TX.medicaid-mco.d.hepatitis-c', { states: [], programs: [] }],
    ];
    for (const [id, want] of cases) expect(scopeOfRuleId(id), id).to.deep.equal(want);
  });

  it('when a similar-rules id names nothing by its text but resolves to a rule outside the key, then that rule names the 403', () => {
    const payerRule = rule({ state: 'CA', program: 'medicaid_mco', code: 'hepatitis_c', payer: { id: 'acme', name: 'Acme' } });
    const model = buildReadModel({ rules: [payerRule, rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' })], jurisdictions: [], payers: [], drugs: [], codeMappings: [], events: [], topics: [] }, 1);
    expect(payerRule.id).to.equal('acme.d.hepatitis-c');
    const txOnly = { state: (s: string) => s === 'TX', program: () => true };
    expect(similarRules(model, { by: 'rule_id', id: payerRule.id }, 'same_subject', 10, txOnly)).to.deep.equal({ kind: 'outside_scope', scope: { states: ['CA'], programs: ['medicaid_mco'] } });
    expect(similarRules(model, { by: 'rule_id', id: 'acme.d.nothing' }, 'same_subject', 10, txOnly)).to.deep.equal({ kind: 'not_found' });
  });
});
