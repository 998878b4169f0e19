// The Da Vinci CRD server suite (inferno-framework/davinci-crd-test-kit 1d1f2c4, crd_server_suite.rb), its counted
// tests re-implemented over the kit's preset request bodies (test/kit-requests/crd-kit-*.json, from
// config/presets/ri_crd_server.json.erb), sent as the kit sends them: signed ES384 CDS Hooks JWTs with a jku.
// Counted: the tests that check the server and are required where they sit: discovery (TLS, endpoint, services),
// "demonstrate a hook response" (call, response), each hook group's required tests (call, response, coverage
// information received, coverage information valid) and the three across-hooks tests. Not counted: the request
// validation tests (they check the tester's bodies) and the tests the kit marks optional inside each hook group
// (card optional fields, the card-type tests), which the across-hooks tests sum up.
// Assertions follow server_tests/*.rb: service_call_test (HTTP 200 for each body), service_response_validation_test
// (cards and system actions valid per CDS Hooks and CRD; test/support/crd-response.ts), coverage_information_
// system_action_received_test (an update action on the hook's own resource type carrying ext-coverage-information),
// coverage_information_system_action_validation_test (type update, the resource valid against its CRD profile, one
// coverage-assertion-id per coverage, distinct across coverages), cards_identification.rb (external reference: every
// link absolute; instructions: no links, no suggestions), discovery_*_test.rb (200 JSON; each service has hook,
// description, id; prefetch an object when present).
import request from 'supertest';
import { CRD_EXT, CRD_PROFILE } from '../../../fhir-profiles/canonicals.js';
import { CDS_SERVICES } from '../../../src/api/cds-services.js';
import { expectValidCrdResponse } from '../crd-response.js';
import { validateAgainst } from '../ig-validate.js';
import { kitBody } from '../kit-requests.js';
import { registerCdsEhr, type JwksServer } from '../smart.js';
import type { TestApp } from '../test-app.js';
import { KitRun } from './score.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HOOKS: [string, string[]][] = [
  ['appointment-book', ['crd-kit-appointment-book-1.json', 'crd-kit-appointment-book-2.json']],
  ['encounter-start', ['crd-kit-encounter-start.json']],
  ['encounter-discharge', ['crd-kit-encounter-discharge.json']],
  ['order-select', ['crd-kit-order-select-1.json', 'crd-kit-order-select-2.json']],
  ['order-dispatch', ['crd-kit-order-dispatch-1.json', 'crd-kit-order-dispatch-2.json']],
  ['order-sign', ['crd-kit-order-sign-1.json', 'crd-kit-order-sign-2.json']],
];
const ORDERS = ['DeviceRequest', 'MedicationRequest', 'NutritionOrder', 'ServiceRequest', 'VisionPrescription'];
const TARGETS: Record<string, string[]> = { 'appointment-book': ['Appointment'], 'encounter-start': ['Encounter'], 'encounter-discharge': ['Encounter'], 'order-sign': ORDERS, 'order-select': ORDERS, 'order-dispatch': ORDERS };

const isCoverageInfo = (a: Json): boolean => (a.resource?.extension ?? []).some((e: Json) => e.url === CRD_EXT.coverageInformation);
const sub = (ext: Json, url: string): unknown => (ext.extension ?? []).find((s: Json) => s.url === url)?.valueString ?? (ext.extension ?? []).find((s: Json) => s.url === url)?.valueReference?.reference;

/** coverage_information_system_action_validation_test, for one action: a reason it fails, or undefined. */
function coverageInfoProblem(a: Json): string | undefined {
  if (a.type !== 'update') return `type ${a.type}, not update`;
  const profile = CRD_PROFILE[a.resource.resourceType as keyof typeof CRD_PROFILE];
  const errors = validateAgainst(a.resource as never, profile);
  if (errors.length) return `${a.resource.resourceType}/${a.resource.id}: ${errors.slice(0, 3).join('; ')}`;
  const byCoverage = new Map<string, Json[]>();
  for (const e of a.resource.extension.filter((x: Json) => x.url === CRD_EXT.coverageInformation)) {
    const cov = String(sub(e, 'coverage') ?? '');
    byCoverage.set(cov, [...(byCoverage.get(cov) ?? []), e]);
  }
  const seen = new Set<unknown>();
  for (const [cov, exts] of byCoverage) {
    const ids = [...new Set(exts.map((e) => sub(e, 'coverage-assertion-id')))];
    if (ids.length !== 1) return `coverage ${cov}: ${ids.length} coverage-assertion-ids`;
    if (seen.has(ids[0])) return 'one coverage-assertion-id across coverages';
    seen.add(ids[0]);
  }
  return undefined;
}

export async function runCrdKit(t: TestApp, jwks: JwksServer, tls: () => Promise<string | undefined>): Promise<KitRun> {
  const run = new KitRun('CRD server');
  const ehr = await registerCdsEhr(t, jwks);
  const base = t.deps.config.publicBaseUrl!;
  const call = async (body: Json): Promise<{ status: number; body: Json }> => {
    const id = (CDS_SERVICES.find((s) => s.hook === body.hook) ?? CDS_SERVICES[0]!).id;
    const jwt = await ehr.sign(`${base}/v1/cds-services/${id}`);
    const res = await request(t.app.handler).post(`/v1/cds-services/${id}`).set('authorization', `Bearer ${jwt}`).set('content-type', 'application/json').send(JSON.stringify(body));
    return { status: res.status, body: res.body as Json };
  };
  const allOk = (rs: { status: number; body: Json }[]): string | undefined => rs.map((r, i) => (r.status === 200 ? '' : `request ${i + 1}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`)).filter(Boolean).join('; ') || undefined;
  const responsesValid = (reqs: Json[], rs: { status: number; body: Json }[]): string | undefined => {
    if (!rs.some((r) => r.status === 200)) return 'no successful request';
    const bad = allOk(rs);
    if (bad) return bad;
    rs.forEach((r, i) => expectValidCrdResponse(r.body, reqs[i]!));
    return undefined;
  };

  // --- Discovery ---
  await run.check('crd_server_tls_version_stu2', tls);
  const disc = await request(t.app.handler).get('/v1/cds-services');
  await run.check('crd_discovery_endpoint_test', () => (disc.status === 200 && typeof disc.body === 'object' ? undefined : `HTTP ${disc.status}`));
  await run.check('crd_discovery_services_validation', () => {
    const services = disc.body?.services;
    if (!Array.isArray(services) || !services.length) return 'no services';
    for (const s of services as Json[]) {
      for (const f of ['hook', 'description', 'id']) if (typeof s[f] !== 'string') return `service ${s.id}: ${f}`;
      if (s.prefetch !== undefined && (typeof s.prefetch !== 'object' || Array.isArray(s.prefetch))) return `service ${s.id}: prefetch`;
    }
    return undefined;
  });

  // --- Demonstrate a hook response (the preset's any-hook body) ---
  const anyReq = kitBody('crd-kit-any-hook.json');
  const anyRes = await call(anyReq);
  await run.check('crd_service_call_test (demonstrate)', () => allOk([anyRes]));
  await run.check('crd_service_response_validation (demonstrate)', () => responsesValid([anyReq], [anyRes]));

  // --- Each hook ---
  const cardsByHook = new Map<string, Json[]>();
  const ciValidByHook = new Map<string, boolean>();
  for (const [hook, files] of HOOKS) {
    const reqs = files.map((f) => kitBody(f));
    const rs: { status: number; body: Json }[] = [];
    for (const r of reqs) rs.push(await call(r));
    cardsByHook.set(hook, rs.flatMap((r) => (r.status === 200 ? (r.body.cards ?? []) : [])));
    const actions = rs.flatMap((r) => (r.status === 200 ? (r.body.systemActions ?? []) : [])).filter((a: Json) => TARGETS[hook]!.includes(a.resource?.resourceType) && isCoverageInfo(a));
    await run.check(`crd_service_call_test (${hook})`, () => allOk(rs));
    await run.check(`crd_service_response_validation (${hook})`, () => responsesValid(reqs, rs));
    await run.check(`crd_coverage_info_system_action_received (${hook})`, () => (actions.length ? undefined : `no coverage information system action on ${TARGETS[hook]!.join('/')}`));
    await run.check(`crd_coverage_info_system_action_validation (${hook})`, () => {
      if (!actions.length) return 'no coverage information system action to validate';
      const problem = actions.map(coverageInfoProblem).find(Boolean);
      ciValidByHook.set(hook, !problem);
      return problem;
    });
  }

  // --- Across hooks ---
  const cards = [...cardsByHook.values()].flat();
  await run.check('crd_external_reference_card_across_hooks_validation', () => (cards.some((c) => c.links?.length && c.links.every((l: Json) => l.type === 'absolute')) ? undefined : 'no External Reference card in any hook'));
  await run.check('crd_valid_instructions_card_received_across_hooks', () => (cards.some((c) => !c.links?.length && !c.suggestions?.length) ? undefined : 'no Instructions card in any hook'));
  await run.check('crd_coverage_info_system_action_across_hooks_validation', () => ([...ciValidByHook.values()].some(Boolean) ? undefined : 'no hook returned valid coverage information'));
  return run;
}
