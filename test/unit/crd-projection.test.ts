// The CRD projection reads whatever a hook request holds without throwing (the pipeline's structural check
// answers 400 for malformed bodies first; this is the second line: a value of the wrong shape is skipped).
import { expect } from 'chai';
import fc from 'fast-check';
import { runCoverageRequirements, configurationOf } from '../../src/fhir/crd/crd.js';
import { ruleVerdict, undetermined } from '../../src/fhir/crd/verdict.js';
import { toCoverageInformation } from '../../src/fhir/crd/coverage-info.js';
import { gatherHookData } from '../../src/fhir/crd/hook-data.js';
import { CRD_HOOKS, type CdsHookRequest } from '../../src/fhir/crd/types.js';
import { buildReadModel } from '../../src/corpus/read-model.js';
import type { CanonicalDoc, CodeMappingDoc, CoverageRuleDoc, DrugCrosswalkDoc, PayerDoc } from '../../src/domain/documents.js';
import { HOOK_FIXTURES, orderSignMedicareE0250 } from '../support/crd-requests.js';
import { fhirCorpus } from '../support/fhir-corpus.js';
import { sampleCorpusDocuments } from '../support/sample-corpus.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const docs = fhirCorpus().map((d) => ({ ...d, meta: { versionId: '1', lastUpdated: '2026-11-01T00:00:00Z' } })) as CanonicalDoc[];
const of = <T extends CanonicalDoc>(t: T['resourceType']) => docs.filter((d): d is T => d.resourceType === t);
const model = buildReadModel({ rules: of<CoverageRuleDoc>('CoverageRule'), jurisdictions: of('Jurisdiction'), payers: of<PayerDoc>('Payer'), drugs: of<DrugCrosswalkDoc>('DrugCrosswalkEntry'), codeMappings: of<CodeMappingDoc>('CodeMapping'), events: [], topics: [] }, 1);

/** Every path (as key lists) to a value inside an object, up to a depth. */
function paths(node: unknown, depth = 9, at: (string | number)[] = []): (string | number)[][] {
  if (depth === 0 || !node || typeof node !== 'object') return [at];
  const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
  return [at, ...keys.flatMap((k) => paths((node as Any)[k], depth - 1, [...at, k]))];
}

function replaceAt(root: Any, path: (string | number)[], value: unknown): Any {
  if (!path.length) return root;
  let node = root;
  for (const k of path.slice(0, -1)) node = node[k];
  node[path[path.length - 1]!] = value;
  return root;
}

describe('unit: the CRD projection never throws on odd data', () => {
  it('when any value inside a realistic hook request (per hook) is replaced by arbitrary JSON, then gather + projection still answer', async function () {
    this.timeout(60_000);
    for (const [, build] of HOOK_FIXTURES) {
      const all = paths(build()).filter((p) => p.length > 0 && p[0] !== 'hook' && p[0] !== 'hookInstance');
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: all.length - 1 }), fc.jsonValue({ maxDepth: 3 }), async (i, value) => {
          const req = replaceAt(build(), all[i]!, value) as CdsHookRequest;
          if (!req.context || typeof req.context !== 'object') return; // the route's structural check answers 400 first
          const hook = CRD_HOOKS.includes(req.hook as never) ? (req.hook as (typeof CRD_HOOKS)[number]) : 'order-sign';
          const data = await gatherHookData(hook, req, undefined);
          const out = runCoverageRequirements(model, req, data, { base: 'https://x', now: new Date('2026-11-25T00:00:00Z'), hints: {} });
          expect(out.response.cards).to.be.an('array');
          JSON.stringify(out.response);
        }),
        { numRuns: 150, seed: 9 },
      );
    }
  });

  it('when the hook configuration holds values of the wrong type, then the defaults stand', () => {
    const req = { hook: 'order-sign', hookInstance: 'x', context: {}, extension: { 'davinci-crd.configuration': { 'coverage-info': 'no', limits: 0, 'max-cards': -1 } } } as unknown as CdsHookRequest;
    expect(configurationOf(req)).to.deep.equal({ coverageInfo: true, limits: true, maxCards: 10 });
    expect(configurationOf({ ...req, extension: { 'davinci-crd.configuration': { coverage: false, limits: false, 'max-cards': 2 } } })).to.deep.equal({ coverageInfo: false, limits: false, maxCards: 2 });
    expect(configurationOf({ ...req, extension: { 'davinci-crd.configuration': [1] } })).to.deep.equal({ coverageInfo: true, limits: true, maxCards: 10 });
  });
});

describe('unit: what a rule says is made once and shared by answers, which cannot change it', () => {
  const sample = buildReadModel(sampleCorpusDocuments(), 1); // holds the NY Original Medicare DMEPOS rule E0250 resolves to
  const answer = async (hookInstance: string, coverageId: string): Promise<Any> => {
    const text = JSON.stringify(orderSignMedicareE0250()).replaceAll('cov-ny-medicare', coverageId);
    const req = { ...JSON.parse(text), hookInstance } as CdsHookRequest;
    const data = await gatherHookData('order-sign', req, undefined);
    return runCoverageRequirements(sample, req, data, { base: 'https://x', now: new Date('2026-11-25T00:00:00Z'), hints: {} }).response as Any;
  };
  const info = (res: Any): Any[] => res.systemActions[0].resource.extension.at(-1).extension;

  it('when two calls answer the same rule for different coverages, then each answer has its own coverage and ids, the rule\'s parts are the same frozen objects, and changing one answer changes neither the other nor the next', async () => {
    const a = await answer('11111111-1111-4111-8111-111111111111', 'cov-a');
    const b = await answer('22222222-2222-4222-8222-222222222222', 'cov-b');
    expect(info(a).find((e) => e.url === 'coverage')!.valueReference.reference).to.match(/Coverage\/cov-a$/);
    expect(info(b).find((e) => e.url === 'coverage')!.valueReference.reference).to.match(/Coverage\/cov-b$/);
    expect(a.cards[0].uuid).to.not.equal(b.cards[0].uuid);
    const details = (res: Any) => info(res).filter((e) => e.url === 'detail' || e.url === 'reason');
    expect(details(a)).to.have.length.greaterThan(0);
    details(a).forEach((d, i) => {
      expect(d).to.equal(details(b)[i]); // the same object: made once per rule
      expect(Object.isFrozen(d)).to.equal(true);
    });
    const before = JSON.stringify(b);
    try {
      details(a)[0].url = 'changed'; // a TypeError in strict code, ignored in sloppy code (as Stryker's runner loads it)
    } catch {
      // frozen
    }
    expect(details(a)[0].url).to.not.equal('changed');
    info(a).push({ url: 'date', valueDate: '1999-01-01' }); // an answer's own lists are its own
    a.cards[0].detail = 'changed';
    expect(JSON.stringify(b)).to.equal(before);
    const c = await answer('11111111-1111-4111-8111-111111111111', 'cov-a');
    expect(c.cards[0].detail).to.not.equal('changed');
    expect(info(c).filter((e) => e.url === 'date')).to.have.length(1);
  });

  it('when a conditional rule\'s criteria are long, then the reason written into the order is the first sentence (cut near 240 characters) and points at the criteria detail, which keeps the whole text', () => {
    const base = of<CoverageRuleDoc>('CoverageRule').find((r) => r.requirement.paRequired)!;
    const long = `${'The plan may require prior authorization for this service under its own utilization management policies '.repeat(3).trim()}. Second sentence that stays in the detail only.`;
    const rule: CoverageRuleDoc = { ...base, id: 'long-criteria', requirement: { ...base.requirement, paType: 'conditional', criteria: long, documentation: [] } };
    const v = ruleVerdict(rule, {}, { coverage: { reference: 'Coverage/1' }, date: '2026-11-26' }, 'q|1');
    const text = v.reason!.map((r) => r.text ?? '').join(' ');
    expect(text.length).to.be.below(320);
    expect(text).to.match(/^Prior authorization depends on the criteria: The plan may require .*… \(full criteria: the 'criteria' detail\)$/);
    expect(v.details!.find((d) => d.code.code === 'criteria')!.value).to.deep.equal({ string: long });
    const short: CoverageRuleDoc = { ...rule, requirement: { ...rule.requirement, criteria: 'Non-preferred agents need PA.' } };
    expect(ruleVerdict(short, {}, { coverage: { reference: 'Coverage/1' }, date: '2026-11-26' }, 'q|1').reason![0]!.text).to.equal('Prior authorization depends on the criteria: Non-preferred agents need PA.');
  });

  it('when another program decides the rule (a dual\'s drugs handed over to Part D), then the documentation is credited to that program\'s rule, not to the hand-over page\'s publisher', () => {
    const base = of<CoverageRuleDoc>('CoverageRule').find((r) => r.requirement.paRequired && r.requirement.documentation.length)!;
    const own = ruleVerdict({ ...base, id: 'own' }, {}, { coverage: { reference: 'Coverage/1' }, date: '2026-11-26' }, 'q|1');
    expect(own.reason!.map((r) => r.text).join(' ')).to.contain(`Send the documentation ${base.source.publisher} lists`);
    const handed: CoverageRuleDoc = { ...base, id: 'handed', program: 'dual_eligible', decidedBy: 'part_d', source: { ...base.source, publisher: 'Texas Health and Human Services Commission' } };
    const text = ruleVerdict(handed, {}, { coverage: { reference: 'Coverage/1' }, date: '2026-11-26' }, 'q|1').reason!.map((r) => r.text).join(' ');
    expect(text).to.contain('Send the documentation the Medicare Part D rule lists');
    expect(text).to.not.contain('Texas Health and Human Services Commission lists');
  });

  it('when coverage could not be determined, then its reason is the answer\'s own (made per answer, not frozen, not shared)', () => {
    const reasonOf = (why: string) => toCoverageInformation(undetermined(why, 'Coverage/c', 'seed', '2026-11-25')).extension!.find((e) => e.url === 'reason')!;
    const a = reasonOf('no rule');
    const b = reasonOf('no rule');
    expect(a).to.not.equal(b);
    expect(Object.isFrozen(a)).to.equal(false);
    a.valueCodeableConcept!.text = 'changed';
    expect(b.valueCodeableConcept!.text).to.equal('Coverage could not be determined: no rule');
  });
});
