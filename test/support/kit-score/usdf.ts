// The Da Vinci US Drug Formulary server suite v2.0.1 (inferno-framework/davinci-us-drug-formulary-test-kit d89c8f8,
// generated/v2.0.1/usdf_test_suite.rb), its 67 counted tests re-implemented: the CapabilityStatement group (TLS,
// conformance, FHIR version, JSON, instantiates usdf-server, the four resource types) and, per profile (Payer
// Insurance Plan, Formulary, FormularyItem, FormularyDrug, InsurancePlanLocation), every search test, read,
// validation, must support and reference resolution. The visual inspection group (attestations) is not counted.
// The searches follow search_test.rb: the first search with the metadata's fixed values (status, code) or, for
// Location, the ids a tester gives (here: the payer plans' coverageArea); each later search takes its value from
// the first resource of the group holding one (skipped, so not passed, when none does), checks every returned
// resource against it, and adds the variants the test asks for: POST _search returning as many as GET, `system|code`
// for tokens, `Type/id` for references; _include tests look for each referenced target in the Bundle. Date values
// are searched as the kit does (`gt` a day before a period's start; an instant as it is).
import request from 'supertest';
import { validateAgainst } from '../ig-validate.js';
import type { TestApp } from '../test-app.js';
import { missingMustSupport } from './must-support.js';
import { KitRun } from './score.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const USDF = 'http://hl7.org/fhir/us/davinci-drug-formulary/StructureDefinition/';
const EXT = (name: string) => `${USDF}${name}`;

type ParamType = 'token' | 'date' | 'Identifier' | 'code' | 'Period' | 'CodeableConcept' | 'string' | 'Reference' | 'Address';
interface Param {
  paths: string[];
  type: ParamType;
  /** Reference target type (for the Type/id variant). */
  target?: string;
}
const ext = (name: string): string => `extension.where(url='${EXT(name)}').value`;
const COMMON: Record<string, Param> = { _id: { paths: ['Resource.id'], type: 'token' }, _lastUpdated: { paths: ['Resource.meta.lastUpdated'], type: 'date' } };
const PLAN: Record<string, Param> = {
  ...COMMON,
  identifier: { paths: ['identifier'], type: 'Identifier' },
  status: { paths: ['status'], type: 'code' },
  period: { paths: ['period'], type: 'Period' },
  type: { paths: ['type'], type: 'CodeableConcept' },
  name: { paths: ['name'], type: 'string' },
  'coverage-type': { paths: ['coverage.type'], type: 'CodeableConcept' },
  'formulary-coverage': { paths: [`coverage.${ext('usdf-FormularyReference-extension')}`], type: 'Reference', target: 'InsurancePlan' },
  'coverage-area': { paths: ['coverageArea'], type: 'Reference', target: 'Location' },
};

interface SearchTest {
  id: string;
  params: string[];
  first?: string[]; // fixed values of the first search
  post?: boolean;
  token?: boolean;
  refVariant?: boolean;
}
interface Group {
  key: string;
  type: string;
  profile: string;
  params: Record<string, Param>;
  searches: SearchTest[];
  includes: { id: string; param: string; first: string; values: string[]; lookUp: string }[];
  /** The must-support references the reference resolution test reads. */
  references?: { path: string; type: string }[];
  /** Keeps the group's resources among what a search of the type returns (the kit's filter_insurance_plan). */
  keep?: (r: Json) => boolean;
}
const isFormulary = (r: Json): boolean => (r.type?.[0]?.coding ?? []).some((c: Json) => c.code === 'DRUGPOL' && c.system === 'http://terminology.hl7.org/CodeSystem/v3-ActCode');
const s = (id: string, params: string[], o: Partial<SearchTest> = {}): SearchTest => ({ id, params, ...o });

const GROUPS: Group[] = [
  {
    key: 'payer_insurance_plan',
    type: 'InsurancePlan',
    profile: `${USDF}usdf-PayerInsurancePlan`,
    params: PLAN,
    keep: (r) => !isFormulary(r),
    searches: [
      s('status', ['status'], { first: ['draft', 'active', 'retired', 'unknown'], post: true }),
      s('_id', ['_id']),
      s('_lastUpdated', ['_lastUpdated']),
      s('identifier', ['identifier'], { token: true }),
      s('period', ['period']),
      s('type', ['type'], { token: true }),
      s('name', ['name']),
      s('coverage_type', ['coverage-type'], { token: true }),
      s('formulary_coverage', ['formulary-coverage'], { refVariant: true }),
      s('coverage_area', ['coverage-area'], { refVariant: true }),
    ],
    includes: [{ id: 'formulary_coverage_include', param: 'InsurancePlan:formulary-coverage', first: 'coverage-type', values: ['DRUGPOL'], lookUp: 'formulary-coverage' }],
    references: [{ path: 'coverageArea', type: 'Location' }],
  },
  {
    key: 'formulary',
    type: 'InsurancePlan',
    profile: `${USDF}usdf-Formulary`,
    params: PLAN,
    keep: isFormulary,
    searches: [
      s('status', ['status'], { first: ['draft', 'active', 'retired', 'unknown'], post: true }),
      s('_id', ['_id']),
      s('_lastUpdated', ['_lastUpdated']),
      s('identifier', ['identifier'], { token: true }),
      s('period', ['period']),
      s('type', ['type'], { token: true }),
      s('name', ['name']),
      s('coverage_type', ['coverage-type'], { token: true }),
      s('formulary_coverage', ['formulary-coverage'], { refVariant: true }),
      s('coverage_area', ['coverage-area'], { refVariant: true }),
    ],
    includes: [],
  },
  {
    key: 'basic',
    type: 'Basic',
    profile: `${USDF}usdf-FormularyItem`,
    params: {
      ...COMMON,
      code: { paths: ['code'], type: 'CodeableConcept' },
      subject: { paths: ['subject'], type: 'Reference', target: 'MedicationKnowledge' },
      status: { paths: [ext('usdf-AvailabilityStatus-extension')], type: 'code' },
      period: { paths: [ext('usdf-AvailabilityPeriod-extension')], type: 'Period' },
      formulary: { paths: [ext('usdf-FormularyReference-extension')], type: 'Reference', target: 'InsurancePlan' },
      'pharmacy-benefit-type': { paths: [ext('usdf-PharmacyBenefitType-extension')], type: 'CodeableConcept' },
      'drug-tier': { paths: [ext('usdf-DrugTierID-extension')], type: 'CodeableConcept' },
    },
    searches: [
      s('code', ['code'], { first: ['formulary-item'], post: true, token: true }),
      s('_id', ['_id']),
      s('_lastUpdated', ['_lastUpdated']),
      s('subject', ['subject'], { refVariant: true }),
      s('status', ['status']),
      s('period', ['period']),
      s('formulary', ['formulary'], { refVariant: true }),
      s('pharmacy_benefit_type', ['pharmacy-benefit-type'], { token: true }),
      s('drug_tier', ['drug-tier'], { token: true }),
    ],
    includes: [
      { id: 'subject_include', param: 'Basic:subject', first: 'code', values: ['formulary-item'], lookUp: 'subject' },
      { id: 'formulary_include', param: 'Basic:formulary', first: 'code', values: ['formulary-item'], lookUp: 'formulary' },
    ],
    references: [{ path: 'subject', type: 'MedicationKnowledge' }],
  },
  {
    key: 'medication_knowledge',
    type: 'MedicationKnowledge',
    profile: `${USDF}usdf-FormularyDrug`,
    params: {
      ...COMMON,
      status: { paths: ['status'], type: 'code' },
      code: { paths: ['code'], type: 'CodeableConcept' },
      'drug-name': { paths: ['code.coding.display', 'synonym'], type: 'string' },
      doseform: { paths: ['doseForm'], type: 'CodeableConcept' },
    },
    searches: [
      s('status', ['status'], { first: ['active', 'inactive', 'entered-in-error'], post: true }),
      s('_id', ['_id']),
      s('_lastUpdated', ['_lastUpdated']),
      s('code', ['code'], { token: true }),
      s('drug_name', ['drug-name']),
      s('doseform', ['doseform'], { token: true }),
    ],
    includes: [],
  },
  {
    key: 'location',
    type: 'Location',
    profile: `${USDF}usdf-InsurancePlanLocation`,
    params: {
      ...COMMON,
      address: { paths: ['address'], type: 'Address' },
      'address-city': { paths: ['address.city'], type: 'string' },
      'address-state': { paths: ['address.state'], type: 'string' },
      'address-postalcode': { paths: ['address.postalCode'], type: 'string' },
    },
    searches: [
      s('_id', ['_id'], { first: [], post: true }),
      s('_lastUpdated', ['_lastUpdated']),
      s('address', ['address']),
      s('address_city', ['address-city']),
      s('address_state', ['address-state']),
      s('address_postalcode', ['address-postalcode']),
    ],
    includes: [],
  },
];

const asList = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** The values at a search parameter path (`a.b`, `extension.where(url='x').value`, `Resource.id`). */
function resolvePath(r: Json, path: string): unknown[] {
  let values: unknown[] = [r];
  for (const seg of path.replace(/^Resource\./, '').split(/\.(?![^(]*\))/)) {
    const where = /^where\(url='([^']+)'\)$/.exec(seg);
    if (where) values = values.filter((e) => (e as Json)?.url === where[1]);
    else if (seg === 'value') values = values.flatMap((v) => Object.entries((v as Json) ?? {}).filter(([k]) => k.startsWith('value')).map(([, x]) => x));
    else values = values.flatMap((v) => asList((v as Json)?.[seg]));
  }
  return values.filter((v) => v !== undefined && v !== null);
}

const day = 86_400_000;
const shift = (iso: string, ms: number): string => new Date(new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso).getTime() + ms).toISOString().replace('.000Z', 'Z');

/** search_param_value: the value to search with, from one resource (undefined when it has none). */
function valueOf(p: Param, r: Json, withSystem: boolean): string | undefined {
  for (const path of p.paths) {
    for (const v of resolvePath(r, path) as Json[]) {
      let out: string | undefined;
      if (p.type === 'Period') out = v.start ? `gt${shift(v.start, -day)}` : v.end ? `lt${shift(v.end, day)}` : undefined;
      else if (p.type === 'Reference') out = v.reference;
      else if (p.type === 'CodeableConcept') {
        const c = (v.coding ?? []).find((x: Json) => x.code && (!withSystem || x.system));
        out = c ? (withSystem ? `${c.system}|${c.code}` : c.code) : undefined;
      } else if (p.type === 'Identifier') out = v.value ? (withSystem ? (v.system ? `${v.system}|${v.value}` : undefined) : v.value) : undefined;
      else if (p.type === 'Address') out = v.text ?? v.city ?? v.state ?? v.postalCode ?? v.country;
      else out = typeof v === 'string' ? v : undefined;
      if (out) return out.replace(/,/g, '\\,');
    }
  }
  return undefined;
}

/** The instant range a date value or search value covers (by its precision). */
function range(v: string): [number, number] {
  const t = Date.parse(v.length === 4 ? `${v}-01-01T00:00:00Z` : v.length === 7 ? `${v}-01T00:00:00Z` : v.length === 10 ? `${v}T00:00:00Z` : v);
  const len = v.length === 4 ? 365 * day : v.length === 7 ? 31 * day : v.length === 10 ? day : 1000;
  return [t, t + len - 1];
}
function dateMatches(search: string, value: unknown): boolean {
  const m = /^(eq|ne|gt|lt|ge|le|sa|eb|ap)?(.*)$/.exec(search)!;
  const [lo, hi] = range(m[2]!);
  const v = value as Json | string;
  const [tlo, thi] = typeof v === 'string' ? range(v) : [v.start ? range(v.start)[0] : -Infinity, v.end ? range(v.end)[1] : Infinity];
  switch (m[1] ?? 'eq') {
    case 'gt':
      return thi > hi;
    case 'ge':
      return thi >= lo;
    case 'lt':
      return tlo < lo;
    case 'le':
      return tlo <= hi;
    default:
      return tlo <= hi && thi >= lo;
  }
}

/** check_resource_against_params, for one parameter: undefined when the resource matches. */
function mismatch(p: Param, name: string, r: Json, raw: string): string | undefined {
  const search = raw.replace(/\\,/g, ',');
  const found = p.paths.flatMap((path) => resolvePath(r, path)) as Json[];
  const starts = (x: unknown, q: string) => typeof x === 'string' && x.toLowerCase().startsWith(q.toLowerCase());
  let ok: boolean;
  if (p.type === 'Period' || p.type === 'date') ok = found.some((d) => dateMatches(search, d));
  else if (p.type === 'Address') ok = found.some((a) => [a.text, a.city, a.state, a.postalCode, a.country].some((x) => starts(x, search)));
  else if (p.type === 'CodeableConcept') {
    const [sys, code] = search.includes('|') ? search.split('|') : [undefined, search];
    ok = found.flatMap((c) => c.coding ?? []).some((c: Json) => (!sys || c.system === sys) && String(c.code ?? '').toLowerCase() === code!.toLowerCase());
  } else if (p.type === 'Identifier') ok = found.some((i) => (search.includes('|') ? `${i.system}|${i.value}` === search : i.value === search));
  else if (p.type === 'string') ok = found.some((x) => search.split(',').some((q) => starts(x, q)));
  else {
    const refs = found.map((x) => (typeof x === 'object' ? x.reference : x));
    ok = refs.some((x) => search.split(',').includes(String(x)));
  }
  return ok ? undefined : `${r.resourceType}/${r.id} did not match ${name}=${search} (found ${JSON.stringify(found).slice(0, 120)})`;
}

export async function runUsdfKit(t: TestApp, tls: () => Promise<string | undefined>): Promise<KitRun> {
  const run = new KitRun('US Drug Formulary server v2.0.1');
  const base = `${t.deps.config.publicBaseUrl}/v1`;
  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const res = await request(t.app.handler).get(path.startsWith(base) ? `/v1${path.slice(base.length)}` : path);
    return { status: res.status, body: res.body as Json };
  };
  /** A search by GET (every page, up to 20) or POST _search: the resources of the type. */
  const search = async (type: string, params: Record<string, string>, method: 'GET' | 'POST' = 'GET'): Promise<{ error?: string; resources: Json[]; entries: Json[] }> => {
    const qs = new URLSearchParams(params).toString();
    const first = method === 'GET' ? await get(`/v1/${type}?${qs}`) : await (async () => {
      const res = await request(t.app.handler).post(`/v1/${type}/_search`).type('form').send(qs);
      return { status: res.status, body: res.body as Json };
    })();
    if (first.status !== 200 || first.body?.resourceType !== 'Bundle') return { error: `HTTP ${first.status} ${first.body?.resourceType}`, resources: [], entries: [] };
    const entries: Json[] = [...(first.body.entry ?? [])];
    let page = first.body;
    for (let n = 1; n < 20; n++) {
      const next = (page.link ?? []).find((l: Json) => l.relation === 'next')?.url;
      if (!next) break;
      page = (await get(next)).body;
      entries.push(...(page.entry ?? []));
    }
    return { resources: entries.map((e) => e.resource).filter((r) => r?.resourceType === type), entries };
  };

  // --- CapabilityStatement ---
  const meta = await get('/v1/metadata');
  const cs = meta.body;
  await run.check('standalone_auth_tls', tls);
  await run.check('usdf_conformance_support', () => (meta.status === 200 && cs.resourceType === 'CapabilityStatement' ? validateAgainst(cs as never).join('; ') || undefined : `HTTP ${meta.status} ${cs?.resourceType}`));
  await run.check('usdf_fhir_version', () => (String(cs.fhirVersion).startsWith('4.0') ? undefined : `fhirVersion ${cs.fhirVersion}`));
  await run.check('usdf_json_support', () => ((cs.format ?? []).some((f: string) => ['json', 'application/json', 'application/fhir+json'].includes(f)) ? undefined : 'no JSON format'));
  await run.check('usdf_instantiate', () => ((cs.instantiates ?? []).includes('http://hl7.org/fhir/us/davinci-drug-formulary/CapabilityStatement/usdf-server') ? undefined : 'usdf-server not instantiated'));
  await run.check('usdf_profile_support', () => {
    const types = new Set((cs.rest ?? []).flatMap((r: Json) => (r.resource ?? []).map((x: Json) => x.type)));
    const missing = ['InsurancePlan', 'Basic', 'MedicationKnowledge', 'Location'].filter((x) => !types.has(x));
    return missing.length ? `missing ${missing.join(', ')}` : undefined;
  });

  // The Location ids a tester gives: those the payer plans cover (read from a first look at the plans).
  const locationIds = [...new Set((await search('InsurancePlan', { status: 'active' })).resources.flatMap((p) => (p.coverageArea ?? []).map((a: Json) => String(a.reference).split('/').pop())))];

  for (const g of GROUPS) {
    const found: Json[] = [];
    const keep = (rs: Json[]) => rs.filter((r) => r.resourceType === g.type && (g.keep ? g.keep(r) : true));
    for (const st of g.searches) {
      await run.check(`usdf_v201_${g.key}_${st.id}_search_test`, async () => {
        const p = (name: string) => g.params[name]!;
        const paramSets: Record<string, string>[] = [];
        if (st.first) {
          const values = g.type === 'Location' ? locationIds : st.first;
          for (const v of values) paramSets.push({ [st.params[0]!]: v });
        } else {
          const params: Record<string, string> = {};
          for (const name of st.params) {
            const r = found.find((x) => valueOf(p(name), x, false));
            if (r) params[name] = valueOf(p(name), r, false)!;
          }
          if (Object.keys(params).length < st.params.length) return `skipped: no ${g.type} of this group has a value for ${st.params.join(', ')}`;
          paramSets.push(params);
        }
        let returned = 0;
        let variantsDone = false;
        for (const params of paramSets) {
          const res = await search(g.type, params);
          if (res.error) return res.error;
          const mine = keep(res.resources);
          if (!mine.length) continue;
          returned += mine.length;
          if (st.first) for (const r of mine) if (!found.some((x) => x.id === r.id)) found.push(r);
          for (const r of mine) for (const [name, v] of Object.entries(params)) {
            const why = mismatch(p(name), name, r, v);
            if (why) return why;
          }
          if (variantsDone) continue;
          variantsDone = true;
          if (st.post) {
            const post = await search(g.type, params, 'POST');
            if (keep(post.resources).length !== mine.length) return `POST _search returned ${keep(post.resources).length}, GET ${mine.length}`;
          }
          if (st.token) {
            const name = st.params[0]!;
            const r = found.find((x) => valueOf(p(name), x, true)) ?? mine.find((x) => valueOf(p(name), x, true));
            const withSystem = r && valueOf(p(name), r, true);
            if (withSystem && !(await search(g.type, { ...params, [name]: withSystem })).resources.length) return `no results searching by system|code (${withSystem})`;
          }
          if (st.refVariant) {
            const name = st.params[0]!;
            const v = params[name]!;
            const target = p(name).target!;
            const other = v.startsWith(`${target}/`) ? v.slice(target.length + 1) : `${target}/${v}`;
            const again = keep((await search(g.type, { ...params, [name]: other })).resources).length;
            if (again !== mine.length) return `${name}=${other} returned ${again}, ${v} ${mine.length}`;
          }
        }
        return returned ? undefined : `skipped: no ${g.type} resources returned`;
      });
    }
    for (const inc of g.includes) {
      await run.check(`usdf_v201_${g.key}_${inc.id}_search_test`, async () => {
        let any = false;
        for (const v of inc.values) {
          const res = await search(g.type, { [inc.first]: v, _include: inc.param });
          if (res.error) return res.error;
          const matches = res.entries.filter((e) => e.search?.mode === 'match' && e.resource?.resourceType === g.type).map((e) => e.resource);
          const included = res.entries.filter((e) => e.search?.mode === "include").map((e) => e.resource);
          for (const m of matches) {
            for (const ref of g.params[inc.lookUp]!.paths.flatMap((path) => resolvePath(m, path)) as Json[]) {
              if (!ref.reference) continue;
              any = true;
              const id = String(ref.reference).split('/').pop();
              if (!included.some((r) => r.id === id)) return `${ref.reference} referenced by ${g.type}/${m.id} was not included`;
            }
          }
        }
        return any ? undefined : `skipped: no ${g.type} with a ${inc.lookUp} reference`;
      });
    }
    await run.check(`usdf_v201_${g.key}_read_test`, async () => {
      if (!found.length) return `skipped: no ${g.type} found`;
      for (const r of found.slice(0, 10)) {
        const res = await get(`/v1/${g.type}/${r.id}`);
        if (res.status !== 200 || res.body.id !== r.id) return `read ${g.type}/${r.id}: HTTP ${res.status}`;
      }
      return undefined;
    });
    await run.check(`usdf_v201_${g.key}_validation_test`, () => (found.length ? found.flatMap((r) => validateAgainst(r as never, g.profile).map((e) => `${r.id}: ${e}`)).slice(0, 3).join('; ') || undefined : `skipped: no ${g.type} found`));
    await run.check(`usdf_v201_${g.key}_must_support_test`, () => {
      if (!found.length) return `skipped: no ${g.type} found`;
      const missing = missingMustSupport(g.profile, found);
      return missing.length ? `not seen in ${found.length} ${g.type}: ${missing.join(', ')}` : undefined;
    });
    if (g.references) {
      await run.check(`usdf_v201_${g.key}_reference_resolution_test`, async () => {
        for (const ref of g.references!) {
          const target = found.flatMap((r) => resolvePath(r, ref.path) as Json[]).find((x) => x.reference);
          if (!target) return `no ${ref.path} reference to resolve`;
          const res = await get(`/v1/${target.reference}`);
          if (res.status !== 200 || res.body.resourceType !== ref.type) return `${target.reference}: HTTP ${res.status}`;
        }
        return undefined;
      });
    }
  }
  return run;
}
