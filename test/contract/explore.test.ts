// Endpoints 6, 10, 11, 12, 13, 15: ask, drug crosswalk, topics, compliance, similar rules. Reference data (states,
// plans, drugs, code mappings, events, topics) is the generated sample's; rules are built here so that every
// expected answer is explicit.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import type { CanonicalDoc } from '../../src/domain/documents.js';
import { rule } from '../support/docs.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';
import { PHRASINGS } from '../unit/ask-phrasings.js';

const fixture = (f: string): CanonicalDoc[] => readFileSync(new URL(`../../fixtures/${f}`, import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

const RULES = [
  rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' }),
  rule({ state: 'TX', program: 'medicaid_mco', code: 'glp1_weight_loss', paRequired: false }),
  rule({ state: 'TX', program: 'medicaid_mco', code: 'diabetes_non_insulin', paType: 'step_therapy' }),
  rule({ state: 'TX', program: 'medicaid_mco', kind: 'service', code: 'advanced_imaging' }),
  rule({ state: 'TX', program: 'chip', code: 'adhd_stimulants' }),
  rule({ state: 'TX', program: 'medicare_advantage', kind: 'service', code: 'advanced_imaging' }),
  rule({ state: 'TX', program: 'part_d', code: 'mental_health_antipsychotics' }),
  rule({ state: 'CA', program: 'medicaid_mco', code: 'specialty_biologics' }),
  rule({ state: 'CA', program: 'medicaid_mco', code: 'hepatitis_c' }),
  rule({ state: 'FL', program: 'medicaid_mco', code: 'hepatitis_c' }),
  rule({ state: 'FL', program: 'medicaid_ffs', code: 'opioid_treatment' }),
  rule({ state: 'OH', program: 'medicare_advantage', kind: 'service', code: 'advanced_imaging' }),
  rule({ state: 'OH', program: 'medicare_traditional', kind: 'service', code: 'durable_medical_equipment' }),
  rule({ state: 'NY', program: 'dual_eligible', kind: 'service', code: 'home_health' }),
  rule({ state: 'WY', program: 'medicaid_ffs', code: 'opioid_treatment', paRequired: false }),
  rule({ state: 'TN', program: 'medicaid_mco', kind: 'service', code: 'physical_therapy' }),
  rule({ state: 'WA', program: 'medicaid_mco', code: 'diabetes_insulin' }),
  rule({ state: 'GA', program: 'medicaid_mco', kind: 'service', code: 'outpatient_surgery' }),
  rule({ state: 'AZ', program: 'medicare_traditional', kind: 'service', code: 'outpatient_surgery' }),
  // An MA drug rule for MA-PD enrollees only (requirement.population), as the MA facts of their own serve it.
  (() => {
    const r = rule({ state: 'FL', program: 'medicare_advantage', code: 'hepatitis_c', paType: 'conditional' });
    return { ...r, requirement: { ...r.requirement, population: 'enrollees of a Medicare Advantage plan with prescription drug coverage (an MA-PD plan)' } };
  })(),
];

let t: TestApp;
let key: string;
// The state DMEPOS code lists are left out (3,774 records that no case here needs; slow to load on FerretDB).
const REFERENCE = () =>
  ['jurisdictions', 'payers', 'drugs', 'code-mappings', 'topics', 'events']
    .flatMap((f) => fixture(`${f}.ndjson`))
    .filter((d) => d.resourceType !== 'CodeMapping' || !(d as { jurisdiction?: string }).jurisdiction);

const ask = (body: unknown, k = key) => request(t.app.handler).post('/v1/ask').set('x-api-key', k).send(body as object);

interface Case {
  q: string;
  hints?: { state?: string; program?: string };
  state: string | null;
  program: string | null;
  subjects: string[];
  status: 'answered' | 'partial' | 'no_rule' | 'clarification_needed';
  missing?: string[];
}

// [question, expected state, program, subject codes, status]
const CASES: Case[] = [
  { q: 'Does Texas Medicaid require prior auth for Epclusa?', state: 'TX', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'PA for Mavyret in TX MCO', state: 'TX', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'hep c drugs under texas medicaid managed care', state: 'TX', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'Is sofosbuvir/velpatasvir covered by Superior HealthPlan?', state: 'TX', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'Does Molina Healthcare of Texas need PA for an MRI?', state: 'TX', program: 'medicaid_mco', subjects: ['advanced_imaging'], status: 'answered' },
  { q: 'Does Texas Medicaid need prior authorization for Wegovy?', state: 'TX', program: 'medicaid_mco', subjects: ['glp1_weight_loss'], status: 'answered' },
  { q: 'Zepbound in Texas STAR plans', state: 'TX', program: 'medicaid_mco', subjects: ['glp1_weight_loss'], status: 'answered' },
  { q: 'Ozempic prior auth Texas Medicaid', state: 'TX', program: 'medicaid_mco', subjects: ['diabetes_non_insulin'], status: 'answered' },
  { q: 'Does Texas CHIP require PA for Adderall?', state: 'TX', program: 'chip', subjects: ['adhd_stimulants'], status: 'answered' },
  { q: 'Vyvanse for a child on CHIP in Texas', state: 'TX', program: 'chip', subjects: ['adhd_stimulants'], status: 'answered' },
  { q: 'ritalin texas chip', state: 'TX', program: 'chip', subjects: ['adhd_stimulants'], status: 'answered' },
  { q: 'MRI of the brain (70553) under Medicare Advantage in Texas', state: 'TX', program: 'medicare_advantage', subjects: ['advanced_imaging'], status: 'answered' },
  { q: 'CPT 70553 Medicare Advantage Ohio', state: 'OH', program: 'medicare_advantage', subjects: ['advanced_imaging'], status: 'answered' },
  { q: 'Is a CT scan PA required for an MA plan in Ohio?', state: 'OH', program: 'medicare_advantage', subjects: ['advanced_imaging'], status: 'answered' },
  { q: 'Does original Medicare in Ohio need PA for a power wheelchair?', state: 'OH', program: 'medicare_traditional', subjects: ['durable_medical_equipment'], status: 'answered' },
  { q: 'HCPCS E0250 hospital bed, traditional Medicare, Ohio', state: 'OH', program: 'medicare_traditional', subjects: ['durable_medical_equipment'], status: 'answered' },
  { q: 'Does Medicare require PA for a CPAP in Ohio?', state: 'OH', program: 'medicare_traditional', subjects: ['durable_medical_equipment'], status: 'answered' },
  { q: 'Part D prior auth for Abilify in Texas', state: 'TX', program: 'part_d', subjects: ['mental_health_antipsychotics'], status: 'answered' },
  { q: 'antipsychotics on a prescription drug plan, TX', state: 'TX', program: 'part_d', subjects: ['mental_health_antipsychotics'], status: 'answered' },
  { q: 'Does Medi-Cal require PA for Humira?', state: 'CA', program: 'medicaid_mco', subjects: ['specialty_biologics'], status: 'answered' },
  { q: 'Humira under California Medicaid managed care', state: 'CA', program: 'medicaid_mco', subjects: ['specialty_biologics'], status: 'answered' },
  { q: 'Epclusa and Humira in Medi-Cal', state: 'CA', program: 'medicaid_mco', subjects: ['hepatitis_c', 'specialty_biologics'], status: 'answered' },
  { q: 'Hepatitis C treatment in Florida Medicaid managed care', state: 'FL', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'Does Sunshine Health require PA for Harvoni?', state: 'FL', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'Home health for a dual eligible member in New York', state: 'NY', program: 'dual_eligible', subjects: ['home_health'], status: 'answered' },
  { q: 'D-SNP home health care NY', state: 'NY', program: 'dual_eligible', subjects: ['home_health'], status: 'answered' },
  { q: 'Suboxone in Wyoming Medicaid', state: 'WY', program: 'medicaid_ffs', subjects: ['opioid_treatment'], status: 'answered' },
  { q: 'buprenorphine Wyoming fee-for-service Medicaid', state: 'WY', program: 'medicaid_ffs', subjects: ['opioid_treatment'], status: 'answered' },
  { q: 'Physical therapy visits under TennCare', state: 'TN', program: 'medicaid_mco', subjects: ['physical_therapy'], status: 'answered' },
  { q: 'Lantus in Apple Health', state: 'WA', program: 'medicaid_mco', subjects: ['diabetes_insulin'], status: 'answered' },
  { q: 'insulin washington medicaid managed care', state: 'WA', program: 'medicaid_mco', subjects: ['diabetes_insulin'], status: 'answered' },
  { q: 'Knee arthroscopy in Georgia Medicaid managed care', state: 'GA', program: 'medicaid_mco', subjects: ['outpatient_surgery'], status: 'answered' },
  { q: 'Outpatient surgery 29881 Peach State Health Plan', state: 'GA', program: 'medicaid_mco', subjects: ['outpatient_surgery'], status: 'answered' },
  { q: 'Arizona original Medicare WISeR surgery', state: 'AZ', program: 'medicare_traditional', subjects: ['outpatient_surgery'], status: 'answered' },
  // misspellings
  { q: 'Does Texas Medicaid need PA for Epclussa?', state: 'TX', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'Mavyrett texas mco', state: 'TX', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'humirra medi-cal', state: 'CA', program: 'medicaid_mco', subjects: ['specialty_biologics'], status: 'answered' },
  { q: 'adderal texas chip', state: 'TX', program: 'chip', subjects: ['adhd_stimulants'], status: 'answered' },
  // hints win over the text
  { q: 'Epclusa prior authorization', hints: { state: 'TX', program: 'medicaid_mco' }, state: 'TX', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'Epclusa in Florida', hints: { state: 'CA', program: 'medicaid_mco' }, state: 'CA', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'Does Medicare Advantage need PA for Epclusa in California?', hints: { program: 'mco' }, state: 'CA', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  // partial answers and gaps
  { q: 'Epclusa and Wegovy in Medi-Cal', state: 'CA', program: 'medicaid_mco', subjects: ['hepatitis_c', 'glp1_weight_loss'], status: 'partial' },
  { q: 'Does Florida Medicaid managed care need PA for Wegovy?', state: 'FL', program: 'medicaid_mco', subjects: ['glp1_weight_loss'], status: 'no_rule' },
  { q: 'Dental cleaning under Texas Medicare Advantage', state: 'TX', program: 'medicare_advantage', subjects: ['dental'], status: 'no_rule' },
  { q: 'hospice in Vermont fee-for-service Medicaid', state: 'VT', program: 'medicaid_ffs', subjects: ['hospice'], status: 'no_rule' },
  // clarifications
  { q: 'Does Epclusa need prior authorization?', state: null, program: null, subjects: ['hepatitis_c'], status: 'clarification_needed', missing: ['state', 'program'] },
  { q: 'Epclusa in Texas', state: 'TX', program: null, subjects: ['hepatitis_c'], status: 'clarification_needed', missing: ['program'] },
  { q: 'What needs prior auth in Texas Medicaid managed care?', state: 'TX', program: 'medicaid_mco', subjects: [], status: 'clarification_needed', missing: ['subject'] },
  { q: 'Hello there', state: null, program: null, subjects: [], status: 'clarification_needed', missing: ['state', 'program', 'subject'] },
  { q: 'Is PA needed?', state: null, program: null, subjects: [], status: 'clarification_needed', missing: ['state', 'program', 'subject'] },
  { q: 'Epclusa in Texas or California Medicaid managed care', state: null, program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'clarification_needed', missing: ['state'] },
  { q: 'Does Medicaid cover Epclusa?', state: null, program: null, subjects: ['hepatitis_c'], status: 'clarification_needed', missing: ['state', 'program'] },
  { q: 'Mavyret under Part D or Medicare Advantage in Texas', state: 'TX', program: null, subjects: ['hepatitis_c'], status: 'clarification_needed', missing: ['program'] },
  { q: 'asdfgh qwerty', state: null, program: null, subjects: [], status: 'clarification_needed', missing: ['state', 'program', 'subject'] },
  { q: 'Is there PA in PA for an MRI?', state: null, program: null, subjects: ['advanced_imaging'], status: 'clarification_needed', missing: ['state', 'program'] },
  { q: 'MRI in Pennsylvania Medicaid managed care', state: 'PA', program: 'medicaid_mco', subjects: ['advanced_imaging'], status: 'no_rule' },
  // state by code or by name, lower case
  { q: 'epclusa tx medicaid managed care', state: 'TX', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'Epclusa, managed Medicaid, state of Texas', state: 'TX', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'answered' },
  { q: 'In West Virginia Medicaid managed care, is PA needed for an MRI?', state: 'WV', program: 'medicaid_mco', subjects: ['advanced_imaging'], status: 'no_rule' },
  { q: 'Washington DC Medicaid MCO Epclusa', state: 'DC', program: 'medicaid_mco', subjects: ['hepatitis_c'], status: 'no_rule' },
  { q: 'Is Lantus on the Washington Medicaid managed care plan PA list?', state: 'WA', program: 'medicaid_mco', subjects: ['diabetes_insulin'], status: 'answered' },
];

describe('ask, drug crosswalk, topics, compliance, similar rules', function () {
before(async function () {
  this.timeout(120_000);
  t = await makeTestApp([...REFERENCE(), ...RULES]);
  key = await t.key();
});

describe('POST /v1/ask', function () {
  this.timeout(30_000);
  it(`reads ${CASES.length} varied questions: state, program, subjects and the answer`, async () => {
    expect(CASES.length).to.be.at.least(60);
    const failures: string[] = [];
    for (const c of CASES) {
      const res = await ask({ question: c.q, ...c.hints });
      expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), res, 'POST');
      const b = res.body;
      const got = { state: b.extracted?.state?.value ?? null, program: b.extracted?.program?.value ?? null, subjects: (b.extracted?.subjects ?? []).map((s: { code: string }) => s.code).sort(), status: b.status, missing: b.clarification?.missing };
      const want = { state: c.state, program: c.program, subjects: [...c.subjects].sort(), status: c.status, missing: c.missing };
      if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${c.q}\n   got  ${JSON.stringify(got)}\n   want ${JSON.stringify(want)}`);
      if (res.status === 200 && c.status === 'answered') {
        for (const a of b.answers) {
          const r = RULES.find((x) => x.id === a.result.rule_id)!;
          if (!r || a.citations[0].source_url !== r.source.url || a.citations[0].last_verified !== r.verification.lastVerified) failures.push(`${c.q}: citation does not match rule ${a.result.rule_id}`);
        }
      }
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('reads our own phrasings of each issue-28 pattern (program qualifiers, misspelt states, class phrases) over HTTP', async () => {
    const failures: string[] = [];
    for (const [pattern, table] of Object.entries(PHRASINGS)) {
      for (const p of table) {
        const res = await ask({ question: p.q });
        expect(res.status, p.q).to.equal(200);
        expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), res, 'POST');
        const x = res.body.extracted;
        const got = { state: x.state?.value ?? null, program: x.program?.value ?? null, subjects: x.subjects.map((s: { code: string }) => s.code).sort() };
        const want = { state: p.state, program: p.program, subjects: [...p.subjects].sort() };
        if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${pattern}: ${p.q}\n   got  ${JSON.stringify(got)}\n   want ${JSON.stringify(want)}`);
      }
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
    const ffs = await ask({ question: 'SoonerCare fee-for-service prior authorization for a brain MRI' });
    expect(ffs.body.extracted.program).to.deep.equal({ value: 'medicaid_ffs', matched: 'SoonerCare fee-for-service', by: 'program_name' });
    expect(ffs.body.extracted.assumptions).to.deep.equal([]); // read, not assumed
    // "Medicaid" read as managed care with no rule there: the fee-for-service rule is pointed at, within the caller's scope only.
    const other = await ask({ question: 'Suboxone in Florida Medicaid' });
    expect(other.body.status).to.equal('no_rule');
    expect(other.body.gaps[0].other_program_rule).to.deep.equal({ program: 'medicaid_ffs', label: 'Medicaid fee-for-service', lookup: '/v1/pauth-lookup?state=FL&program=medicaid_ffs&drug=opioid_treatment' });
    const mcoOnly = await t.key({ name: 'mco-only', programs: ['medicaid_mco'] });
    const scoped = await ask({ question: 'Suboxone in Florida Medicaid' }, mcoOnly);
    expect(scoped.body.gaps[0]).to.not.have.property('other_program_rule');
    const said = await ask({ question: 'Suboxone in Florida Medicaid managed care' });
    expect(said.body.gaps[0], 'the program was said, not assumed').to.not.have.property('other_program_rule');
    // A member the question puts outside the rule's population: a gap saying why, not the rule (seventh test pass, #4).
    const noDrugs = await ask({ question: 'Medicare Advantage plan without drug coverage in Florida, does Harvoni need PA?' });
    expect(noDrugs.body.status).to.equal('no_rule');
    expect(noDrugs.body.answers).to.deep.equal([]);
    expect(noDrugs.body.gaps[0]).to.deep.include({ scope_gap: false });
    expect(noDrugs.body.gaps[0].outside_population).to.deep.include({ rule_id: 'fl.medicare-advantage.d.hepatitis-c', applies_to: 'enrollees of a Medicare Advantage plan with prescription drug coverage (an MA-PD plan)' });
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), noDrugs, 'POST');
    const withDrugs = await ask({ question: 'Medicare Advantage plan in Florida, does Harvoni need PA?' });
    expect(withDrugs.body.status).to.equal('answered');
    expect(withDrugs.body.answers[0].result.applies_to).to.contain('MA-PD');
    const misspelt = await ask({ question: 'Tennesee Medicaid managed care and Humira' });
    expect(misspelt.body.extracted.state).to.deep.equal({ value: 'TN', matched: 'Tennesee', by: 'fuzzy_name' });
  });

  it('answers with the rule, its citation and next steps, and keyword passages from the full-text index', async () => {
    const res = await ask({ question: 'Does Texas Medicaid require prior auth for Epclusa?' });
    expect(res.status).to.equal(200);
    const a = res.body.answers[0];
    expect(a.result.rule_id).to.equal('tx.medicaid-mco.d.hepatitis-c');
    expect(a.result.pa_required).to.equal(true);
    expect(a.citations[0]).to.include({ source_url: 'https://medicaid.tx.example.gov/pa/hepatitis_c', last_verified: '2026-11-01' });
    expect(a.next_steps.map((s: { title: string }) => s.title)[0]).to.match(/documentation/i);
    expect(res.body.grounding).to.equal('keyword');
    expect(res.body.passages.length).to.be.greaterThan(0);
    expect(res.body.passages.every((p: { state: string; program: string }) => p.state === 'TX' && p.program === 'medicaid_mco')).to.equal(true);
    expect(res.body.extracted.assumptions[0]).to.match(/Medicaid managed care/);
  });

  it('gaps point at notify-when-ready; clarifications list the choices', async () => {
    const gap = await ask({ question: 'Does Florida Medicaid managed care need PA for Wegovy?' });
    expect(gap.body.gaps[0]).to.include({ state: 'FL', program: 'medicaid_mco', scope_gap: true, notify_url: '/v1/notify-when-ready' });
    const outside = await ask({ question: 'Does Part D need prior authorization for an MRI in Texas?', state: 'TX', program: 'part_d' });
    expectOpenApi(t.app.routes, outside, 'POST');
    expect(outside.body.gaps[0]).to.include({ state: 'TX', program: 'part_d', scope_gap: true });
    expect(outside.body.gaps[0].notify_url).to.equal(undefined);
    expect(outside.body.gaps[0].outside_program.try_programs).to.deep.equal(['medicare_traditional', 'medicare_advantage']);
    const clar = await ask({ question: 'Epclusa in Texas or California Medicaid managed care' });
    expect(clar.body.clarification.choices.state).to.have.members(['TX', 'CA']);
    const subj = await ask({ question: 'What needs prior auth in Texas Medicaid managed care?' });
    expect(subj.body.clarification.choices.subject.map((s: { code: string }) => s.code)).to.include.members(['hepatitis_c', 'advanced_imaging']);
    expect(subj.body.clarification.choices.subject.map((s: { code: string }) => s.code)).to.not.include('dental');
  });

  it('400 for a missing, empty or non-string question or a bad hint; 400 over 1000 characters (a field over its maxLength; 413 is for the body); 401 without a key', async () => {
    for (const body of [{}, { question: '' }, { question: '   ' }, { question: 42 }, { question: 'x', state: 'Texas' }, { question: 'x', state: 'tx' }, { question: 'x', program: 'gold' }, { question: 'x', state: 5 }]) {
      const res = await ask(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.code).to.be.oneOf(['missing_parameter', 'invalid_parameter', 'invalid_body']);
    }
    const arr = await request(t.app.handler).post('/v1/ask').set('x-api-key', key).set('content-type', 'application/json').send('[1]');
    expect(arr.status).to.equal(400);
    const long = await ask({ question: 'a'.repeat(1001) });
    expect(long.status).to.equal(413);
    expect(long.body).to.include({ code: 'payload_too_large', parameter: 'question', max_length: 1000 });
    expect(long.body.error).to.match(/1001 characters; at most 1000/);
    const atMax = await ask({ question: `Epclusa in Texas Medicaid ${'x'.repeat(974)}` });
    expect(atMax.status).to.equal(200);
    const anon = await request(t.app.handler).post('/v1/ask').send({ question: 'Epclusa in Texas Medicaid' });
    expect(anon.status).to.equal(401);
  });

  it('a key scoped to TX gets 403 for a California question and never sees other states in choices or passages', async () => {
    const tx = await t.key({ states: ['TX'], programs: ['medicaid_mco'] });
    const ca = await ask({ question: 'Does Medi-Cal require PA for Humira?' }, tx);
    expect(ca.status).to.equal(403);
    expect(JSON.stringify(ca.body)).to.not.match(/specialty_biologics|ca\.medicaid/);
    const vague = await ask({ question: 'Does Epclusa need prior authorization?' }, tx);
    expect(vague.status).to.equal(200);
    expect(vague.body.clarification.choices.state).to.deep.equal(['TX']);
    expect(vague.body.clarification.choices.program.map((p: { program: string }) => p.program)).to.deep.equal(['medicaid_mco']);
    expect(vague.body.passages.every((p: { state: string }) => p.state === 'TX')).to.equal(true);
  });
});

describe('GET /v1/drug-crosswalk', () => {
  const get = (qs: string) => request(t.app.handler).get(`/v1/drug-crosswalk?${qs}`);
  it('expands a class, resolves brands and generics insensitive to case, spaces and punctuation (flat and grouped)', async () => {
    const cls = await get('class=hepatitis_c');
    expect(cls.status).to.equal(200);
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), cls);
    expect(cls.body.rows.map((r: { generic: string }) => r.generic)).to.include('sofosbuvir/velpatasvir');
    expect(cls.body.rows.every((r: { drug_class: string }) => r.drug_class === 'hepatitis_c')).to.equal(true);
    const brand = await get('brand=ADDERALL%20xr');
    expect(brand.body.rows).to.have.length(1);
    expect(brand.body.rows[0]).to.include({ drug_class: 'adhd_stimulants', matched_on: 'Adderall XR' });
    const nurtec = await get('brand=nurtecodt');
    expect(nurtec.status, JSON.stringify(nurtec.body)).to.equal(200);
    expect(nurtec.body.rows[0].generic).to.equal('rimegepant');
    const generic = await get('generic=Semaglutide&format=grouped');
    expect(generic.body.groups.map((g: { drug_class: string }) => g.drug_class).sort()).to.deep.equal(['diabetes_non_insulin', 'glp1_weight_loss']);
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), generic);
    const part = await get('generic=Amphetamine');
    expect(part.body.rows[0].generic).to.match(/amphetamine\/dextroamphetamine/);
  });
  it('400 unless exactly one of class, brand, generic, and for a bad format; 404 with suggestions', async () => {
    for (const qs of ['', 'class=hepatitis_c&brand=Epclusa', 'format=flat', 'brand=Epclusa&format=table', 'brand=a&brand=b']) {
      const res = await get(qs);
      expect(res.status, qs).to.equal(400);
    }
    const miss = await get('brand=Epclusaa');
    expect(miss.status).to.equal(404);
    expect(miss.body.suggestions).to.include('Epclusa');
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), miss);
    // An unknown class is an invalid drug_class_code: 400 (spec endpoint 10), still with close codes (qa6 #12).
    const badClass = await get('class=hepatitis_cc');
    expect(badClass.status).to.equal(400);
    expect(badClass.body).to.include({ code: 'invalid_parameter', parameter: 'class' });
    expect(badClass.body.suggestions).to.include('hepatitis_c');
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), badClass);
  });
});

describe('GET /v1/topics and /v1/topics/{slug}', () => {
  it('lists approved topics only, with counts', async () => {
    const res = await request(t.app.handler).get('/v1/topics').set('x-api-key', key);
    expect(res.status).to.equal(200);
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), res);
    const slugs = res.body.topics.map((x: { slug: string }) => x.slug);
    expect(slugs).to.include('wiser-model');
    expect(slugs).to.not.include('biosimilar-substitution'); // a draft
    const hep = res.body.topics.find((x: { slug: string }) => x.slug === 'hepatitis-c');
    expect(hep.match_count).to.be.at.least(3); // the TX, CA and FL hepatitis C rules
    expect(hep.jurisdiction_count).to.be.at.least(3);
  });
  it('detail: every jurisdiction with a status hint, up to 50 sample events newest first, matched_on reasons', async () => {
    const res = await request(t.app.handler).get('/v1/topics/wiser-model').set('x-api-key', key);
    expect(res.status).to.equal(200);
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), res);
    expect(Object.keys(res.body.by_jurisdiction)).to.have.length(51);
    expect(res.body.by_jurisdiction.NJ.status_hint).to.be.oneOf(['expanding', 'rule_change']);
    expect(res.body.by_jurisdiction.NJ.count).to.be.greaterThan(0);
    expect(res.body.states_with_data).to.include('NJ');
    expect(res.body.sample_events.length).to.be.at.most(50);
    const dates = res.body.sample_events.map((e: { issued_at: string }) => e.issued_at);
    expect(dates).to.deep.equal([...dates].sort().reverse());
    expect(res.body.sample_events[0].matched_on.length).to.be.greaterThan(0);
    // Only the WISeR states (Original Medicare) carry the topic: a Medicaid outpatient-surgery rule in GA and the
    // federal DMEPOS and OPD list events are not WISeR.
    expect(res.body.states_with_data).to.deep.equal(['AZ', 'NJ', 'OH', 'OK', 'TX', 'WA']);
    expect(res.body.by_jurisdiction.GA).to.deep.equal({ count: 0, latest_event_at: null, latest_effective_at: null, latest_compliance_at: null, latest_event_kind: null, status_hint: 'no_data' });
    expect(res.body.by_jurisdiction.AZ).to.deep.include({ count: 2, latest_event_kind: 'model_start', status_hint: 'expanding' }); // its start event and its Original Medicare rule
    expect(Object.values(res.body.by_jurisdiction).filter((j) => (j as { status_hint: string }).status_hint !== 'no_data')).to.have.length(6);
    expect(res.body.sample_events.map((e: { jurisdiction: string; matched_on: string[] }) => [e.jurisdiction, e.matched_on[0]])).to.deep.equal([
      ['WA', 'tagged:wiser-model'], ['AZ', 'tagged:wiser-model'], ['TX', 'tagged:wiser-model'], ['OK', 'tagged:wiser-model'],
      ['OH', 'tagged:wiser-model'], ['NJ', 'tagged:wiser-model'], ['US', 'tagged:wiser-model'],
    ]);
    expect(res.body.total_matches).to.equal(7 + 2); // the seven WISeR events, the AZ and OH Original Medicare rules
    const dmepos = await request(t.app.handler).get('/v1/topics/dmepos-required-pa').set('x-api-key', key);
    expect(dmepos.body.sample_events.map((e: { event_title: string }) => e.event_title)).to.satisfy((ts: string[]) => ts.some((x) => x.startsWith('CMS-6097-N')));
    const cms = await request(t.app.handler).get('/v1/topics/cms-0057-f').set('x-api-key', key);
    expect(cms.body.sample_events.length).to.equal(50);
    expect(cms.body.total_matches).to.be.greaterThan(50);
  });
  it('a model that started or expanded years ago is active, not expanding: only an event of the last two years sets the direction', async () => {
    const res = await request(t.app.handler).get('/v1/topics/rsnat-ambulance').set('x-api-key', key);
    expect(res.status).to.equal(200);
    const old = Object.entries(res.body.by_jurisdiction as Record<string, { latest_effective_at: string | null; latest_event_at: string | null; status_hint: string; count: number }>)
      .filter(([, j]) => j.count > 0 && (j.latest_effective_at ?? j.latest_event_at ?? '9999') < '2024-11-26');
    expect(old.length).to.be.greaterThan(0);
    for (const [state, j] of old) expect(j.status_hint, state).to.equal('active');
  });
  it('400 for a bad slug, 404 for unknown or draft topics, 401 without a key; a TX key sees only TX', async () => {
    expect((await request(t.app.handler).get('/v1/topics/Bad_Slug').set('x-api-key', key)).status).to.equal(400);
    expect((await request(t.app.handler).get('/v1/topics/no-such-topic').set('x-api-key', key)).status).to.equal(404);
    expect((await request(t.app.handler).get('/v1/topics/biosimilar-substitution').set('x-api-key', key)).status).to.equal(404);
    expect((await request(t.app.handler).get('/v1/topics')).status).to.equal(401);
    const tx = await t.key({ states: ['TX'] });
    const res = await request(t.app.handler).get('/v1/topics/wiser-model').set('x-api-key', tx);
    expect(Object.keys(res.body.by_jurisdiction)).to.deep.equal(['TX']);
    expect(res.body.sample_events.every((e: { jurisdiction: string }) => e.jurisdiction === 'TX' || e.jurisdiction === 'US')).to.equal(true);
  });
});

describe('GET /api/v1/compliance/{rule_id}', () => {
  it('a grid of all 51 jurisdictions with summary counts that add up', async () => {
    const res = await request(t.app.handler).get('/api/v1/compliance/CMS-0057-F');
    expect(res.status).to.equal(200);
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), res);
    expect(Object.keys(res.body.jurisdictions)).to.have.length(51);
    const { total, ...counts } = res.body.summary;
    expect(total).to.equal(51);
    expect(Object.values(counts).reduce((a: number, b) => a + (b as number), 0)).to.equal(51);
    const statuses = Object.values(res.body.jurisdictions).map((j) => (j as { status: string }).status);
    for (const [s, n] of Object.entries(counts)) expect(statuses.filter((x) => x === s).length, s).to.equal(n);
    expect(res.body.title).to.match(/CMS-0057-F/);
    expect(res.body.federal_events.length).to.be.greaterThan(0);
  });
  it('400 for a bad id format, 404 when no event names the rule', async () => {
    expect((await request(t.app.handler).get('/api/v1/compliance/cms-0057-f')).status).to.equal(400);
    expect((await request(t.app.handler).get('/api/v1/compliance/X')).status).to.equal(400);
    const none = await request(t.app.handler).get('/api/v1/compliance/CMS-9999-F');
    expect(none.status).to.equal(404);
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), none);
  });
});

describe('GET /v1/rules/similar', () => {
  const get = (qs: string, k = key) => request(t.app.handler).get(`/v1/rules/similar?${qs}`).set('x-api-key', k);
  it('ranks the same subject in other states first, with reasons and scores in [0,1]', async () => {
    const res = await get('rule_id=tx.medicaid-mco.d.hepatitis-c');
    expect(res.status).to.equal(200);
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), res);
    const ids = res.body.results.map((r: { rule_id: string }) => r.rule_id);
    // A population-limited rule says whom it speaks for here too (seventh test pass).
    expect(res.body.results.find((r: { rule_id: string }) => r.rule_id === 'fl.medicare-advantage.d.hepatitis-c').applies_to).to.contain('MA-PD');
    expect(ids).to.have.members(['ca.medicaid-mco.d.hepatitis-c', 'fl.medicaid-mco.d.hepatitis-c', 'fl.medicare-advantage.d.hepatitis-c']);
    expect(res.body.results[0].reasons).to.include('same drug class (hepatitis_c)');
    expect(res.body.results[0].reasons).to.include('same program (medicaid_mco)');
    const scores = res.body.results.map((r: { score: number }) => r.score);
    expect(scores).to.deep.equal([...scores].sort((a: number, b: number) => b - a));
    const state = await get('rule_id=tx.medicaid-mco.d.hepatitis-c&scope=same_state&limit=3');
    expect(state.body.results).to.have.length(3);
    expect(state.body.results.every((r: { state: string }) => r.state === 'TX')).to.equal(true);
    expect(state.body.results[0].program).to.equal('medicaid_mco');
    const text = await get('q=imaging');
    expect(text.body.results.length).to.be.greaterThan(0);
    expect(text.body.results[0].subject.code).to.equal('advanced_imaging');
  });
  it('400 for not exactly one of rule_id, drug_rule_id, q, a bad scope or limit, a service rule as drug_rule_id; 404 for an unknown id; 403 for an id outside the key', async () => {
    for (const qs of ['', 'rule_id=a&q=b', 'q=x&scope=world', 'q=x&limit=0', 'q=x&limit=51', 'q=x&limit=2.5', 'drug_rule_id=tx.medicaid-mco.s.advanced-imaging']) {
      expect((await get(qs)).status, qs).to.equal(400);
    }
    const unknown = await get('rule_id=zz.nothing');
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.include({ code: 'not_found', error: "No rule 'zz.nothing'" });
    // Issue 28: another state's rule is the 403 pauth-lookup gives for that state, whether or not the rule exists.
    const tx = await t.key({ states: ['TX'] });
    for (const id of ['ca.medicaid-mco.d.hepatitis-c', 'ca.medicaid-mco.d.dental']) {
      const outside = await get(`rule_id=${id}`, tx);
      expect(outside.status, id).to.equal(403);
      expect(outside.body).to.deep.include({ code: 'forbidden', error: "State CA not in this key's subscription", out_of_scope: { states: ['CA'] } });
      expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), outside);
    }
    const lookup = await request(t.app.handler).get('/v1/pauth-lookup?state=CA&program=medicaid_mco&drug=hepatitis_c').set('x-api-key', tx);
    expect(lookup.status).to.equal(403);
    expect(lookup.body.error).to.equal("State CA not in this key's subscription");
    // A program outside the key: the 403 names the program.
    const txChip = await t.key({ states: ['TX'], programs: ['chip'] });
    const program = await get('drug_rule_id=tx.medicaid-mco.d.hepatitis-c', txChip);
    expect(program.status).to.equal(403);
    expect(program.body.out_of_scope).to.deep.equal({ programs: ['medicaid_mco'] });
    const mine = await get('rule_id=tx.medicaid-mco.d.hepatitis-c', tx);
    expect(mine.status).to.equal(200);
    expect(mine.body.results.every((r: { state: string }) => r.state === 'TX')).to.equal(true);
    expect((await request(t.app.handler).get('/v1/rules/similar?q=x')).status).to.equal(401);
  });

});
});
