// Curated facts (corpus/facts): what the loader refuses, how a rule is derived from facts, and that "verified" means
// traced: a verified rule without evidence, on a non-official source, without a locator, or whose last_verified is
// not its facts' check date cannot come out of the build.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { stringify } from 'yaml';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import { applyFacts, NO_CLOCK_BASIS, sourceAgeConfidence, VERIFIED_CONFIDENCE } from '../../scripts/corpus/facts/apply.js';
import { hostAllowed, loadFacts, type Fact } from '../../scripts/corpus/facts/load.js';

const SOURCE = { id: 'pdl', url: 'https://www.example.state.tx.us/pdl.pdf', title: 'Preferred Drug List', publisher: 'State agency', date: '2026-07-01' };

function factYaml(overrides: Record<string, unknown> = {}, file: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    jurisdiction: 'TX',
    sources: [SOURCE],
    facts: [{
      id: 'hcv',
      programs: ['medicaid_ffs'],
      subjects: ['hepatitis_c'],
      requirement: { pa_required: true, pa_type: 'conditional', criteria: 'Preferred agent without PA; others need PA.' },
      evidence: [{ source: 'pdl', locator: 'Hepatitis C agents, p. 4', quote: 'PA required for non-preferred agents' }],
      checked: '2026-11-20',
      review: { first_read: 'a', second_read: 'b' },
      ...overrides,
    }],
    ...file,
  };
}

function loadOne(doc: Record<string, unknown>, name = 'TX.yaml', domains?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'facts-'));
  mkdirSync(join(dir, 'national'));
  writeFileSync(join(dir, name.includes('/') ? name : name), stringify(doc));
  if (domains) writeFileSync(join(dir, 'official-domains.yaml'), domains);
  return loadFacts(dir);
}

function baseRule(over: Partial<CoverageRuleDoc> = {}): CoverageRuleDoc {
  return {
    resourceType: 'CoverageRule', id: 'tx.medicaid-ffs.d.hepatitis-c', jurisdiction: 'TX', program: 'medicaid_ffs',
    subject: { kind: 'drug', code: 'hepatitis_c' },
    requirement: { paRequired: true, paType: 'full', criteria: 'template', documentation: ['x', 'x'] },
    submission: { channel: 'portal', target: 'template target' },
    turnaround: { standardHours: 1, expeditedHours: 1 },
    federalOverride: false,
    source: { url: 'https://www.hhs.texas.gov', title: 'home', publisher: 'HHSC' },
    verification: { status: 'sample', lastVerified: '2026-11-21', confidence: 0.6, by: 'x', method: 'illustrative-sample', caveat: 'Illustrative' },
    ...over,
  };
}

const fact = (over: Partial<Fact> = {}): Fact => ({
  ref: 'TX.yaml#f', id: 'f', file: 'TX', jurisdictions: ['TX'], programs: ['medicaid_ffs'], subjects: ['hepatitis_c'],
  requirement: { pa_required: true, pa_type: 'conditional', criteria: 'Non-preferred agents need PA.', documentation: ['Diagnosis', 'Diagnosis'] },
  evidence: [{ source: SOURCE, locator: 'Hepatitis C agents' }],
  checked: '2026-11-20', review: { first_read: 'a', second_read: 'b' },
  ...over,
});
const route = (over: Partial<Fact> = {}): Fact => fact({
  ref: 'TX.yaml#route', id: 'route', subjects: { kind: 'drug' }, requirement: undefined,
  submission: { channel: 'fax', target: 'PA call center', fax: '1-800-555-0100' },
  evidence: [{ source: SOURCE, locator: 'How to request PA' }], checked: '2026-11-18', ...over,
});
const clock = (over: Partial<Fact> = {}): Fact => fact({
  ref: 'national/clock.yaml#clock', id: 'clock', file: 'national', jurisdictions: 'all', subjects: { kind: 'drug' }, requirement: undefined,
  clock: { standard_hours: 24, expedited_hours: 24, basis: 'SSA 1927(d)(5)' },
  evidence: [{ source: { id: 'ssa', url: 'https://www.ssa.gov/OP_Home/ssact/title19/1927.htm', title: 'SSA 1927', publisher: 'SSA', date: '2026-01-01' }, locator: '(d)(5)(A)' }],
  checked: '2026-11-22', ...over,
});

describe('curated facts: the loader refuses what cannot be traced', () => {
  it('when a fact is well formed, then it loads with its source resolved and no error', () => {
    const r = loadOne(factYaml());
    expect(r.errors).to.deep.equal([]);
    expect(r.facts).to.have.length(1);
    expect(r.facts[0].evidence[0].source.url).to.equal(SOURCE.url);
    expect(r.facts[0].jurisdictions).to.deep.equal(['TX']);
  });

  it('when a source is not on an official host, then the build fails naming the source and host', () => {
    const r = loadOne(factYaml({}, { sources: [{ ...SOURCE, url: 'https://docslib.org/doc/1/pdl' }] }));
    expect(r.errors.join('\n')).to.match(/source pdl is on docslib\.org, which is not an official host/);
  });

  it('when a vendor host is named by a government page, then it is allowed; named by a non-government page, it is not', () => {
    const vendor = { sources: [{ ...SOURCE, url: 'https://www.txvendordrug.example.com/pdl' }] };
    const ok = loadOne(factYaml({}, { ...vendor, vendor_domains: [{ host: 'txvendordrug.example.com', who: 'VDP', named_by: 'https://www.hhs.texas.gov/vdp' }] }));
    expect(ok.errors).to.deep.equal([]);
    const bad = loadOne(factYaml({}, { ...vendor, vendor_domains: [{ host: 'txvendordrug.example.com', who: 'VDP', named_by: 'https://blog.example.com/x' }] }));
    expect(bad.errors.join('\n')).to.match(/named by blog\.example\.com, which is not a government host/);
  });

  it('when evidence has no locator (or an empty one), then the build fails', () => {
    const r = loadOne(factYaml({ evidence: [{ source: 'pdl', locator: '' }] }));
    expect(r.errors.join('\n')).to.match(/\/facts\/0\/evidence\/0\/locator \(fact hcv\) must NOT have fewer than 1 characters/);
    const r2 = loadOne(factYaml({ evidence: [{ source: 'pdl' }] }));
    expect(r2.errors.join('\n')).to.match(/must have required property 'locator'/);
  });

  it('when evidence names an unknown source, a quote is content-length, or MCO scope has no basis, then each is an error', () => {
    expect(loadOne(factYaml({ evidence: [{ source: 'nope', locator: 'p. 1' }] })).errors.join()).to.match(/unknown source nope/);
    expect(loadOne(factYaml({ evidence: [{ source: 'pdl', locator: 'p. 1', quote: 'x'.repeat(301) }] })).errors.join()).to.match(/quote longer than 300/);
    expect(loadOne(factYaml({ programs: ['medicaid_ffs', 'medicaid_mco'] })).errors.join()).to.match(/without scope_basis/);
  });

  it('when fields contradict (pa_type none with pa_required true, same second reader), then each is an error', () => {
    const r = loadOne(factYaml({ requirement: { pa_required: true, pa_type: 'none', criteria: 'x' }, review: { first_read: 'a', second_read: 'a' } }));
    expect(r.errors.join('\n')).to.match(/pa_type none with pa_required true/).and.match(/second read is by the first reader/);
  });

  it('when a misspelt key appears, then the schema refuses it rather than ignoring it', () => {
    expect(loadOne(factYaml({ critera: 'x' })).errors.join()).to.match(/must NOT have additional properties/);
  });

  it('official hosts: government hosts by rule, listed hosts and their subdomains, nothing else', () => {
    for (const h of ['www.ecfr.gov', 'hhs.texas.gov', 'dhhs.ne.gov', 'www.dhs.state.mn.us', 'medicaid.ohio.gov']) expect(hostAllowed(h, []), h).to.equal(true);
    expect(hostAllowed('www.cgsmedicare.com', ['cgsmedicare.com'])).to.equal(true);
    for (const h of ['docslib.org', 'gov.example.com', 'example.com', 'notcgsmedicare.com']) expect(hostAllowed(h, ['cgsmedicare.com']), h).to.equal(false);
  });
});

describe('curated facts: deriving a rule', () => {
  it('when requirement, route and clock rest on twice-read facts, then the rule is verified with evidence and the earliest check date', () => {
    const { rules, report } = applyFacts([baseRule()], [fact(), route(), clock()]);
    const r = rules[0];
    expect(report.verified).to.equal(1);
    expect(r.verification.status).to.equal('verified');
    expect(r.verification.lastVerified).to.equal('2026-11-18');
    expect(r.verification.confidence).to.equal(VERIFIED_CONFIDENCE);
    expect(r.requirement).to.deep.equal({ paRequired: true, paType: 'conditional', criteria: 'Non-preferred agents need PA.', documentation: ['Diagnosis'] });
    expect(r.submission).to.deep.equal({ channel: 'fax', target: 'PA call center', fax: '1-800-555-0100' });
    expect(r.turnaround).to.deep.equal({ standardHours: 24, expeditedHours: 24, basis: 'SSA 1927(d)(5)' });
    expect(r.source.url).to.equal(SOURCE.url);
    expect(r.evidence!.map((e) => [e.locator, e.checked])).to.deep.equal([
      ['Hepatitis C agents', '2026-11-20'], ['How to request PA', '2026-11-18'], ['(d)(5)(A)', '2026-11-22'],
    ]);
  });

  it('when the route is missing, then the rule stays sample and the caveat names what is missing', () => {
    const { rules } = applyFacts([baseRule()], [fact(), clock()]);
    expect(rules[0].verification.status).to.equal('sample');
    expect(rules[0].verification.caveat).to.match(/not yet traced to a source: the submission route/);
    expect(rules[0].requirement.criteria).to.equal('Non-preferred agents need PA.');
  });

  it('when no clock fact covers a verified rule, then no timeframe is claimed (0 h, basis says none was traced)', () => {
    const r = applyFacts([baseRule()], [fact(), route()]).rules[0];
    expect(r.verification.status).to.equal('verified');
    expect(r.turnaround).to.deep.equal({ standardHours: 0, expeditedHours: 0, basis: NO_CLOCK_BASIS });
  });

  it('when a fact has no second read, then the rule stays sample and says so', () => {
    const unread = applyFacts([baseRule()], [fact({ review: { first_read: 'a' } }), route(), clock()]).rules[0];
    expect(unread.verification.status).to.equal('sample');
    expect(unread.verification.caveat).to.match(/awaiting an independent second read/);
  });

  it('when a second reader disputed a fact, then it is not applied at all (its claim is not served, even as sample)', () => {
    const { rules, report } = applyFacts([baseRule()], [fact({ review: { first_read: 'a', disputed: 'class heading differs' } }), route(), clock()]);
    expect(rules[0].requirement.criteria).to.equal('template');
    expect(rules[0].verification.status).to.equal('sample');
    expect(report.disputed).to.deep.equal(['TX.yaml#f']);
    // A disputed clock leaves a verified rule without a clock rather than blocking it.
    const noClock = applyFacts([baseRule()], [fact(), route(), clock({ review: { first_read: 'a', disputed: '72 h not re-read' } })]).rules[0];
    expect(noClock.verification.status).to.equal('verified');
    expect(noClock.turnaround.basis).to.equal(NO_CLOCK_BASIS);
  });

  it('when a source predates the plan year, then the rule is verified with lowered confidence and its date in the caveat', () => {
    const old = { ...SOURCE, date: '2024-03-01' };
    const r = applyFacts([baseRule()], [fact({ evidence: [{ source: old, locator: 'p. 2' }] }), route(), clock()]).rules[0];
    expect(r.verification.status).to.equal('verified');
    expect(r.verification.confidence).to.equal(0.7);
    expect(r.verification.caveat).to.match(/dated 2024-03-01, before the 2026 plan year/);
  });

  it('confidence falls with the age of the oldest dated source; an undated source counts as two years old', () => {
    expect(sourceAgeConfidence(undefined, false)).to.equal(VERIFIED_CONFIDENCE);
    expect(sourceAgeConfidence('2025-06-30', false)).to.equal(0.8);
    expect(sourceAgeConfidence('2024-03-01', false)).to.equal(0.7);
    expect(sourceAgeConfidence(undefined, true)).to.equal(0.7);
    expect(sourceAgeConfidence('2025-06-30', true)).to.equal(0.7);
    expect(sourceAgeConfidence('2019-12-31', false)).to.equal(0.6);
    expect(sourceAgeConfidence('2016-12-01', false)).to.equal(0.5);
    expect(sourceAgeConfidence('2009-01-01', true)).to.equal(0.5);
    const ancient = applyFacts([baseRule()], [fact({ evidence: [{ source: { ...SOURCE, date: '2016-12-01' }, locator: 'p. 2' }] }), route(), clock()]).rules[0];
    expect(ancient.verification).to.include({ status: 'verified', confidence: 0.5 });
  });

  it('when no PA applies, then no route or clock is needed and none is served', () => {
    const none = fact({ requirement: { pa_required: false, pa_type: 'none', criteria: 'No PA for this class.' } });
    const r = applyFacts([baseRule()], [none]).rules[0];
    expect(r.verification.status).to.equal('verified');
    expect(r.submission.channel).to.equal('none');
    expect(r.turnaround.standardHours).to.equal(0);
    expect(r.requirement.documentation).to.deep.equal([]);
  });

  it('when PA is voluntary, then pa_required is served false with the mode', () => {
    const vol = fact({ requirement: { pa_required: false, pa_type: 'conditional', pa_mode: 'voluntary', criteria: 'PA may be requested; otherwise prepayment review.' } });
    const r = applyFacts([baseRule()], [vol, route(), clock()]).rules[0];
    expect(r.requirement.paRequired).to.equal(false);
    expect(r.requirement.paMode).to.equal('voluntary');
  });

  it('when a subject-specific fact and a kind-wide fact both set a group, then the specific one wins; two equal ones are a conflict', () => {
    const specificRoute = route({ ref: 'TX.yaml#r2', id: 'r2', subjects: ['hepatitis_c'], submission: { channel: 'portal', target: 'HCV portal' } });
    expect(applyFacts([baseRule()], [fact(), route(), specificRoute, clock()]).rules[0].submission.target).to.equal('HCV portal');
    const twin = route({ ref: 'TX.yaml#r3', id: 'r3' });
    expect(applyFacts([baseRule()], [fact(), route(), twin, clock()]).report.errors.join()).to.match(/TX\.yaml#route and TX\.yaml#r3 both set submission/);
  });

  it('when a generator rule was verified in code but no fact backs it, then it is served as sample (demoted)', () => {
    const coded = baseRule({ verification: { status: 'verified', lastVerified: '2026-11-21', confidence: 0.85, by: 'x', method: 'public-federal-list' } });
    const { rules, report } = applyFacts([coded], []);
    expect(rules[0].verification.status).to.equal('sample');
    expect(report.demoted).to.deep.equal([coded.id]);
  });

  it('a fact covers only its jurisdictions, programs and subjects', () => {
    const other = baseRule({ id: 'tx.medicaid-mco.d.hepatitis-c', program: 'medicaid_mco' });
    const ok = baseRule({ id: 'ok.medicaid-ffs.d.hepatitis-c', jurisdiction: 'OK' });
    const { rules, report } = applyFacts([baseRule(), other, ok], [fact(), route(), clock()]);
    expect(rules.map((r) => r.verification.status)).to.deep.equal(['verified', 'sample', 'sample']);
    expect(report.unused).to.deep.equal([]);
  });
});

describe('curated facts: a hand-over (follows) serves the followed program\'s rule', () => {
  const dualRule = (over: Partial<CoverageRuleDoc> = {}) => baseRule({ id: 'tx.dual-eligible.d.hepatitis-c', program: 'dual_eligible', ...over });
  const partD = (over: Partial<Fact> = {}) => fact({
    ref: 'national/pd.yaml#pd', id: 'pd', file: 'national', jurisdictions: 'all', programs: ['part_d'],
    requirement: { pa_required: true, pa_type: 'conditional', pa_mode: 'plan_may_require', criteria: 'The Part D plan decides.' },
    evidence: [{ source: { id: 'mg', url: 'https://www.medicare.gov/plan-rules', title: 'Drug plan rules', publisher: 'CMS' }, locator: 'Prior authorization' }],
    ...over,
  });
  const pdRoute = () => route({ ref: 'national/pd.yaml#cd', id: 'cd', file: 'national', jurisdictions: 'all', programs: ['part_d'], submission: { channel: 'phone', target: 'The Part D plan (coverage determination)' } });
  const handOver = (over: Partial<Fact> = {}) => fact({
    ref: 'TX.yaml#duals', id: 'duals', programs: ['dual_eligible'], follows: 'part_d', subjects: { kind: 'drug' }, requirement: undefined,
    scopeBasis: 'Texas Medicaid does not pay for the drugs of people who also have Medicare; their Part D plan covers them.',
    evidence: [{ source: SOURCE, locator: 'Medicare Part D section' }], checked: '2026-11-19',
    ...over,
  });

  it('when the followed rule is verified and the hand-over twice read, then the rule is verified with the scope first and both evidences', () => {
    const { rules, report } = applyFacts([dualRule()], [partD(), pdRoute(), handOver()]);
    const r = rules[0];
    expect(r.verification.status).to.equal('verified');
    expect(r.requirement).to.include({ paRequired: true, paType: 'conditional', paMode: 'plan_may_require' });
    expect(r.requirement.criteria).to.equal('Texas Medicaid does not pay for the drugs of people who also have Medicare; their Part D plan covers them. The Part D plan decides.');
    expect(r.submission).to.deep.equal({ channel: 'phone', target: 'The Part D plan (coverage determination)' });
    expect(r.evidence!.map((e) => e.locator)).to.deep.equal(['Medicare Part D section', 'Prior authorization', 'How to request PA']);
    expect(r.source.url, 'the primary citation is the text that makes it this program\'s rule (the hand-over)').to.equal(SOURCE.url);
    expect(r.verification.lastVerified).to.equal('2026-11-18');
    expect(r.decidedBy, 'the Part D plan decides, so its appeal ladder applies').to.equal('part_d');
    expect(report.errors).to.deep.equal([]);
    expect(report.unused).to.deep.equal([]);
  });

  it('when the hand-over has no second read, or the followed rule is not verified, then the rule stays sample', () => {
    const unread = applyFacts([dualRule()], [partD(), pdRoute(), handOver({ review: { first_read: 'a' } })]).rules[0];
    expect(unread.verification.status).to.equal('sample');
    expect(unread.verification.caveat).to.match(/awaiting an independent second read/);
    const noRoute = applyFacts([dualRule()], [partD(), handOver()]).rules[0];
    expect(noRoute.verification.status).to.equal('sample');
    expect(noRoute.verification.caveat).to.match(/the submission route/);
  });

  it('when the hand-over is disputed, then it is not applied and the rule keeps its generator content', () => {
    const { rules, report } = applyFacts([dualRule()], [partD(), pdRoute(), handOver({ review: { first_read: 'a', disputed: 'no such sentence' } })]);
    expect(rules[0].requirement.criteria).to.equal('template');
    expect(rules[0].verification.status).to.equal('sample');
    expect(report.disputed).to.deep.equal(['TX.yaml#duals']);
  });

  it('a hand-over covers only its subjects and jurisdiction; the followed program\'s own rule is unchanged', () => {
    const narrow = handOver({ subjects: ['hiv_antiretrovirals'] });
    const pdRule = baseRule({ id: 'tx.part-d.d.hepatitis-c', program: 'part_d' });
    const okDual = dualRule({ id: 'ok.dual-eligible.d.hepatitis-c', jurisdiction: 'OK' });
    const { rules } = applyFacts([dualRule(), pdRule, okDual], [partD(), pdRoute(), narrow, handOver({ ref: 'TX.yaml#d2', id: 'd2', subjects: ['hepatitis_c'] })]);
    expect(rules[0].verification.status).to.equal('verified');
    expect(rules[1].requirement.criteria).to.equal('The Part D plan decides.');
    expect(rules[2].verification.status).to.equal('sample');
    expect(rules[2].requirement.criteria).to.equal('template');
  });

  it('when the program\'s own facts also cover a handed-over rule, two hand-overs tie, or hand-overs loop, then each is a build error', () => {
    const own = fact({ ref: 'TX.yaml#own', id: 'own', programs: ['dual_eligible'] });
    expect(applyFacts([dualRule()], [partD(), pdRoute(), handOver(), own]).report.errors.join()).to.match(/TX\.yaml#duals hand\(s\) it to another program, but TX\.yaml#own cover\(s\) it too/);
    expect(applyFacts([dualRule()], [partD(), pdRoute(), handOver(), handOver({ ref: 'TX.yaml#d3', id: 'd3' })]).report.errors.join()).to.match(/TX\.yaml#duals and TX\.yaml#d3 both hand it over/);
    const back = handOver({ ref: 'TX.yaml#back', id: 'back', programs: ['part_d'], follows: 'dual_eligible' });
    expect(applyFacts([dualRule()], [handOver(), back]).report.errors.join()).to.match(/hand-overs loop \(dual_eligible -> part_d -> dual_eligible\)/);
  });

  it('a hand-over may lead to another (CHIP follows Medicaid managed care, which follows fee-for-service): both scopes and evidences are served', () => {
    const chipRule = baseRule({ id: 'tx.chip.d.hepatitis-c', program: 'chip' });
    const chipToMco = handOver({ ref: 'TX.yaml#chip', id: 'chip', programs: ['chip'], follows: 'medicaid_mco', scopeBasis: 'CHIP is Medicaid here.', evidence: [{ source: SOURCE, locator: 'CHIP design' }] });
    const mcoToFfs = handOver({ ref: 'TX.yaml#mco', id: 'mco', programs: ['medicaid_mco'], follows: 'medicaid_ffs', scopeBasis: 'Plans use the state PDL.', evidence: [{ source: SOURCE, locator: 'Unified PDL' }] });
    const r = applyFacts([chipRule], [fact(), route(), chipToMco, mcoToFfs]).rules[0];
    expect(r.verification.status).to.equal('verified');
    expect(r.requirement.criteria).to.equal('CHIP is Medicaid here. Plans use the state PDL. Non-preferred agents need PA.');
    expect(r.evidence!.map((e) => e.locator)).to.deep.equal(['CHIP design', 'Unified PDL', 'Hepatitis C agents', 'How to request PA']);
    expect(r.decidedBy, 'the last program of the chain').to.equal('medicaid_ffs');
    expect(applyFacts([chipRule], [fact(), route()]).rules[0].decidedBy, 'no hand-over: the rule\'s own program').to.equal(undefined);
  });

  it('when the scope statement and the followed criteria together pass the served limit (4,000 characters), then the build says so', () => {
    const long = partD({ requirement: { pa_required: true, pa_type: 'conditional', pa_mode: 'plan_may_require', criteria: 'x'.repeat(3500) } });
    expect(applyFacts([dualRule()], [long, pdRoute(), handOver()]).report.errors).to.deep.equal([]);
    const longer = handOver({ scopeBasis: 'y'.repeat(600) });
    expect(applyFacts([dualRule()], [long, pdRoute(), longer]).report.errors.join()).to.match(/tx\.dual-eligible\.d\.hepatitis-c: criteria with the hand-over's scope_basis run past 4000 characters/);
  });

  it('a hand-over for some members only (population) serves them as the rule\'s applies_to, before the followed requirement\'s own', () => {
    const dsnp = handOver({ population: 'dual eligibles enrolled in a Medicare Advantage plan (such as a D-SNP)' });
    const r = applyFacts([dualRule()], [partD(), pdRoute(), dsnp]).rules[0];
    expect(r.verification.status).to.equal('verified');
    expect(r.requirement.population).to.equal('dual eligibles enrolled in a Medicare Advantage plan (such as a D-SNP)');
    const narrowed = partD({ requirement: { pa_required: true, pa_type: 'conditional', pa_mode: 'plan_may_require', criteria: 'The Part D plan decides.', population: 'members under 18' } });
    expect(applyFacts([dualRule()], [narrowed, pdRoute(), dsnp]).rules[0].requirement.population).to.equal('dual eligibles enrolled in a Medicare Advantage plan (such as a D-SNP); among them, members under 18');
    expect(applyFacts([dualRule()], [partD(), pdRoute(), handOver()]).rules[0].requirement.population, 'no population: the hand-over speaks for every member').to.equal(undefined);
    const long = handOver({ population: 'p'.repeat(190) });
    expect(applyFacts([dualRule()], [narrowed, pdRoute(), long]).report.errors.join()).to.match(/populations together run past 200 characters/);
  });

  it('the loader: a hand-over needs scope_basis, states nothing of its own, and never follows its own program', () => {
    const base = { programs: ['dual_eligible'], follows: 'part_d', subjects: { kind: 'drug' }, requirement: undefined, scope_basis: 'Duals get drugs from Part D.' };
    expect(loadOne(factYaml(base)).errors).to.deep.equal([]);
    expect(loadOne(factYaml(base)).facts[0].follows).to.equal('part_d');
    expect(loadOne(factYaml({ ...base, scope_basis: undefined })).errors.join()).to.match(/a follows fact needs scope_basis/);
    expect(loadOne(factYaml({ ...base, requirement: { pa_required: false, pa_type: 'none', criteria: 'x' } })).errors.join()).to.match(/sets no requirement, submission, clock or effective of its own/);
    expect(loadOne(factYaml({ ...base, programs: ['part_d'] })).errors.join()).to.match(/follows part_d, one of its own programs/);
    expect(loadOne(factYaml({ ...base, follows: 'medicare_part_z' })).errors.join()).to.match(/follows/);
    expect(loadOne(factYaml({ ...base, population: 'duals in an MA plan' })).facts[0].population).to.equal('duals in an MA plan');
    const own = { programs: ['dual_eligible'], subjects: { kind: 'drug' }, requirement: { pa_required: false, pa_type: 'none', criteria: 'x' }, population: 'some' };
    expect(loadOne(factYaml(own)).errors.join()).to.match(/population on a fact of its own goes in its requirement/);
  });
});
