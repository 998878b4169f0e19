// Reading a question (issue 28): program qualifiers beside a program name, misspelt state names (never a common
// English word), class phrases ("compounded ... cream"). Our own phrasings per pattern (./ask-phrasings.ts) over the
// generated sample corpus's reference data, read as /v1/ask reads them; the extraction's time in process.
import { expect } from 'chai';
import { buildReadModel } from '../../src/corpus/read-model.js';
import { planAnswer } from '../../src/services/ask/answer.js';
import { extract, misspeltStates } from '../../src/services/ask/extract.js';
import { commonEnglishWords } from '../support/english-words.js';
import { sampleCorpusDocuments } from '../support/sample-corpus.js';
import { PHRASINGS } from './ask-phrasings.js';

const model = buildReadModel(sampleCorpusDocuments(), 1);

function reading(q: string): { state: string | null; program: string | null; subjects: string[] } {
  const plan = planAnswer(model, { question: q });
  return { state: plan.scope.states[0] ?? null, program: plan.scope.programs[0] ?? null, subjects: [...new Set(extract(model, q).subjects.map((s) => s.code))].sort() };
}

describe('ask: reading a question', () => {
  for (const [pattern, table] of Object.entries(PHRASINGS)) {
    describe(`pattern ${pattern}`, () => {
      for (const p of table) {
        it(`when asked "${p.q}", then it reads ${p.state ?? 'no state'}, ${p.program ?? 'no program'}, ${p.subjects.join(' + ') || 'no subject'}`, () => {
          expect(reading(p.q)).to.deep.equal({ state: p.state, program: p.program, subjects: [...p.subjects].sort() });
        });
      }
    });
  }

  it('when a qualifier stands beside a Medicaid program name, then the program says which words it came from', () => {
    const x = extract(model, 'SoonerCare fee-for-service prior authorization for a brain MRI');
    expect(x.states).to.deep.equal([{ value: 'OK', matched: 'SoonerCare', by: 'program_name' }]);
    expect(x.programs).to.deep.equal([{ value: 'medicaid_ffs', matched: 'SoonerCare fee-for-service', by: 'program_name' }]);
    const before = extract(model, 'does fee-for-service Apple Health require prior approval for physical therapy');
    expect(before.programs).to.deep.equal([{ value: 'medicaid_ffs', matched: 'fee-for-service Apple Health', by: 'program_name' }]);
    const open = extract(model, 'Does Oregon open card Medicaid need prior authorization for Biktarvy?');
    expect(open.programs.map((p) => [p.value, p.matched])).to.deep.equal([['medicaid_ffs', 'open card Medicaid']]);
    const word = extract(model, 'Medicare (fee-for-service) in Ohio, Abilify');
    expect(word.programs).to.deep.equal([{ value: 'medicare_traditional', matched: 'Medicare (fee-for-service)', by: 'synonym' }]);
    // Not beside it: "fee-for-service" alone says nothing, and the bare program name is read as before.
    const apart = extract(model, 'Ohio Medicaid: is a fee-for-service claim needed for Humira?');
    expect(apart.programs.map((p) => p.value)).to.deep.equal(['medicaid']);
  });

  it('when a state name is misspelt, then it is read by name with the words it came from; a tie is a choice', () => {
    const x = extract(model, 'West Virgina Medicaid managed care, CT scan');
    expect(x.states).to.deep.equal([{ value: 'WV', matched: 'West Virgina', by: 'fuzzy_name' }]);
    expect(x.rest).to.not.match(/virgina/i);
    expect(misspeltStates(model, ['Pensylvania'])).to.deep.equal(['PA']);
    expect(misspeltStates(model, ['Missisippi'])).to.deep.equal(['MS']);
    expect(misspeltStates(model, ['Conneticut'])).to.deep.equal(['CT']);
    expect(misspeltStates(model, ['Kansas'])).to.deep.equal([]); // a name is not its own misspelling
    expect(misspeltStates(model, ['Gerogia'])).to.deep.equal([]); // two edits in 7 letters: beyond the budget
    // An exact name wins over a misspelt one: no fuzzy reading once a state is named.
    expect(extract(model, 'Texas Medicaid and Tennesee').states.map((s) => s.value)).to.deep.equal(['TX']);
  });

  it('when any common English word stands alone (SCOWL sizes 10-60, demonyms), then it is never read as a state', () => {
    const names = new Set([...model.jurisdictions.values()].flatMap((j) => j.name.toLowerCase().split(' ')));
    const read: string[] = [];
    for (const w of commonEnglishWords()) {
      if (!/^[a-z]{5,}$/.test(w) || names.has(w)) continue;
      const s = misspeltStates(model, [w]);
      if (s.length) read.push(`${w} -> ${s.join('/')}`);
    }
    expect(read, `add these to STATE_LOOKALIKES (src/services/ask/synonyms.ts): ${read.join(', ')}`).to.deep.equal([]);
  });

  it('when "compounded" has no product noun after it, then it names no class; with one, the phrase is what was matched', () => {
    expect(extract(model, 'delay compounded by a denial').subjects).to.deep.equal([]);
    const x = extract(model, 'Is a compounded hormone cream covered under Texas Medicaid managed care?');
    expect(x.subjects).to.deep.equal([{ kind: 'drug', code: 'compounded_medications', matched: 'compounded hormone cream', by: 'class_name' }]);
    // A drug named inside the phrase is the drug: the class phrase does not reach across it.
    expect(extract(model, 'diabetes insulin pens, Texas CHIP').subjects.map((s) => s.code)).to.deep.equal(['diabetes_insulin']);
  });
});
