// CLI list options (--states, --programs, --groups): an option given with nothing in it is refused, never read as
// "all" (qa6 #7: `--states "$UNSET"` issued an unrestricted key).
import { expect } from 'chai';
import { InvalidArgumentError } from 'commander';
import { list, parseState } from '../../src/cli/parse-options.js';

describe('unit: CLI list options', () => {
  const states = list(parseState);
  it('reads codes, trims, upper-cases and skips empty items between commas', () => {
    expect(states('tx, CA,,ny')).to.deep.equal(['TX', 'CA', 'NY']);
  });
  for (const empty of ['', ' ', ',', ' , ,']) {
    it(`refuses ${JSON.stringify(empty)}, which names nothing (leaving the option out means all)`, () => {
      expect(() => states(empty)).to.throw(InvalidArgumentError, /names nothing; leave the option out to mean all/);
    });
  }
  it('refuses a code that is not a state', () => {
    expect(() => states('ZZ')).to.throw(InvalidArgumentError, /not a USPS state code/);
  });
});
