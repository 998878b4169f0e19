// Curated facts: `decided_by` (FORMAT.md, "Carve-outs"). A fact covering Medicaid managed care through a carve-out
// (pharmacy paid and decided fee-for-service for plan members) names the program that decides; the managed-care rule
// it builds then carries decidedBy, so the action plan gives that program's appeal ladder, not the plan's.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { stringify } from 'yaml';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import type { Program } from '../../src/domain/vocabulary.js';
import { applyFacts } from '../../scripts/corpus/facts/apply.js';
import { loadFacts } from '../../scripts/corpus/facts/load.js';

const SOURCE = { id: 'carve', url: 'https://dss.example.mo.gov/pharmacy-carve-out.htm', title: 'Pharmacy carve-out', publisher: 'State agency', date: '2026-07-01' };

function load(fact: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'facts-db-'));
  mkdirSync(join(dir, 'national'));
  writeFileSync(join(dir, 'MO.yaml'), stringify({
    jurisdiction: 'MO',
    sources: [SOURCE],
    facts: [{
      id: 'adhd', subjects: ['adhd_stimulants'],
      requirement: { pa_required: true, pa_type: 'conditional', criteria: 'Non-preferred agents need PA.' },
      submission: { channel: 'fax', target: 'The state pharmacy help desk' },
      evidence: [{ source: 'carve', locator: 'Paragraph 1', quote: 'pharmacy claims for managed care members are processed fee-for-service' }],
      checked: '2026-11-26', review: { first_read: 'a', second_read: 'b' },
      ...fact,
    }],
  }));
  return loadFacts(dir);
}

const generatorRule = (program: Program): CoverageRuleDoc => ({
  resourceType: 'CoverageRule', id: `mo.${program}.d.adhd`, jurisdiction: 'MO', program,
  subject: { kind: 'drug', code: 'adhd_stimulants' },
  requirement: { paRequired: true, paType: 'full', criteria: 'template', documentation: [] },
  submission: { channel: 'portal', target: 'template' },
  turnaround: { standardHours: 24, expeditedHours: 24 },
  federalOverride: false,
  source: { url: 'https://mo.example.gov', title: 'home', publisher: 'x' },
  verification: { status: 'sample', lastVerified: '2026-11-21', confidence: 0.6, by: 'x', method: 'illustrative-sample' },
});

describe('curated facts: decided_by (a carve-out)', () => {
  const carveOut = { programs: ['medicaid_ffs', 'medicaid_mco'], scope_basis: 'Plan members get their drugs fee-for-service.', decided_by: 'medicaid_ffs' };

  it('when a carve-out fact names the deciding program, then the managed-care rule carries decidedBy and the fee-for-service rule does not', () => {
    const loaded = load(carveOut);
    expect(loaded.errors).to.deep.equal([]);
    const { rules, report } = applyFacts([generatorRule('medicaid_ffs'), generatorRule('medicaid_mco')], loaded.facts);
    expect(report.errors).to.deep.equal([]);
    const [ffs, mco] = rules;
    expect(mco!.verification.status).to.equal('verified');
    expect(mco!.decidedBy).to.equal('medicaid_ffs');
    expect(ffs!).to.not.have.property('decidedBy');
  });

  it('when decided_by is not one of the fact\'s programs, stands alone, lacks scope_basis or sits on a hand-over, then the build fails naming it', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...carveOut, decided_by: 'part_d' }, /decided_by part_d must be one of the fact's programs/],
      [{ programs: ['medicaid_ffs'], decided_by: 'medicaid_ffs' }, /must be one of the fact's programs, beside the ones it decides for/],
      [{ programs: ['medicaid_ffs', 'medicaid_mco'], decided_by: 'medicaid_ffs' }, /decided_by needs scope_basis|without scope_basis/],
      [{ programs: ['medicaid_mco'], follows: 'medicaid_ffs', scope_basis: 'x', decided_by: 'medicaid_ffs', requirement: undefined, submission: undefined }, /decided_by goes on a fact of its own, not on a hand-over/],
    ];
    for (const [fact, error] of cases) expect(load(fact).errors.join('\n'), JSON.stringify(fact)).to.match(error);
  });
});
