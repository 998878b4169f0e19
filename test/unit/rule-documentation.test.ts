// Issue 28: a rule's documentation list and its next steps repeated an item ("Step therapy: Metformin first unless
// contraindicated." twice). The projection appended the step-therapy line to the rule's own list, which every request
// shares, once per call. Lists are now made distinct where they are built (the read model) and projected (next steps).
import { expect } from 'chai';
import { buildReadModel } from '../../src/corpus/read-model.js';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import { distinctItems } from '../../src/domain/distinct-items.js';
import { toNextSteps, toPaRule } from '../../src/services/pa-rule.js';
import { rule } from '../support/docs.js';

const withReq = (r: CoverageRuleDoc, req: Partial<CoverageRuleDoc['requirement']>): CoverageRuleDoc => ({ ...r, requirement: { ...r.requirement, ...req } });
const modelOf = (...rules: CoverageRuleDoc[]) => buildReadModel({ rules, jurisdictions: [], payers: [], drugs: [], codeMappings: [], events: [], topics: [] }, 1);

const stepTherapy = withReq(rule({ state: 'TX', program: 'medicaid_mco', code: 'diabetes_non_insulin', paType: 'step_therapy' }), {
  documentation: ['Type 2 diabetes diagnosis (ICD-10 E11.x)', 'A1c result', 'Metformin trial or contraindication'],
  stepTherapy: 'Metformin first unless contraindicated.',
  quantityLimit: '4 pens per 28 days',
});

describe('rule documentation and next steps never repeat an item', () => {
  it('when next steps are projected many times, then the served rule and every projection stay the same', () => {
    const served = modelOf(stepTherapy).ruleById.get(stepTherapy.id)!;
    const first = { result: toPaRule(served), steps: toNextSteps(served) };
    for (let i = 0; i < 5; i++) toNextSteps(served);
    expect(served.requirement.documentation).to.deep.equal(['Type 2 diabetes diagnosis (ICD-10 E11.x)', 'A1c result', 'Metformin trial or contraindication']);
    expect(toPaRule(served).documentation).to.deep.equal(first.result.documentation);
    expect(toPaRule(served).documentation).to.deep.equal(['Type 2 diabetes diagnosis (ICD-10 E11.x)', 'A1c result', 'Metformin trial or contraindication']);
    expect(toNextSteps(served)).to.deep.equal(first.steps);
    expect(first.steps[0]!.items).to.deep.equal([
      'Type 2 diabetes diagnosis (ICD-10 E11.x)',
      'A1c result',
      'Metformin trial or contraindication',
      'Step therapy: Metformin first unless contraindicated.',
      'Quantity limit: 4 pens per 28 days',
    ]);
  });

  it('when a served rule list is changed by mistake, then it throws instead of changing the next answer', () => {
    const served = modelOf(stepTherapy).ruleById.get(stepTherapy.id)!;
    expect(() => served.requirement.documentation.push('x')).to.throw(TypeError);
    // The wire object is the caller's own.
    const wire = toPaRule(served);
    wire.documentation.push('added by a caller');
    expect(served.requirement.documentation).to.have.length(3);
  });

  it('when a stored list repeats an item (case, spacing, trailing punctuation), then it is served once, first spelling kept', () => {
    const repeated = withReq(stepTherapy, {
      documentation: ['A1c result', 'Step therapy: Metformin first unless contraindicated.', 'a1c  result.', 'Step therapy: metformin first unless contraindicated'],
    });
    const served = modelOf(repeated).ruleById.get(repeated.id)!;
    expect(toPaRule(served).documentation).to.deep.equal(['A1c result', 'Step therapy: Metformin first unless contraindicated.']);
    // The step-therapy line the next steps add is already in the list: once.
    expect(toNextSteps(served)[0]!.items).to.deep.equal(['A1c result', 'Step therapy: Metformin first unless contraindicated.', 'Quantity limit: 4 pens per 28 days']);
    // Projected straight from a stored document (not through the read model), the next steps are distinct too.
    expect(toNextSteps(repeated)[0]!.items).to.deep.equal(['A1c result', 'Step therapy: Metformin first unless contraindicated.', 'Quantity limit: 4 pens per 28 days']);
  });

  it('distinctItems keeps order and the first spelling', () => {
    expect(distinctItems(['B', 'a', 'b.', ' A ', 'c;'])).to.deep.equal(['B', 'a', 'c;']);
    expect(distinctItems([])).to.deep.equal([]);
  });
});
