// PAS item decisions, driven directly (no Express, no store): which documentation counts as attached (DTR answers,
// DocumentReference labels), the certification period, and each outcome's action and notes. The workflow tests
// check the review codes over HTTP; the mutation run (issue 26) showed the details under them unpinned.
import { expect } from 'chai';
import { PAS_EXT } from '../../fhir-profiles/canonicals.js';
import { buildReadModel } from '../../src/corpus/read-model.js';
import type { CanonicalDoc, CodeMappingDoc, CoverageRuleDoc, DrugCrosswalkDoc, PayerDoc } from '../../src/domain/documents.js';
import { citationLine } from '../../src/domain/evidence.js';
import { attachedDocumentation, decideItem, DEFAULT_CERTIFICATION_DAYS } from '../../src/fhir/pas/decide-item.js';
import { parsePasRequest, type PasRequest } from '../../src/fhir/pas/request.js';
import { X12_1365 } from '../support/fhir-corpus.js';
import { dtrResponse, pasCorpus, pasRequest } from '../support/pas-requests.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const docs = pasCorpus().map((d) => ({ ...d, meta: { versionId: '1', lastUpdated: '2026-11-01T00:00:00Z' } })) as CanonicalDoc[];
const of = <T extends CanonicalDoc>(t: T['resourceType']) => docs.filter((d): d is T => d.resourceType === t);
const model = buildReadModel({ rules: of<CoverageRuleDoc>('CoverageRule'), jurisdictions: of('Jurisdiction'), payers: of<PayerDoc>('Payer'), drugs: of<DrugCrosswalkDoc>('DrugCrosswalkEntry'), codeMappings: of<CodeMappingDoc>('CodeMapping'), events: [], topics: [] }, 1);
const CC = { state: 'MA', program: 'medicaid_mco' } as const;
const NOW = new Date('2026-07-10T15:00:00Z');
const HOME_HEALTH = '42'; // X12 1365: home health care; PA required with a documentation list
const NO_PA = '3'; // PA not required
const EXCLUDED = '45';

const parsed = (b: Json): PasRequest => {
  const r = parsePasRequest(b);
  if ('issues' in r || !('claim' in r)) throw new Error(`not a PAS request: ${JSON.stringify(r).slice(0, 300)}`);
  return r as PasRequest;
};
const homeHealth = (): CoverageRuleDoc => docs.find((d): d is CoverageRuleDoc => d.resourceType === 'CoverageRule' && d.jurisdiction === 'MA' && d.program === 'medicaid_mco' && d.subject.code === 'home_health')!;
const docRef = (id: string, over: Json): Json => ({ resourceType: 'DocumentReference', id, status: 'current', content: [{ attachment: { contentType: 'text/plain' } }], ...over });
const decide = (b: Json, i = 0) => {
  const req = parsed(b);
  return decideItem(model, req, req.claim.item![i]!, CC, NOW);
};

describe('PAS item decisions', () => {
  const rule = homeHealth();
  const list = rule.requirement.documentation;
  const path = `MA/medicaid_mco/${rule.subject.code}`;

  it('the rule under test lists at least two documents (the cases below need it)', () => {
    expect(list.length).to.be.at.least(2);
  });

  it('when PA is not required, then A1 with the rule, its turnaround and a note citing it, and no certification period', () => {
    const d = decide(pasRequest('a', [{ code: NO_PA }]));
    expect(d.action).to.equal('A1');
    expect(d.certification).to.equal(undefined);
    expect(d.notes).to.have.length(1);
    expect(d.notes[0]).to.match(/^Prior authorization is not required \(rule [^;]+; .+\)\. Certified: no review was needed\.$/);
    const r = of<CoverageRuleDoc>('CoverageRule').find((x) => x.id === d.ruleId)!;
    expect(d).to.deep.include({ sequence: 1, subjectKind: r.subject.kind, turnaround: { standardHours: r.turnaround.standardHours, expeditedHours: r.turnaround.expeditedHours } });
    expect(d.notes[0]).to.contain(citationLine(r));
  });

  it('when the rule excludes the service, then A3 with the exclusion, its citation and the rule', () => {
    const d = decide(pasRequest('x', [{ code: EXCLUDED }]));
    expect(d.action).to.equal('A3');
    expect(d.notes).to.deep.equal([`Not certified: Test exclusion: not a covered benefit of this program (Test citation; rule ${d.ruleId}).`]);
  });

  it('when nothing is attached, then A4 naming every document and the criteria', () => {
    const d = decide(pasRequest('p', [{ code: HOME_HEALTH }]));
    expect(d.action).to.equal('A4');
    expect(d.missing).to.deep.equal(list);
    expect(d.notes[0]).to.equal(`Pended for review under rule ${rule.id} (${citationLine(rule)}). Documentation needed: ${list.join('; ')}.`);
    expect(d.notes.slice(1)).to.deep.equal(rule.requirement.criteria ? [`Criteria: ${rule.requirement.criteria}`] : []);
    expect(d.certification).to.equal(undefined);
  });

  it('when a DTR response answers some documents true, then A4 says what was received and what is still missing', () => {
    const d = decide(pasRequest('q', [{ code: HOME_HEALTH }], { supporting: [dtrResponse('qr', path, [1])] }));
    expect(d.action).to.equal('A4');
    expect(d.missing).to.deep.equal(list.slice(1));
    expect(d.notes[0]).to.equal(`Pended for review under rule ${rule.id} (${citationLine(rule)}). Documentation needed: ${list.join('; ')}. Received: ${list[0]}. Still missing: ${list.slice(1).join('; ')}.`);
  });

  it('when a DTR response answers every document true, then A1 certified for the requested period', () => {
    const all = list.map((_, i) => i + 1);
    const d = decide(pasRequest('c', [{ code: HOME_HEALTH, servicedPeriod: { start: '2026-12-01T08:00:00Z', end: '2027-02-28T17:00:00Z' } }], { supporting: [dtrResponse('qr', path, all)] }));
    expect(d.action).to.equal('A1');
    expect(d.certification).to.deep.equal({ start: '2026-12-01', end: '2027-02-28' });
    expect(d.notes).to.deep.equal([`Certified under rule ${rule.id} (${citationLine(rule)}): the attached documentation covers every item the rule lists (${list.join('; ')}). Valid 2026-12-01 to 2027-02-28.`]);
  });

  describe('which DTR answers count', () => {
    const have = (qr: Json) => [...attachedDocumentation(parsed(pasRequest('h', [{ code: HOME_HEALTH }], { supporting: [qr] })), rule)];
    it('completed or amended, for this rule\'s questionnaire (any host, any version, any case), answers true', () => {
      expect(have(dtrResponse('a', path, [1, 2]))).to.deep.equal(list.slice(0, 2));
      expect(have({ ...dtrResponse('a', path, [2]), status: 'amended' })).to.deep.equal([list[1]]);
      expect(have({ ...dtrResponse('a', path, [1]), questionnaire: `HTTPS://OTHER.HOST/v1/dtr/questionnaire/${path.toUpperCase()}` })).to.deep.equal([list[0]]);
    });
    it('not in progress, not another rule\'s questionnaire, not a false answer, not an unnumbered or nested-wrong link', () => {
      expect(have({ ...dtrResponse('a', path, [1]), status: 'in-progress' })).to.deep.equal([]);
      expect(have({ ...dtrResponse('a', path, [1]), status: undefined })).to.deep.equal([]);
      expect(have(dtrResponse('a', 'MA/medicaid_mco/other_service', [1]))).to.deep.equal([]);
      expect(have({ ...dtrResponse('a', path, [1]), questionnaire: `https://prauth.test/v1/dtr/questionnaire/${path}/extra` })).to.deep.equal([]);
      const qr = dtrResponse('a', path, []);
      qr.item = [{ linkId: 'documentation', item: [{ linkId: 'documentation.1', answer: [{ valueBoolean: false }] }, { linkId: 'documentation.2', answer: [{ valueBoolean: false }, { valueBoolean: true }] }, { answer: [{ valueBoolean: true }] }] }];
      expect(have(qr)).to.deep.equal([list[1]]);
    });
  });

  describe('which DocumentReferences count', () => {
    const have = (...refs: Json[]) => [...attachedDocumentation(parsed(pasRequest('d', [{ code: HOME_HEALTH }], { supporting: refs })), rule)];
    const [first, second] = list as [string, string];
    it('a label equal to a document, whatever its case and spacing, or starting with it and a colon, in description, type text, type coding display or attachment title', () => {
      expect(have(docRef('a', { description: `  ${first.toUpperCase().replace(/ /g, '   ')}  ` }))).to.deep.equal([first]);
      expect(have(docRef('b', { type: { text: `${second}: signed 2026-07-01` } }))).to.deep.equal([second]);
      expect(have(docRef('c', { type: { coding: [{ display: 'Other' }, { display: first }] } }))).to.deep.equal([first]);
      expect(have(docRef('d', { content: [{ attachment: { title: 'cover letter' } }, { attachment: { title: second } }] }))).to.deep.equal([second]);
      expect(have(docRef('e', { status: undefined, description: first }), docRef('f', { description: second }))).to.deep.equal([first, second]);
    });
    it('not a superseded one, not a label that only contains or ends with the document, not a prefix without the colon', () => {
      expect(have(docRef('a', { status: 'superseded', description: first }))).to.deep.equal([]);
      expect(have(docRef('b', { description: `copy of ${first}` }))).to.deep.equal([]);
      expect(have(docRef('c', { description: `${first} (draft)` }))).to.deep.equal([]);
      expect(have({ resourceType: 'Binary', id: 'x', description: first })).to.deep.equal([]);
    });
  });

  it('when the rule lists no documentation, then A4 pended for the payer\'s review, naming no document the rule does not list', () => {
    const bare: CoverageRuleDoc = { ...rule, requirement: { ...rule.requirement, documentation: [], criteria: '' } };
    const m = buildReadModel({ rules: [bare, ...of<CoverageRuleDoc>('CoverageRule').filter((r) => r.id !== rule.id)], jurisdictions: of('Jurisdiction'), payers: of<PayerDoc>('Payer'), drugs: [], codeMappings: of<CodeMappingDoc>('CodeMapping'), events: [], topics: [] }, 1);
    const req = parsed(pasRequest('n', [{ code: HOME_HEALTH }], { supporting: [dtrResponse('qr', path, [1, 2, 3])] }));
    const d = decideItem(m, req, req.claim.item![0]!, CC, NOW);
    expect(d.action).to.equal('A4');
    expect(d.missing).to.equal(undefined);
    expect(d.questionnairePath).to.equal(`/v1/dtr/questionnaire/${bare.jurisdiction}/${bare.program}/${bare.subject.code}`);
    expect(d.notes).to.deep.equal([`Pended for review under rule ${rule.id} (${citationLine(bare)}). The rule's sources list no documents for this request; the payer says what to send.`]);
  });

  describe('the certification period', () => {
    const all = () => list.map((_, i) => i + 1);
    const certify = (item: Json) => {
      const b = pasRequest('p', [{ code: HOME_HEALTH }], { supporting: [dtrResponse('qr', path, all())] });
      Object.assign(b.entry[0].resource.item[0], item);
      return decide(b).certification;
    };
    it('from the serviced date, or the period start, or today, for 90 days', () => {
      expect(DEFAULT_CERTIFICATION_DAYS).to.equal(90);
      expect(certify({})).to.deep.equal({ start: '2026-07-10', end: '2026-10-08' });
      expect(certify({ servicedDate: '2026-08-01T10:00:00Z' })).to.deep.equal({ start: '2026-08-01', end: '2026-10-30' });
      expect(certify({ servicedPeriod: { start: '2026-09-15T00:00:00Z' } })).to.deep.equal({ start: '2026-09-15', end: '2026-12-14' });
      expect(certify({ servicedDate: '2026-08-01', servicedPeriod: { start: '2026-09-15' } })).to.deep.equal({ start: '2026-08-01', end: '2026-10-30' });
    });
  });

  describe('items the rules cannot decide', () => {
    it('when the codes are in none of our code lists, then A4 naming them (or "none")', () => {
      const d = decide(pasRequest('u', [{ code: 'ZZ9', system: 'http://example.org/local' }]));
      expect(d).to.deep.equal({ sequence: 1, action: 'A4', notes: ['Pended for manual review: the service codes (ZZ9) are not in our CPT/HCPCS/RxNorm code lists, so no rule could be applied automatically. Resubmit with a CPT, HCPCS or RxNorm code for an automated answer.'] });
      const b = pasRequest('u2', [{ code: 'x' }]);
      b.entry[0].resource.item[0].productOrService = { coding: [{ system: 'http://example.org/local' }] };
      expect(decide(b).notes[0]).to.contain('the service codes (none) are not in our');
    });

    it('when the code maps to a subject with no rule in this state and program, then A4 saying so, with the subject kind', () => {
      const req = parsed(pasRequest('n', [{ code: 'E0424', system: 'https://bluebutton.cms.gov/resources/codesystem/hcpcs' }]));
      const d = decideItem(model, req, req.claim.item![0]!, { state: 'MA', program: 'chip' }, NOW);
      expect(d).to.deep.equal({ sequence: 1, action: 'A4', subjectKind: 'service', notes: ["Pended for manual review: no verified rule yet for MA chip service 'durable_medical_equipment'."] });
    });

    it('when the item names its service only through a requested-service order, then that order\'s code decides it', () => {
      const b = pasRequest('o', [{ code: 'ZZ9', system: 'http://example.org/local' }]);
      const claim = b.entry[0].resource;
      b.entry.push({ fullUrl: 'http://davinci-pas.org/fhir/ServiceRequest/sr-1', resource: { resourceType: 'ServiceRequest', id: 'sr-1', status: 'active', intent: 'order', subject: { reference: 'Patient/SubscriberExample' }, code: { coding: [{ system: X12_1365, code: NO_PA }] } } });
      claim.item[0].extension = [...(claim.item[0].extension ?? []), { url: 'http://example.org/not-requested-service', valueReference: { reference: 'ServiceRequest/nope' } }, { url: PAS_EXT.requestedService, valueReference: { reference: 'ServiceRequest/sr-1' } }];
      expect(decide(b).action).to.equal('A1');
    });
  });

  it('each item of a request is decided on its own, by its own code', () => {
    const req = parsed(pasRequest('m', [{ code: NO_PA }, { code: EXCLUDED }, { code: HOME_HEALTH }]));
    expect(req.claim.item!.map((item) => decideItem(model, req, item, CC, NOW)).map((d) => [d.sequence, d.action])).to.deep.equal([[1, 'A1'], [2, 'A3'], [3, 'A4']]);
  });
});
