// The CRD projection reads whatever a hook request holds without throwing (the pipeline's structural check
// answers 400 for malformed bodies first; this is the second line: a value of the wrong shape is skipped).
import { expect } from 'chai';
import fc from 'fast-check';
import { runCoverageRequirements, configurationOf } from '../../src/fhir/crd/crd.js';
import { gatherHookData } from '../../src/fhir/crd/hook-data.js';
import { CRD_HOOKS, type CdsHookRequest } from '../../src/fhir/crd/types.js';
import { buildReadModel } from '../../src/corpus/read-model.js';
import type { CanonicalDoc, CodeMappingDoc, CoverageRuleDoc, DrugCrosswalkDoc, PayerDoc } from '../../src/domain/documents.js';
import { HOOK_FIXTURES } from '../support/crd-requests.js';
import { fhirCorpus } from '../support/fhir-corpus.js';

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
