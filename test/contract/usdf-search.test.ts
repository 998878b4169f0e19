// US Drug Formulary 2.0.1 RESTful read and search, driven the way the public test kit drives it: fhir-kit-client over
// a real port, no key (FORMULARY_PUBLIC defaults on), GET and POST _search, `_include=subject` in the kit's bare
// form, date comparators, `system|code` tokens, next links. Each search parameter of the usdf-server capability has
// its result set checked against a small explicit corpus; every resource served is validated against its profile.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Client } from 'fhir-kit-client';
import { RXNORM_PRODUCTS } from '../../scripts/corpus/rxnorm.js';
import type { CanonicalDoc, CoverageRuleDoc, DrugCrosswalkDoc } from '../../src/domain/documents.js';
import { igContent, validateAgainst } from '../support/ig-validate.js';
import { expectOpenApi } from '../support/openapi.js';
import { jurisdiction, payer, rule } from '../support/docs.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const crosswalk = (id: string, drugClass: string, generic: string, brands: string[]): DrugCrosswalkDoc => {
  const products = RXNORM_PRODUCTS[id]!;
  return { resourceType: 'DrugCrosswalkEntry', id, drugClass, generic, brands, rxnorm: { scd: products.map((p) => p.code), products: products.map(({ code, tty, name }) => ({ code, tty, name })) } };
};
const withEffective = (r: CoverageRuleDoc, start: string, end?: string): CoverageRuleDoc => ({ ...r, effective: { start, ...(end ? { end } : {}) } });
const withReq = (r: CoverageRuleDoc, req: Partial<CoverageRuleDoc['requirement']>): CoverageRuleDoc => ({ ...r, requirement: { ...r.requirement, ...req } });

export function usdfCorpus(): CanonicalDoc[] {
  return [
    jurisdiction('TX', { name: 'Texas' }),
    jurisdiction('CA', { name: 'California' }),
    jurisdiction('NY', { name: 'New York' }),
    payer('tx-plan', 'Texas Test Health Plan', ['TX'], ['medicaid_mco']),
    { ...payer('multi-ma', 'Multi State Advantage', ['TX', 'CA'], ['medicare_advantage']), kind: 'ma_plan' },
    crosswalk('mental-health-antidepressants.sertraline', 'mental_health_antidepressants', 'sertraline', ['Zoloft']),
    crosswalk('mental-health-antidepressants.escitalopram', 'mental_health_antidepressants', 'escitalopram', ['Lexapro']),
    crosswalk('adhd-stimulants.methylphenidate', 'adhd_stimulants', 'methylphenidate', ['Ritalin']),
    crosswalk('adhd-stimulants.lisdexamfetamine', 'adhd_stimulants', 'lisdexamfetamine', ['Vyvanse']),
    crosswalk('brand-name-with-generic.atorvastatin', 'brand_name_with_generic', 'atorvastatin', ['Lipitor']),
    crosswalk('mental-health-antipsychotics.aripiprazole', 'mental_health_antipsychotics', 'aripiprazole', ['Abilify']),
    // A class rule whose class has no RxNorm-coded drug: no FormularyItem, no MedicationKnowledge.
    { resourceType: 'DrugCrosswalkEntry', id: 'hepatitis-c.glecaprevir-pibrentasvir', drugClass: 'hepatitis_c', generic: 'glecaprevir/pibrentasvir', brands: ['Mavyret'] },
    withEffective(
      withReq(rule({ state: 'TX', program: 'part_d', code: 'mental_health_antidepressants', paType: 'step_therapy' }), { stepTherapy: 'Two generics first', quantityLimit: '30 per 30 days', newStartsOnly: true }),
      '2026-01-01',
      '2026-12-31',
    ),
    withEffective(rule({ state: 'TX', program: 'part_d', code: 'adhd_stimulants', paType: 'full' }), '2025-07-01'),
    rule({ state: 'TX', program: 'part_d', code: 'hepatitis_c', paType: 'full' }),
    rule({ state: 'CA', program: 'part_d', code: 'adhd_stimulants', paRequired: false }),
    rule({ state: 'TX', program: 'medicaid_mco', code: 'brand_name_with_generic', paType: 'full' }),
    rule({ state: 'TX', program: 'medicaid_mco', code: 'adhd_stimulants', paRequired: false, payer: { id: 'tx-plan', name: 'Texas Test Health Plan' } }),
    rule({ state: 'TX', program: 'medicare_advantage', code: 'mental_health_antipsychotics', paType: 'full', payer: { id: 'multi-ma', name: 'Multi State Advantage' } }),
  ];
}

const PROFILE: Record<string, string> = {
  Basic: 'http://hl7.org/fhir/us/davinci-drug-formulary/StructureDefinition/usdf-FormularyItem',
  MedicationKnowledge: 'http://hl7.org/fhir/us/davinci-drug-formulary/StructureDefinition/usdf-FormularyDrug',
  Location: 'http://hl7.org/fhir/us/davinci-drug-formulary/StructureDefinition/usdf-InsurancePlanLocation',
};

describe('US Drug Formulary 2.0.1: read and search (usdf-server)', () => {
  let t: TestApp;
  let server: Server;
  let client: Client;
  let base: string;

  before(async () => {
    t = await makeTestApp(usdfCorpus(), { now: () => new Date('2026-11-20T10:00:00Z') });
    server = createServer(t.app.handler).listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const { Client: FhirClient } = await import('fhir-kit-client');
    client = new FhirClient({ baseUrl: base });
  });
  after(() => server.close());

  const search = async (resourceType: string, searchParams: Record<string, string | string[]>): Promise<Any> => (await client.search({ resourceType, searchParams: searchParams as Any })) as Any;
  const ids = (bundle: Any, type?: string): string[] =>
    bundle.entry.filter((e: Any) => e.search?.mode === 'match' && (!type || e.resource.resourceType === type)).map((e: Any) => e.resource.id).sort();

  describe('the CapabilityStatement', () => {
    it('when read, then it instantiates usdf-server and lists exactly the IG capability search parameters, with read and search-type', async () => {
      const cs = (await client.capabilityStatement()) as Any;
      expect(cs.instantiates).to.include('http://hl7.org/fhir/us/davinci-drug-formulary/CapabilityStatement/usdf-server');
      const ig = igContent().resources.find((r: Any) => r.resourceType === 'CapabilityStatement' && r.url === 'http://hl7.org/fhir/us/davinci-drug-formulary/CapabilityStatement/usdf-server') as Any;
      expect(ig, 'usdf-server CapabilityStatement in the vendored 2.0.1 package').to.not.equal(undefined);
      for (const want of ig.rest[0].resource) {
        const got = cs.rest[0].resource.find((r: Any) => r.type === want.type);
        expect(got, want.type).to.not.equal(undefined);
        expect(got.searchParam.map((p: Any) => p.name).sort(), `${want.type} search parameters`).to.deep.equal(want.searchParam.map((p: Any) => p.name).sort());
        expect(got.interaction.map((i: Any) => i.code).sort(), `${want.type} interactions`).to.deep.equal(['read', 'search-type']);
        expect(got.supportedProfile, want.type).to.include.members(want.supportedProfile);
        for (const inc of want.searchInclude ?? []) expect(got.searchInclude, `${want.type} _include`).to.include(`${want.type}:${inc}`);
      }
    });
  });

  describe('every resource served', () => {
    it('when each type is searched in full, then every resource validates against its USDF 2.0.1 profile, and the ids are unique', async () => {
      const seen = new Set<string>();
      const counts: Record<string, number> = {};
      for (const type of ['InsurancePlan', 'Basic', 'MedicationKnowledge', 'Location']) {
        const bundle = await search(type, { _count: '1000' });
        counts[type] = bundle.total;
        expect(bundle.entry).to.have.length(bundle.total);
        for (const { resource } of bundle.entry) {
          const key = `${resource.resourceType}/${resource.id}`;
          expect(seen.has(key), key).to.equal(false);
          seen.add(key);
          expect(resource.id.length).to.be.at.most(64);
          const profile = PROFILE[type] ?? resource.meta.profile[0];
          expect(resource.meta.profile).to.deep.equal([profile]);
          expect(validateAgainst(resource, profile), key).to.deep.equal([]);
        }
      }
      // 5 formularies + 5 payer plans; 11 items (4 + 2 + 1 + 3 + 1); 6 RxNorm drugs; 2 coverage areas (NY has no plan).
      expect(counts).to.deep.equal({ InsurancePlan: 10, Basic: 11, MedicationKnowledge: 6, Location: 2 });
    });

    it('when read by id with fhir-kit-client, then the same resource; an unknown id is a 404 OperationOutcome', async () => {
      const mk = (await client.read({ resourceType: 'MedicationKnowledge', id: 'formularydrug-312941' })) as Any;
      expect(mk.code.coding).to.deep.equal([{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '312941', display: 'sertraline 50 MG Oral Tablet' }]);
      expect(mk.synonym).to.deep.equal(['Zoloft']);
      const loc = (await client.read({ resourceType: 'Location', id: 'state-tx' })) as Any;
      expect(loc).to.deep.include({ name: 'Texas', address: { state: 'TX', country: 'US' } });
      const res = await request(t.app.handler).get('/v1/Basic/formularyitem-nope');
      expect(res.status).to.equal(404);
      expect(res.body.resourceType).to.equal('OperationOutcome');
      expectOpenApi(t.app.routes, res);
      const ok = await request(t.app.handler).get('/v1/InsurancePlan/formulary-tx-part-d');
      expect(ok.status).to.equal(200);
      expect(ok.headers['cache-control']).to.contain('public');
      expectOpenApi(t.app.routes, ok);
    });
  });

  describe('InsurancePlan search parameters', () => {
    const FORMULARIES = ['formulary-ca-part-d', 'formulary-multi-ma-tx-medicare-advantage', 'formulary-tx-medicaid-mco', 'formulary-tx-part-d', 'formulary-tx-plan-tx-medicaid-mco'];
    const PLANS = ['payerplan-ca-part-d', 'payerplan-multi-ma-medicare-advantage', 'payerplan-tx-medicaid-mco', 'payerplan-tx-part-d', 'payerplan-tx-plan-medicaid-mco'];
    it('_id, identifier (value and system|value), status (and the kit multiple-or values)', async () => {
      expect(ids(await search('InsurancePlan', { _id: 'formulary-tx-part-d,payerplan-ca-part-d' }))).to.deep.equal(['formulary-tx-part-d', 'payerplan-ca-part-d']);
      expect(ids(await search('InsurancePlan', { identifier: 'TX/part_d' }))).to.deep.equal(['formulary-tx-part-d', 'payerplan-tx-part-d']);
      expect(ids(await search('InsurancePlan', { identifier: 'urn:prauth:formulary|TX/part_d' }))).to.deep.equal(['formulary-tx-part-d']);
      expect(ids(await search('InsurancePlan', { status: 'active' }))).to.deep.equal([...FORMULARIES, ...PLANS].sort());
      expect(ids(await search('InsurancePlan', { status: 'draft,active,retired,unknown' }))).to.have.length(10);
      expect(ids(await search('InsurancePlan', { status: 'retired' }))).to.deep.equal([]);
    });
    it('type and coverage-type (code and system|code): DRUGPOL formularies; Plan-Net product types; drug coverage', async () => {
      expect(ids(await search('InsurancePlan', { type: 'DRUGPOL' }))).to.deep.equal(FORMULARIES);
      expect(ids(await search('InsurancePlan', { type: 'http://terminology.hl7.org/CodeSystem/v3-ActCode|DRUGPOL' }))).to.deep.equal(FORMULARIES);
      expect(ids(await search('InsurancePlan', { type: 'http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/InsuranceProductTypeCS|medid' }))).to.deep.equal(['payerplan-ca-part-d', 'payerplan-tx-part-d']);
      expect(ids(await search('InsurancePlan', { type: 'mediadv' }))).to.deep.equal(['payerplan-multi-ma-medicare-advantage']);
      expect(ids(await search('InsurancePlan', { 'coverage-type': 'DRUGPOL' }))).to.deep.equal(PLANS);
      expect(ids(await search('InsurancePlan', { 'coverage-type': 'http://other.example|DRUGPOL' }))).to.deep.equal([]);
    });
    it('name: starts-with (case-insensitive), :contains and :exact', async () => {
      expect(ids(await search('InsurancePlan', { name: 'texas medicare part d' }))).to.deep.equal(['formulary-tx-part-d', 'payerplan-tx-part-d']);
      expect(ids(await search('InsurancePlan', { 'name:contains': 'test health' }))).to.deep.equal(['formulary-tx-plan-tx-medicaid-mco', 'payerplan-tx-plan-medicaid-mco']);
      expect(ids(await search('InsurancePlan', { 'name:exact': 'texas medicare part d' }))).to.deep.equal([]);
      const exact = (await client.read({ resourceType: 'InsurancePlan', id: 'formulary-ca-part-d' })) as Any;
      expect(ids(await search('InsurancePlan', { 'name:exact': exact.name }))).to.deep.equal(['formulary-ca-part-d']);
    });
    it('formulary-coverage and coverage-area (typed, bare and absolute references), and _include=formulary-coverage', async () => {
      expect(ids(await search('InsurancePlan', { 'formulary-coverage': 'InsurancePlan/formulary-tx-part-d' }))).to.deep.equal(['payerplan-tx-part-d']);
      expect(ids(await search('InsurancePlan', { 'formulary-coverage': 'formulary-multi-ma-tx-medicare-advantage' }))).to.deep.equal(['payerplan-multi-ma-medicare-advantage']);
      // Formularies carry their state as coverageArea too.
      expect(ids(await search('InsurancePlan', { 'coverage-area': 'Location/state-ca' }))).to.deep.equal(['formulary-ca-part-d', 'payerplan-ca-part-d']);
      const tx = ids(await search('InsurancePlan', { 'coverage-area': `${base}/Location/state-tx` }));
      expect(tx.filter((id: string) => id.startsWith('payerplan-'))).to.deep.equal(['payerplan-multi-ma-medicare-advantage', 'payerplan-tx-medicaid-mco', 'payerplan-tx-part-d', 'payerplan-tx-plan-medicaid-mco']);
      expect(tx.filter((id: string) => id.startsWith('formulary-'))).to.include.members(['formulary-tx-part-d', 'formulary-multi-ma-tx-medicare-advantage']);
      const inc = await search('InsurancePlan', { 'coverage-type': 'DRUGPOL', _include: 'formulary-coverage' });
      expect(ids(inc)).to.deep.equal(PLANS);
      expect(inc.entry.filter((e: Any) => e.search.mode === 'include').map((e: Any) => e.resource.id).sort()).to.deep.equal(FORMULARIES);
      const qualified = await search('InsurancePlan', { _id: 'payerplan-tx-part-d', _include: 'InsurancePlan:formulary-coverage' });
      expect(qualified.entry.map((e: Any) => `${e.search.mode}:${e.resource.id}`)).to.deep.equal(['match:payerplan-tx-part-d', 'include:formulary-tx-part-d']);
    });
    it('period and _lastUpdated with the kit comparators (gt/lt one day around a value) and plain dates', async () => {
      // TX Part D rules take effect 2025-07-01 and 2026-01-01: the formulary period starts at the earliest.
      const txd = (await client.read({ resourceType: 'InsurancePlan', id: 'formulary-tx-part-d' })) as Any;
      expect(txd.period).to.deep.equal({ start: '2025-07-01' });
      expect(ids(await search('InsurancePlan', { period: 'gt2025-06-30T00:00:00+00:00' }))).to.deep.equal(['formulary-tx-part-d', 'payerplan-tx-part-d']);
      expect(ids(await search('InsurancePlan', { period: 'lt2025-06-30' }))).to.deep.equal([]);
      expect(ids(await search('InsurancePlan', { period: 'sa2025-06-30' }))).to.deep.equal(['formulary-tx-part-d', 'payerplan-tx-part-d']);
      expect(ids(await search('InsurancePlan', { _lastUpdated: 'gt2026-11-19T10:00:00+00:00' }))).to.have.length(10);
      expect(ids(await search('InsurancePlan', { _lastUpdated: 'lt2026-11-20' }))).to.deep.equal([]);
      expect(ids(await search('InsurancePlan', { _lastUpdated: ['ge2026-11-20', 'le2026-11-20'] }))).to.have.length(10);
    });
  });

  describe('Basic (FormularyItem) search parameters', () => {
    it('code (fixed value and system|code), status, formulary, subject, drug-tier, pharmacy-benefit-type', async () => {
      const all = ids(await search('Basic', { code: 'formulary-item' }));
      expect(all).to.have.length(11);
      expect(ids(await search('Basic', { code: 'http://hl7.org/fhir/us/davinci-drug-formulary/CodeSystem/usdf-InsuranceItemTypeCS|formulary-item' }))).to.deep.equal(all);
      expect(ids(await search('Basic', { status: 'active' }))).to.deep.equal(all);
      expect(ids(await search('Basic', { status: 'inactive' }))).to.deep.equal([]);
      expect(ids(await search('Basic', { formulary: 'InsurancePlan/formulary-tx-part-d' }))).to.deep.equal([
        'formularyitem-tx-part-d-1091150', 'formularyitem-tx-part-d-312941', 'formularyitem-tx-part-d-349332', 'formularyitem-tx-part-d-854834',
      ]);
      // The payer's own ADHD rule plus the program's brand-name rule make its formulary.
      expect(ids(await search('Basic', { formulary: 'formulary-tx-plan-tx-medicaid-mco' }))).to.deep.equal([
        'formularyitem-tx-plan-tx-medicaid-mco-1091150', 'formularyitem-tx-plan-tx-medicaid-mco-617314', 'formularyitem-tx-plan-tx-medicaid-mco-854834',
      ]);
      expect(ids(await search('Basic', { subject: 'MedicationKnowledge/formularydrug-617314' }))).to.deep.equal(['formularyitem-tx-medicaid-mco-617314', 'formularyitem-tx-plan-tx-medicaid-mco-617314']);
      expect(ids(await search('Basic', { 'drug-tier': 'brand' }))).to.deep.equal(['formularyitem-tx-medicaid-mco-617314', 'formularyitem-tx-plan-tx-medicaid-mco-617314']);
      expect(ids(await search('Basic', { 'drug-tier': 'specialty' }))).to.deep.equal([]);
      expect(ids(await search('Basic', { 'pharmacy-benefit-type': '1-month-in-retail' }))).to.deep.equal(all);
      expect(ids(await search('Basic', { 'pharmacy-benefit-type': '3-month-in-mail' }))).to.deep.equal([]);
    });
    it('period from the rule effective dates, with comparators', async () => {
      expect(ids(await search('Basic', { period: 'ge2026-01-01' }))).to.deep.equal(['formularyitem-tx-part-d-1091150', 'formularyitem-tx-part-d-312941', 'formularyitem-tx-part-d-349332', 'formularyitem-tx-part-d-854834']);
      expect(ids(await search('Basic', { period: 'eb2027-01-01' }))).to.deep.equal(['formularyitem-tx-part-d-312941', 'formularyitem-tx-part-d-349332']);
      expect(ids(await search('Basic', { period: 'gt2027-01-01' }))).to.deep.equal(['formularyitem-tx-part-d-1091150', 'formularyitem-tx-part-d-854834']);
    });
    it('_include=subject and _include=formulary (the kit bare form and Basic:subject) include each target once', async () => {
      for (const inc of ['subject', 'Basic:subject']) {
        const b = await search('Basic', { code: 'formulary-item', formulary: 'InsurancePlan/formulary-tx-part-d', _include: inc });
        expect(b.entry.filter((e: Any) => e.search.mode === 'include').map((e: Any) => e.resource.id).sort()).to.deep.equal([
          'formularydrug-1091150', 'formularydrug-312941', 'formularydrug-349332', 'formularydrug-854834',
        ]);
      }
      const both = await search('Basic', { formulary: 'InsurancePlan/formulary-ca-part-d', _include: ['Basic:formulary', 'subject'] });
      expect(both.entry.map((e: Any) => `${e.search.mode}:${e.resource.resourceType}`).sort()).to.deep.equal([
        'include:InsurancePlan', 'include:MedicationKnowledge', 'include:MedicationKnowledge', 'match:Basic', 'match:Basic',
      ]);
    });
    it('the flags follow the rule: step therapy and quantity limit for new starts, no PA', async () => {
      const item = (await client.read({ resourceType: 'Basic', id: 'formularyitem-tx-part-d-312941' })) as Any;
      const flags = Object.fromEntries(item.extension.filter((e: Any) => 'valueBoolean' in e).map((e: Any) => [e.url.replace(/.*\/usdf-|-extension$/g, ''), e.valueBoolean]));
      expect(flags).to.deep.equal({ PriorAuthorization: false, StepTherapyLimit: true, StepTherapyLimitNewStartsOnly: true, QuantityLimit: true });
      expect(item.extension.find((e: Any) => e.url.endsWith('AvailabilityPeriod-extension')).valuePeriod).to.deep.equal({ start: '2026-01-01', end: '2026-12-31' });
    });
  });

  describe('MedicationKnowledge and Location search parameters', () => {
    it('code (code and rxnorm|code), drug-name (RxNorm name or brand synonym), doseform, status, _id, _lastUpdated', async () => {
      expect(ids(await search('MedicationKnowledge', { code: '312941' }))).to.deep.equal(['formularydrug-312941']);
      expect(ids(await search('MedicationKnowledge', { code: 'http://www.nlm.nih.gov/research/umls/rxnorm|617314,854834' }))).to.deep.equal(['formularydrug-617314', 'formularydrug-854834']);
      expect(ids(await search('MedicationKnowledge', { code: 'http://snomed.info/sct|312941' }))).to.deep.equal([]);
      expect(ids(await search('MedicationKnowledge', { 'drug-name': 'sertraline' }))).to.deep.equal(['formularydrug-312941']);
      expect(ids(await search('MedicationKnowledge', { 'drug-name': 'lipitor' }))).to.deep.equal(['formularydrug-617314']);
      expect(ids(await search('MedicationKnowledge', { 'drug-name:contains': 'oral capsule' }))).to.deep.equal(['formularydrug-854834']);
      // The dose form is the one NLM's RxNorm name states, as text: the token parameter is served and matches no code.
      const sertraline = (await client.read({ resourceType: 'MedicationKnowledge', id: 'formularydrug-312941' })) as Any;
      expect(sertraline.doseForm).to.deep.equal({ text: 'Oral Tablet' });
      expect(validateAgainst(sertraline, PROFILE.MedicationKnowledge)).to.deep.equal([]);
      expect(((await client.read({ resourceType: 'MedicationKnowledge', id: 'formularydrug-854834' })) as Any).doseForm).to.deep.equal({ text: 'Oral Capsule' });
      expect(ids(await search('MedicationKnowledge', { doseform: '421026006' }))).to.deep.equal([]);
      expect(ids(await search('MedicationKnowledge', { status: 'active' }))).to.have.length(6);
      expect(ids(await search('MedicationKnowledge', { _id: 'formularydrug-349545' }))).to.deep.equal(['formularydrug-349545']);
      expect(ids(await search('MedicationKnowledge', { _lastUpdated: 'le2026-11-01' }))).to.have.length(6);
    });
    it('address, address-state, address-city, address-postalcode, _id, _lastUpdated', async () => {
      expect(ids(await search('Location', { 'address-state': 'tx' }))).to.deep.equal(['state-tx']);
      expect(ids(await search('Location', { address: 'US' }))).to.deep.equal(['state-ca', 'state-tx']);
      expect(ids(await search('Location', { 'address-city': 'Austin' }))).to.deep.equal([]);
      expect(ids(await search('Location', { 'address-postalcode': '787' }))).to.deep.equal([]);
      expect(ids(await search('Location', { _id: 'state-ca' }))).to.deep.equal(['state-ca']);
      expect(ids(await search('Location', { _lastUpdated: 'gt2026-10-31' }))).to.deep.equal(['state-ca', 'state-tx']);
    });
  });

  describe('searchset behaviour', () => {
    it('when _count pages the results, then next links (followed with fhir-kit-client) reach every match once', async () => {
      let page = await search('Basic', { _count: '4' });
      expect(page.total).to.equal(11);
      const got: string[] = [];
      for (let i = 0; i < 5 && page; i++) {
        got.push(...ids(page));
        page = page.link.some((l: Any) => l.relation === 'next') ? await client.nextPage({ bundle: page }) : undefined;
      }
      expect(got).to.have.length(11);
      expect(new Set(got).size).to.equal(11);
    });

    it('when an unknown parameter is sent, then it is ignored, left out of the self link and reported; with Prefer: handling=strict, 400', async () => {
      const res = await request(t.app.handler).get('/v1/Basic?status=active&foo=bar&_count=2');
      expect(res.status).to.equal(200);
      expectOpenApi(t.app.routes, res);
      expect(res.body.total).to.equal(11);
      const self = res.body.link.find((l: Any) => l.relation === 'self').url;
      expect(self).to.contain('status=active').and.to.not.contain('foo');
      const outcome = res.body.entry.find((e: Any) => e.search.mode === 'outcome').resource;
      expect(outcome.issue[0]).to.include({ severity: 'warning', code: 'not-supported' });
      expect(outcome.issue[0].diagnostics).to.contain('foo');
      const strict = await request(t.app.handler).get('/v1/Basic?status=active&foo=bar').set('prefer', 'handling=strict');
      expect(strict.status).to.equal(400);
      expect(strict.body.issue[0].diagnostics ?? strict.body.issue[0].details.text).to.contain("'foo'");
      expectOpenApi(t.app.routes, strict);
    });

    it('when a value or modifier is invalid, then 400 OperationOutcome naming the parameter', async () => {
      // Also an impossible calendar date and a repeated _count (qa6 #14).
      for (const [q, at] of [['period=gtyesterday', 'period'], ['period=2026-02-30', 'period'], ['name:missing=true', 'name:missing'], ['_count=abc', '_count'], ['_count=2&_count=3', '_count'], ['code:text=x', 'code:text']] as const) {
        const res = await request(t.app.handler).get(`/v1/Basic?${q}`.replace('Basic?name', 'InsurancePlan?name'));
        expect(res.status, q).to.equal(400);
        expect(res.body.issue[0].expression, q).to.deep.equal([at]);
      }
    });

    it('when searched by POST _search (form body, as the kit does), then the same results as GET', async () => {
      const get = await request(t.app.handler).get('/v1/Basic?formulary=InsurancePlan%2Fformulary-tx-part-d&_include=subject');
      const post = await request(t.app.handler).post('/v1/Basic/_search').type('form').send({ formulary: 'InsurancePlan/formulary-tx-part-d', _include: 'subject' });
      expect(post.status).to.equal(200);
      expectOpenApi(t.app.routes, post, 'POST');
      expect(post.body.entry.map((e: Any) => e.resource.id)).to.deep.equal(get.body.entry.map((e: Any) => e.resource.id));
      const json = await request(t.app.handler).post('/v1/Basic/_search').set('content-type', 'application/json').send('{}');
      expect(json.status).to.equal(415);
    });
  });

  describe('access: FORMULARY_PUBLIC', () => {
    it('when FORMULARY_PUBLIC is off, then a key is needed, and a key sees only its subscription (a read outside it is a 403, an unknown id a 404)', async () => {
      const closed = await makeTestApp(usdfCorpus(), { env: { FORMULARY_PUBLIC: 'false' }, now: () => new Date('2026-11-20T10:00:00Z') });
      const none = await request(closed.app.handler).get('/v1/InsurancePlan?status=active');
      expect(none.status).to.equal(401);
      expect(none.body.resourceType).to.equal('OperationOutcome');
      expectOpenApi(closed.app.routes, none);
      const ca = await closed.key({ name: 'ca', states: ['CA'] });
      const res = await request(closed.app.handler).get('/v1/InsurancePlan?status=active').set('x-api-key', ca);
      expect(res.status).to.equal(200);
      expect(res.headers['cache-control']).to.contain('private');
      expect(ids(res.body)).to.deep.equal(['formulary-ca-part-d', 'payerplan-ca-part-d']);
      const drugs = await request(closed.app.handler).get('/v1/MedicationKnowledge').set('x-api-key', ca);
      expect(drugs.body.total).to.equal(6);
      // A read outside the subscription is the 403 every out-of-scope request gets (README "Choices"), naming the state.
      const outside = await request(closed.app.handler).get('/v1/InsurancePlan/formulary-tx-part-d').set('x-api-key', ca);
      const unknown = await request(closed.app.handler).get('/v1/InsurancePlan/formulary-zz-part-d').set('x-api-key', ca);
      expect(outside.status).to.equal(403);
      expect(outside.body.resourceType).to.equal('OperationOutcome');
      expect(outside.body.issue[0].code).to.equal('forbidden');
      expect(outside.body.issue[0].diagnostics).to.equal("State TX not in this key's subscription");
      expect(JSON.stringify(outside.body)).to.not.contain('formulary-tx-part-d"'); // nothing of the resource
      expect(unknown.status).to.equal(404);
      expect(unknown.body.issue[0].code).to.equal('not-found');
      expectOpenApi(closed.app.routes, outside);
      expect((await request(closed.app.handler).get('/v1/InsurancePlan/formulary-ca-part-d').set('x-api-key', ca)).status).to.equal(200);
    });

    it('when FORMULARY_PUBLIC is on (default), then endpoint 19 still needs a key', async () => {
      expect((await request(t.app.handler).get('/v1/formulary/TX/part_d')).status).to.equal(401);
      expect((await request(t.app.handler).get('/v1/Basic?formulary=formulary-tx-part-d')).status).to.equal(200);
    });
  });
});
