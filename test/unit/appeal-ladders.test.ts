import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { PROGRAMS } from '../../src/domain/vocabulary.js';
import { APPEAL_LADDERS, FACT_CONFIDENCE, UNCONFIRMED_CAVEAT } from '../../src/services/action-plan/appeal-ladders.js';

describe('appeal ladders (data from regulatory-facts.md)', () => {
  it('when every program is listed, then each has a ladder with at least one step', () => {
    for (const p of PROGRAMS) {
      expect(APPEAL_LADDERS[p].program).to.equal(p);
      expect(APPEAL_LADDERS[p].steps.length).to.be.greaterThan(0);
    }
  });

  it('when a first-level window is given, then it is the one in the reference, with its [C]/[M] status', () => {
    const first = (p: (typeof PROGRAMS)[number]) => APPEAL_LADDERS[p].steps[0]!.filing;
    expect(first('medicare_advantage')).to.deep.include({ days: 60, status: 'confirmed' });
    expect(first('medicaid_mco')).to.deep.include({ days: 60, status: 'unconfirmed' });
    expect(first('medicaid_ffs')).to.deep.include({ days: 90, status: 'unconfirmed' });
    expect(first('part_d')).to.deep.include({ days: 60, status: 'unconfirmed' });
    expect(first('medicare_traditional')).to.deep.include({ days: 120, status: 'unconfirmed' });
    expect(first('chip')).to.equal(null);
    expect(APPEAL_LADDERS.medicaid_mco.continuedBenefits).to.deep.include({ days: 10, status: 'unconfirmed' });
    expect(APPEAL_LADDERS.medicaid_ffs.continuedBenefits).to.deep.include({ days: 10, status: 'confirmed' });
    for (const p of ['medicare_advantage', 'medicare_traditional', 'part_d', 'chip', 'dual_eligible'] as const) {
      expect(APPEAL_LADDERS[p].continuedBenefits, p).to.equal(null);
    }
    expect(FACT_CONFIDENCE.unconfirmed).to.be.lessThan(FACT_CONFIDENCE.confirmed);
    expect(UNCONFIRMED_CAVEAT).to.match(/unconfirmed/i);
  });

  it('when a CFR section is cited, then the reference names it (no invented sections)', function () {
    const path = new URL('../../../shared/reference/regulatory-facts.md', import.meta.url);
    if (!existsSync(path)) this.skip(); // the shared reference sits beside the checkout in the project workspace
    const reference = readFileSync(path, 'utf8');
    for (const ladder of Object.values(APPEAL_LADDERS)) {
      const cites = [...ladder.steps.flatMap((s) => s.citations), ...(ladder.continuedBenefits?.citations ?? [])];
      for (const c of cites) {
        const m = /^42 CFR (\d+\.\d+(?:\(\w\))?)/.exec(c.title);
        if (!m) continue;
        expect(reference, `${c.title} is not in regulatory-facts.md`).to.contain(m[1]!);
      }
    }
  });
});
