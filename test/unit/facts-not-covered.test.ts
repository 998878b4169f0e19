// Curated facts: a subject the program does not cover (`requirement.not_covered: true`, FORMAT.md "Encoding"). The
// loader accepts it only beside pa_required false / pa_type none; the build serves it as the rule's exclusion (reason
// = the fact's criteria, citation = the first evidence item's source title and locator), so every surface can say
// "not covered" instead of "no PA needed". The real corpus: which facts carry it, and which look alike but do not.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { stringify } from 'yaml';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import { applyFacts } from '../../scripts/corpus/facts/apply.js';
import { loadFacts, type Fact } from '../../scripts/corpus/facts/load.js';
import { sampleCorpusDocuments } from '../support/sample-corpus.js';

const SOURCE = { id: 'rule', url: 'https://www.example.state.tx.us/rule.htm', title: 'Drug benefit rule', publisher: 'State agency', date: '2026-07-01' };
const EXCLUDED = 'Not a PA requirement but a coverage exclusion: the program does not cover drugs used for weight loss.';

function loadRequirement(requirement: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'facts-nc-'));
  mkdirSync(join(dir, 'national'));
  writeFileSync(join(dir, 'TX.yaml'), stringify({
    jurisdiction: 'TX',
    sources: [SOURCE],
    facts: [{
      id: 'weight-loss', programs: ['medicaid_ffs'], subjects: ['glp1_weight_loss'], requirement,
      evidence: [{ source: 'rule', locator: 'Section 5(14)', quote: 'drugs used for weight loss are not covered' }],
      checked: '2026-11-26', review: { first_read: 'a', second_read: 'b' },
    }],
  }));
  return loadFacts(dir);
}

function generatorRule(): CoverageRuleDoc {
  return {
    resourceType: 'CoverageRule', id: 'tx.medicaid-ffs.d.glp1-weight-loss', jurisdiction: 'TX', program: 'medicaid_ffs',
    subject: { kind: 'drug', code: 'glp1_weight_loss' },
    requirement: { paRequired: true, paType: 'full', criteria: 'template', documentation: ['BMI'] },
    submission: { channel: 'portal', target: 'template target' },
    turnaround: { standardHours: 24, expeditedHours: 24 },
    federalOverride: false,
    source: { url: 'https://www.hhs.texas.gov', title: 'home', publisher: 'HHSC' },
    verification: { status: 'sample', lastVerified: '2026-11-21', confidence: 0.6, by: 'x', method: 'illustrative-sample' },
  };
}

const exclusionFact = (over: Partial<Fact> = {}): Fact => ({
  ref: 'TX.yaml#weight-loss', id: 'weight-loss', file: 'TX', jurisdictions: ['TX'], programs: ['medicaid_ffs'], subjects: ['glp1_weight_loss'],
  requirement: { pa_required: false, pa_type: 'none', not_covered: true, criteria: EXCLUDED },
  evidence: [{ source: SOURCE, locator: 'Section 5(14)' }, { source: { ...SOURCE, id: 'other', title: 'Member page' }, locator: 'List' }],
  checked: '2026-11-26', review: { first_read: 'a', second_read: 'b' },
  ...over,
});

describe('curated facts: not_covered (an exclusion)', () => {
  it('when not_covered goes with pa_required false and pa_type none, then the fact loads with the flag', () => {
    const r = loadRequirement({ pa_required: false, pa_type: 'none', not_covered: true, criteria: EXCLUDED });
    expect(r.errors).to.deep.equal([]);
    expect(r.facts[0].requirement).to.deep.equal({ pa_required: false, pa_type: 'none', not_covered: true, criteria: EXCLUDED });
  });

  it('when not_covered goes with a PA requirement, another pa_type or a pa_mode, then the build fails; false is refused by the schema', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ pa_required: true, pa_type: 'full', not_covered: true, criteria: 'x' }, /not_covered goes with pa_required false and pa_type none only/],
      [{ pa_required: false, pa_type: 'conditional', pa_mode: 'voluntary', not_covered: true, criteria: 'x' }, /not_covered goes with pa_required false and pa_type none only/],
      [{ pa_required: false, pa_type: 'none', pa_mode: 'required', not_covered: true, criteria: 'x' }, /not_covered goes with pa_required false and pa_type none only/],
      [{ pa_required: false, pa_type: 'none', not_covered: false, criteria: 'x' }, /requirement\/not_covered \(fact weight-loss\) must be equal to constant/],
    ];
    for (const [requirement, error] of cases) expect(loadRequirement(requirement).errors.join('\n'), JSON.stringify(requirement)).to.match(error);
  });

  it('when a twice-read not_covered fact decides a rule, then it is verified, pa_required false, pa_type none, with the exclusion from the criteria and the first evidence item', () => {
    const { rules, report } = applyFacts([generatorRule()], [exclusionFact()]);
    const r = rules[0];
    expect(report.errors).to.deep.equal([]);
    expect(r.verification.status).to.equal('verified');
    expect(r.requirement).to.deep.equal({
      paRequired: false, paType: 'none', criteria: EXCLUDED, documentation: [],
      exclusion: { reason: EXCLUDED, citation: 'Drug benefit rule, Section 5(14)' },
    });
    // No route and no clock, and neither says "no PA request needed" (that reads as "covered without PA").
    expect(r.submission).to.deep.equal({ channel: 'none', target: 'Not covered: no prior authorization request leads to coverage' });
    expect(r.turnaround).to.deep.equal({ standardHours: 0, expeditedHours: 0, basis: 'Not covered: no prior authorization decision applies' });
  });

  it('when the fact has no not_covered (a plain "no PA applies"), then the rule carries no exclusion', () => {
    const plain = exclusionFact({ requirement: { pa_required: false, pa_type: 'none', criteria: 'Preferred agents need no PA.' } });
    const r = applyFacts([generatorRule()], [plain]).rules[0];
    expect(r.requirement).to.not.have.property('exclusion');
    expect(r.submission).to.deep.equal({ channel: 'none', target: 'No PA request needed' });
  });

  it('when the exclusion\'s citation would pass the served limit (500 characters), then the build says so', () => {
    const long = exclusionFact({ evidence: [{ source: { ...SOURCE, title: 't'.repeat(300) }, locator: 'l'.repeat(300) }] });
    expect(applyFacts([generatorRule()], [long]).report.errors.join()).to.match(/tx\.medicaid-ffs\.d\.glp1-weight-loss: the exclusion's citation .* runs past 500 characters/);
  });
});

describe('curated facts: the corpus\'s exclusions', () => {
  const loaded = loadFacts('corpus/facts');
  const flagged = loaded.facts.filter((f) => f.requirement?.not_covered).map((f) => f.ref).sort();

  it('the facts that state a coverage exclusion, and are applied, carry not_covered (the disputed MT one is not applied and left as it is)', () => {
    expect(loaded.errors).to.deep.equal([]);
    expect(flagged).to.deep.equal([
      'IN.yaml#in-weight-loss-drugs-not-covered',
      'MD.yaml#md-weight-control-drugs-excluded',
      'MO.yaml#mo-weight-loss-drugs-not-covered',
      'NC.yaml#nc-glp1-obesity-not-covered',
      'OK.yaml#ok-weight-loss-exclusion',
      'TX.yaml#tx-weight-management-drugs-ffs',
      'WA.yaml#wa-weight-loss-drugs-noncovered-ffs',
    ]);
    // Every applied fact whose criteria say "coverage exclusion" is flagged: none is left saying "no PA needed".
    const saysExclusion = loaded.facts.filter((f) => !f.review.disputed && /^Not a PA requirement but a coverage exclusion/.test(f.requirement?.criteria ?? ''));
    expect(saysExclusion.map((f) => f.ref).sort()).to.deep.equal(flagged);
    for (const f of loaded.facts.filter((x) => x.requirement?.not_covered)) {
      // Flagged without a claim change, or (TX) re-encoded from "PA required" and read again whole.
      if (f.ref === 'TX.yaml#tx-weight-management-drugs-ffs') expect([f.review.notes, f.review.second_read], f.ref).to.satisfy(([n, r]: [string, string]) => n.includes('re-encoded') && !!r);
      else expect(f.review.notes, f.ref).to.contain('Encoding (2026-11-26): not_covered flag added; the criteria and quotes already state the exclusion; no claim changed.');
    }
  });

  it('the served sample corpus: each flagged state\'s Medicaid rule for weight-loss drugs is an exclusion, and only those', () => {
    const rules = sampleCorpusDocuments().rules as CoverageRuleDoc[];
    const excluded = rules.filter((r) => r.requirement.exclusion).map((r) => `${r.id} ${r.verification.status}`).sort();
    expect(excluded).to.deep.equal([
      'in.medicaid-ffs.d.glp1-weight-loss verified',
      'md.medicaid-ffs.d.glp1-weight-loss verified',
      'mo.medicaid-ffs.d.glp1-weight-loss verified',
      'mo.medicaid-mco.d.glp1-weight-loss verified',
      'nc.medicaid-ffs.d.glp1-weight-loss verified',
      'ok.medicaid-ffs.d.glp1-weight-loss verified',
      'tx.medicaid-ffs.d.glp1-weight-loss verified',
      'wa.medicaid-ffs.d.glp1-weight-loss verified',
    ]);
    const ok = rules.find((r) => r.id === 'ok.medicaid-ffs.d.glp1-weight-loss')!;
    expect(ok.requirement.exclusion).to.deep.equal({ reason: ok.requirement.criteria, citation: `${ok.source.title}, 317:30-5-72.1, opening paragraph (open formulary subject to exclusions)` });
  });

  it('Wyoming dual eligibles\' antiretrovirals are a hand-over to Part D (a protected class Part D covers), not an exclusion', () => {
    // The criteria open with "Wyoming Medicaid no longer covers prescription drugs for full-benefit dual eligible
    // clients" (wy-duals-drugs-part-d): Medicaid hands the drugs to Part D, whose rule (antiretrovirals, a protected
    // class, no PA) is the one served. Coverage moves to another program; it is not taken away.
    const wy = (sampleCorpusDocuments().rules as CoverageRuleDoc[]).find((r) => r.id === 'wy.dual-eligible.d.hiv-antiretrovirals')!;
    expect(wy.decidedBy).to.equal('part_d');
    expect(wy.requirement.criteria).to.match(/^Since January 1, 2006 Wyoming Medicaid no longer covers prescription drugs for full-benefit dual eligible clients/);
    expect(wy.requirement.criteria).to.contain('Antiretrovirals are one of the six Part D protected classes');
    expect(wy.requirement).to.not.have.property('exclusion');
    const behind = loaded.facts.filter((f) => f.programs.includes('dual_eligible') && f.jurisdictions !== 'all' && f.jurisdictions.includes('WY'));
    expect(behind.map((f) => [f.id, f.follows])).to.deep.equal([['wy-duals-drugs-part-d', 'part_d']]);
  });
});
