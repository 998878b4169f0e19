// The acceptance policy for every FHIR and CDS body (docs/fhir.md, "Acceptance of incoming bodies"), on the running
// service with the bundled sample corpus, driven by real clients: fhir-kit-client for the FHIR operations, CDS Hooks
// calls with an API key or signed as the CRD reference implementation's request generator signs them.
//   - The public request fixtures of the Inferno kits and the Da Vinci reference implementations (test/kit-requests)
//     are accepted and answered as the kits send them, or refused naming what they cannot be processed without.
//   - Property (fast-check): a value of the wrong JSON type in an element the operation reads is a 400 naming it; in
//     an element nobody reads it is a warning and the request is answered; removing what an operation cannot do
//     without is a 400 naming it; nothing gives a 500.
//   - null on an optional field is absent; Bundle.entry.request and Bundle.total in collection Bundles and base-R4
//     cardinality in unread elements are warnings, logged by kind and count and returned as OperationOutcome
//     warnings where the operation returns one.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Client } from 'fhir-kit-client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DTR_PROFILE, PAS_PROFILE } from '../../fhir-profiles/canonicals.js';
import { loadConfig } from '../../src/config.js';
import { FHIR_DECLS } from '../../src/api/registry.js';
import { CDS_SERVICES } from '../../src/api/cds-services.js';
import { isDefinedElement } from '../../src/fhir/shape/json-shape.js';
import { isRead, type ReadSet } from '../../src/fhir/shape/reads.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/service.js';
import { orderSignMedicareE0250 } from '../support/crd-requests.js';
import { expectValidCrdResponse } from '../support/crd-response.js';
import { expectValidFhir } from '../support/fhir-validate.js';
import { expectValid } from '../support/ig-validate.js';
import { KIT_REQUESTS, kitBody, type KitRequest, type KitTarget } from '../support/kit-requests.js';
import { RI_GENERATOR_REQUESTS } from '../support/ri-crd-requests.js';
import { registerCdsEhr, serveJwks, type JwksServer } from '../support/smart.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

const serviceFor = (hook: unknown): string => (CDS_SERVICES.find((s) => s.hook === hook) ?? CDS_SERVICES[0]!).id;
const OPERATION: Record<Exclude<KitTarget, 'cds' | 'subscription'>, { resourceType: string; name: string; id: string }> = {
  submit: { resourceType: 'Claim', name: '$submit', id: 'fhir-claim-submit' },
  inquire: { resourceType: 'Claim', name: '$inquire', id: 'fhir-claim-inquire' },
  package: { resourceType: 'Questionnaire', name: '$questionnaire-package', id: 'fhir-questionnaire-package' },
};
/** What each target reads, from the registry (the same declarations the routes take their read sets from). */
function readsOf(to: KitTarget): ReadSet {
  if (to === 'cds') return CDS_SERVICES[0]!.reads;
  const id = to === 'subscription' ? 'fhir-subscription-create' : OPERATION[to].id;
  const d = FHIR_DECLS.find((x) => x.id === id) as { reads?: ReadSet } | undefined;
  return d!.reads!;
}

/** Every path of a JSON value with the resource type and element path (from the innermost resource) it is in. */
interface Spot {
  path: (string | number)[];
  type: string;
  element: string[];
  value: unknown;
}
function spots(v: unknown, at: (string | number)[] = [], type = '', element: string[] = [], out: Spot[] = []): Spot[] {
  // A resource is where its container puts it (Bundle entry.resource, a CDS context field); its elements are its own.
  if (at.length) out.push({ path: at, type, element, value: v });
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Any).resourceType === 'string') (type = (v as Any).resourceType), (element = []);
  if (Array.isArray(v)) v.forEach((x, i) => spots(x, [...at, i], type, element, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (k !== 'resourceType') spots(x, [...at, k], type, [...element, k], out);
  return out;
}
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
function setAt(root: Any, path: (string | number)[], value: unknown): Any {
  const copy = clone(root);
  let node: Any = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  node[path[path.length - 1]!] = value;
  return copy;
}
function deleteAt(root: Any, path: (string | number)[]): Any {
  const copy = clone(root);
  let node: Any = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  delete node[path[path.length - 1]!];
  return copy;
}
/**
 * A value of another JSON type than `v`: a number for a string, an object for a number or boolean, a string for an
 * object; for a list, a lone value of another kind than its items (a lone value of the same kind is read as a
 * one-item list, by design).
 */
const wrongType = (v: unknown): unknown =>
  typeof v === 'string' ? 12345 : typeof v === 'number' || typeof v === 'boolean' ? { x: 'y' } : Array.isArray(v) && v.some((x) => x === null || typeof x !== 'object') ? { x: 'y' } : 'not-an-object';

describe('acceptance of incoming bodies: one policy for every FHIR and CDS body (kits, reference implementations, properties)', function () {
  this.timeout(600_000);
  let svc: RunningService;
  let dir: string;
  let key: string;
  let client: Client;
  let jwks: JwksServer;
  const lines: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prauth-accept-'));
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', PRAUTH_DATA_DIR: dir, LOG_LEVEL: 'info', PUBLIC_BASE_URL: 'https://prauth.test', CRD_EHR_TIMEOUT_MS: '300' });
    svc = await startService(config, createLogger('info', new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) })));
    key = (await svc.deps.keys.create({ name: 'kits' })).key;
    client = await fhirClient(key);
    jwks = await serveJwks();
  });
  after(async () => {
    await jwks?.close();
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function fhirClient(k: string): Promise<Client> {
    const { Client: FhirClient } = await import('fhir-kit-client');
    return new FhirClient({ baseUrl: `${svc.url}/v1`, customHeaders: { 'x-api-key': k } });
  }
  const keyFor = async (sub?: KitRequest['subscription']): Promise<string> => (sub ? (await svc.deps.keys.create({ name: 'kit-client', states: sub.states, programs: sub.programs })).key : key);

  /** A FHIR call through fhir-kit-client: the body, or the status and OperationOutcome of a refusal. */
  async function fhir(to: Exclude<KitTarget, 'cds'>, body: unknown, c: Client = client): Promise<{ status: number; body: Any }> {
    try {
      const out = to === 'subscription' ? await c.create({ resourceType: 'Subscription', body: body as never }) : await c.operation({ name: OPERATION[to].name, resourceType: OPERATION[to].resourceType, input: body as never });
      return { status: to === 'subscription' ? 201 : 200, body: out as Any };
    } catch (err) {
      const r = (err as { response?: { status: number; data: Any } }).response;
      if (!r) throw err;
      return { status: r.status, body: r.data };
    }
  }
  async function cds(body: Any, headers: Record<string, string> = { 'x-api-key': key }, id = serviceFor(body.hook)): Promise<{ status: number; body: Any }> {
    const res = await fetch(`${svc.url}/v1/cds-services/${id}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Any };
  }
  const send = (to: KitTarget, body: Any, c?: Client) => (to === 'cds' ? cds(body) : fhir(to, body, c));
  /** The element a refusal names (FHIR: the first issue's expression; CDS: the first issue's). */
  const named = (body: Any): string => body.issue?.[0]?.expression?.[0] ?? body.issues?.[0]?.expression ?? '';

  /** What "answered" means per target, with every emitted resource validated against the IG packages. */
  function expectAnswered(to: KitTarget, req: Any, res: { status: number; body: Any }, label: string): void {
    const b = res.body;
    expect(res.status, `${label}: ${JSON.stringify(b).slice(0, 400)}`).to.be.oneOf([200, 201]);
    if (to === 'cds') {
      expect(b.cards.length, `${label}: a card for what was asked`).to.be.greaterThan(0);
      expectValidCrdResponse(b, req);
    } else if (to === 'submit') {
      expect(b.resourceType).to.equal('Bundle');
      const cr = b.entry[0].resource;
      expect(cr.resourceType).to.equal('ClaimResponse');
      expectValid(b as never, PAS_PROFILE.responseBundle, label);
      expectValid(cr, PAS_PROFILE.claimResponse, label);
      const claim = req.resourceType === 'Claim' ? req : req.entry[0].resource;
      const answered = new Set<number>((cr.item ?? []).map((i: Any) => i.itemSequence));
      // Every item of the request is answered (itemSequence), unless the request cancels it or says why not (error).
      for (const item of claim.item) {
        const cancelled = JSON.stringify(item.modifierExtension ?? []).includes('infoCancelled') || JSON.stringify(claim.extension ?? []).includes('"code":"3"');
        if (!cancelled && !cr.error) expect([...answered], `${label}: item ${item.sequence}`).to.include(item.sequence);
      }
    } else if (to === 'inquire') {
      expect(b.resourceType).to.equal('Parameters');
      for (const p of b.parameter ?? []) {
        expectValid(p.resource, PAS_PROFILE.inquiryResponseBundle, label);
        expectValid(p.resource.entry[0].resource, PAS_PROFILE.claimInquiryResponse, label);
      }
    } else if (to === 'subscription') {
      expect(b.resourceType).to.equal('Subscription');
      expect(b.status).to.equal('requested');
      expectValidFhir(b);
    } else {
      expect(b.resourceType).to.equal('Parameters');
      expectValid(b as never, DTR_PROFILE.outputParameters, label);
      expect(b.parameter.filter((p: Any) => p.name === 'PackageBundle').length, label).to.be.greaterThan(0);
    }
  }

  describe("the kits' and reference implementations' requests, as the kits send them", () => {
    it(`when each of the ${KIT_REQUESTS.length} fixtures is sent in order, then it is answered, or refused naming the element it cannot do without`, async () => {
      const tally = { answered: 0, refused: 0 };
      for (const k of KIT_REQUESTS) {
        const req = kitBody(k.file);
        const res = await send(k.to, req, k.subscription ? await fhirClient(await keyFor(k.subscription)) : undefined);
        if (k.scopeGap) {
          expect(res.status, k.file).to.equal(404);
          expect(res.body.issue[0].details.coding[0].code, k.file).to.equal('scope_gap');
          expectValidFhir(res.body);
          tally.answered++;
        } else if (k.refused) {
          expect(res.status, `${k.file}: ${JSON.stringify(res.body).slice(0, 300)}`).to.equal(400);
          expect(named(res.body), k.file).to.equal(k.refused.expression);
          tally.refused++;
        } else {
          expectAnswered(k.to, req, res, k.file);
          tally.answered++;
        }
      }
      expect(tally).to.deep.equal({ answered: KIT_REQUESTS.filter((k) => !k.refused).length, refused: KIT_REQUESTS.filter((k) => k.refused).length });
    });

    it('when the CRD reference implementation request generator sends its ten requests, signed as it signs them, then each is answered with cards', async () => {
      const ehr = await registerCdsEhr({ deps: svc.deps } as never, jwks);
      for (const [label, build] of RI_GENERATOR_REQUESTS) {
        const req = build();
        const id = serviceFor(req.hook);
        const jwt = await ehr.sign(`https://prauth.test/v1/cds-services/${id}`);
        const res = await cds(req, { authorization: `Bearer ${jwt}` }, id);
        expect(res.status, `${label}: ${JSON.stringify(res.body).slice(0, 300)}`).to.equal(200);
        expect(res.body.cards.length, label).to.be.greaterThan(0);
        expectValidCrdResponse(res.body, req);
      }
    });
  });
  describe('the policy, case by case', () => {
    /** The accepted-with-warnings log line of one request (by its x-request-id): kinds and counts only. */
    const warningLog = (reqId: string): Any | undefined =>
      lines.map((l) => JSON.parse(l) as Any).find((l) => l.reqId === reqId && l.msg === 'request body problems accepted as warnings');
    const cdsWithId = async (body: Any, reqId: string) => cds(body, { 'x-api-key': key, 'x-request-id': reqId });

    it('when a CDS request sends null for fhirAuthorization, fhirServer and context.encounterId (as the CRD reference implementation does), then they are absent: answered with coverage information, logged as 3 null warnings', async () => {
      const req = orderSignMedicareE0250();
      Object.assign(req, { fhirAuthorization: null, fhirServer: null });
      req.context.encounterId = null;
      const res = await cdsWithId(req, 'accept-nulls-1');
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
      expect(res.body.systemActions).to.have.length(1);
      expectValidCrdResponse(res.body, req);
      expect(warningLog('accept-nulls-1')?.bodyWarnings).to.deep.equal({ null: 3 });
    });

    it('when draftOrders is a collection Bundle whose entries carry request, and appointments a collection Bundle with total (the CRD kit), then answered; bdl-3 and bdl-1 are logged as invariant warnings', async () => {
      const req = orderSignMedicareE0250();
      req.context.draftOrders.entry[0].request = { method: 'POST', url: 'DeviceRequest' };
      const res = await cdsWithId(req, 'accept-bdl-3');
      expect(res.status).to.equal(200);
      expect(res.body.systemActions).to.have.length(1);
      expect(warningLog('accept-bdl-3')?.bodyWarnings).to.deep.equal({ invariant: 1 });
      const appt = kitBody('crd-kit-appointment-book-1.json');
      expect(appt.context.appointments.total, 'the kit sends Bundle.total on a collection').to.be.a('number');
      const res2 = await cdsWithId(appt, 'accept-bdl-1');
      expect(res2.status).to.equal(200);
      expect(warningLog('accept-bdl-1')?.bodyWarnings.invariant).to.be.greaterThan(0);
    });

    it('when a prefetched Coverage lacks elements base R4 requires (status, beneficiary) and the draftOrders Bundle its type, then answered; logged as cardinality warnings', async () => {
      const req = orderSignMedicareE0250();
      delete req.prefetch.coverage.entry[0].resource.status;
      delete req.prefetch.coverage.entry[0].resource.beneficiary;
      delete req.context.draftOrders.type;
      const res = await cdsWithId(req, 'accept-cardinality');
      expect(res.status).to.equal(200);
      expect(res.body.systemActions).to.have.length(1);
      // Without Bundle.type, bdl-3 (entry.request only in batch/transaction/history) cannot be evaluated true either.
      expect(warningLog('accept-cardinality')?.bodyWarnings).to.deep.equal({ cardinality: 3, invariant: 1 });
    });

    it('when a body is refused, then its OperationOutcome lists the errors first and the warnings after, and the log line counts the warnings but names nothing of the body', async () => {
      const b = kitBody('pas-kit-pended-submit.json');
      b.entry[0].resource.item[0].productOrService.coding[0].code = 3;
      b.entry[0].resource.zzLocalFlag = true;
      const res = await fetch(`${svc.url}/v1/Claim/$submit`, { method: 'POST', headers: { 'content-type': 'application/fhir+json', 'x-api-key': key, 'x-request-id': 'accept-refused-1' }, body: JSON.stringify(b) });
      const oo = (await res.json()) as Any;
      expect(res.status).to.equal(400);
      expect(oo.issue.map((i: Any) => i.severity)).to.deep.equal(['error', 'warning']);
      expect(oo.issue[0].expression).to.deep.equal(['Bundle.entry[0].resource.item[0].productOrService.coding[0].code']);
      expect(oo.issue[1]).to.deep.include({ code: 'structure', expression: ['Bundle.entry[0].resource.zzLocalFlag'] });
      expectValidFhir(oo);
      const log = warningLog('accept-refused-1');
      expect(log).to.deep.include({ refused: true, bodyWarnings: { 'unknown-element': 1 } });
      expect(JSON.stringify(log)).to.not.contain('zzLocalFlag');
    });

    it('when a $questionnaire-package request is accepted with warnings, then they come back in the output operationOutcome (DTR 2.0.1 allows it), the package valid against the DTR profile', async () => {
      const p = kitBody('dtr-kit-preset-static-request.json');
      p.parameter[0].resource.zzLocalFlag = 'x';
      p.parameter[0].resource.period = null;
      const c = await fhirClient(await keyFor({ states: ['MA'], programs: ['medicare_traditional'] }));
      const res = await fhir('package', p, c);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
      expectValid(res.body as never, DTR_PROFILE.outputParameters);
      const outcome = res.body.parameter.find((x: Any) => x.name === 'operationOutcome')?.resource;
      const structure = outcome.issue.filter((i: Any) => i.code === 'structure');
      expect(structure.map((i: Any) => [i.severity, i.expression[0]])).to.deep.equal([
        ['warning', 'Parameters.parameter[0].resource.period'],
        ['warning', 'Parameters.parameter[0].resource.zzLocalFlag'],
      ]);
      expectValidFhir(outcome);
    });
  });

  describe('properties (fast-check over the fixtures above)', () => {
    /** Fixtures answered with a 2xx by a key without restrictions: the bases the properties mutate. */
    const answered = KIT_REQUESTS.filter((k) => !k.refused && !k.scopeGap && !k.subscription);
    /** Expression names without indexes, from the body's root (`Bundle.entry[0].resource.item` -> entry.resource.item). */
    const namesOf = (expression: string, cdsBody: boolean): string[] =>
      expression
        .replace(/\[x\]/g, '*')
        .replace(/\[[^\]]*\]/g, '')
        .split('.')
        .slice(cdsBody ? 0 : 1);
    /** One name path lies along the other (`value*` is a choice element: valueCodeableConcept...). */
    const same = (rawX: string, rawK: string): boolean => {
      // A primitive's extensions (_payload) may be named with the primitive (payload).
      const [x, k] = [rawX.replace(/^_/, ''), rawK.replace(/^_/, '')];
      return x.endsWith('*') ? k.startsWith(x.slice(0, -1)) : x === k;
    };
    const related = (a: string[], b: string[]): boolean => a.every((x, i) => b[i] === undefined || same(x, b[i]!)) || b.every((k, i) => a[i] === undefined || same(a[i]!, k));
    const keysOf = (path: (string | number)[]): string[] => path.filter((k): k is string => typeof k === 'string');

    it('when one element inside a resource gets a value of the wrong JSON type, then a 400 naming it where the operation reads it, else the request is answered (never a 500)', async () => {
      const cases = answered.flatMap((k) => {
        const body = kitBody(k.file);
        return spots(body).filter((s) => s.type !== '' && s.value !== null).map((s) => ({ k, s }));
      });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...cases), async ({ k, s }) => {
          const body = setAt(kitBody(k.file), s.path, wrongType(s.value));
          const res = await send(k.to, body);
          // An element R4 does not define (an EHR's own, or a typo) has no type to be wrong against: nobody reads it.
          // order-dispatch's context.task is a resource no CRD service reads (it answers for context.order), so none of
          // its elements is read, its id included (src/fhir/shape/check-body.ts lists the context fields read).
          const unreadContainer = k.to === 'cds' && s.path[0] === 'context' && s.path[1] === 'task';
          const read = !unreadContainer && isRead(readsOf(k.to), s.type, s.element) && isDefinedElement(s.type, s.element);
          const where = `${k.file} ${s.path.join('.')} (${s.type} ${s.element.join('.')}, ${read ? 'read' : 'not read'})`;
          if (read) {
            expect(res.status, `${where}: ${JSON.stringify(res.body).slice(0, 300)}`).to.equal(400);
            const errors: string[] = k.to === 'cds' ? (res.body.issues ?? []).map((i: Any) => i.expression) : res.body.issue.filter((i: Any) => i.severity === 'error').map((i: Any) => i.expression?.[0] ?? '');
            expect(errors.some((e) => related(namesOf(e, k.to === 'cds'), keysOf(s.path))), `${where}: ${errors.join(', ')}`).to.equal(true);
          } else {
            expect(res.status, `${where}: ${JSON.stringify(res.body).slice(0, 300)}`).to.be.oneOf([200, 201]);
          }
        }),
        { numRuns: RUNS * 4 },
      );
    });

    it('when any element of a fixture (envelope included) is replaced by any JSON value or removed, then never a 500', async () => {
      const cases = answered.flatMap((k) => spots(kitBody(k.file)).map((s) => ({ k, path: s.path })));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...cases), fc.option(fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant([null]), fc.constant({})), { nil: undefined }), async ({ k, path }, value) => {
          const body = value === undefined ? deleteAt(kitBody(k.file), path) : setAt(kitBody(k.file), path, value);
          const res = await send(k.to, body);
          expect(res.status, `${k.file} ${path.join('.')}: ${JSON.stringify(res.body).slice(0, 300)}`).to.be.below(500);
        }),
        { numRuns: RUNS * 4 },
      );
    });

    /** The context element each hook asks about (CDS Hooks: required). */
    const ASKED: Record<string, string> = { 'order-sign': 'draftOrders', 'order-select': 'draftOrders', 'order-dispatch': 'order', 'appointment-book': 'appointments', 'encounter-start': 'encounterId', 'encounter-discharge': 'encounterId' };
    /** What each operation cannot do without: removing it is a 400 naming it (the operations' own checks). */
    const REQUIRED: Record<KitTarget, (body: Any) => { path: (string | number)[]; expression: string }[]> = {
      cds: (b) => [
        { path: ['hook'], expression: 'hook' },
        { path: ['hookInstance'], expression: 'hookInstance' },
        { path: ['context'], expression: 'context' },
        { path: ['context', ASKED[b.hook]!], expression: `context.${ASKED[b.hook]}` },
      ],
      submit: () => ['use', 'patient', 'provider', 'item'].map((n) => ({ path: ['entry', 0, 'resource', n], expression: `Bundle.entry[0].resource.${n}` })),
      inquire: () => ['patient', 'insurer', 'provider'].map((n) => ({ path: ['entry', 0, 'resource', n], expression: `Bundle.entry[0].resource.${n}` })),
      subscription: () => [
        { path: ['criteria'], expression: 'Subscription.criteria' },
        { path: ['channel'], expression: 'Subscription.channel' },
        { path: ['channel', 'endpoint'], expression: 'Subscription.channel.endpoint' },
      ],
      package: () => [],
    };

    it('when an element the operation cannot do without is removed, then a 400 naming it', async () => {
      const cases = answered.flatMap((k) => {
        const body = kitBody(k.file);
        // The prior request an update names may be stored already: removing its items is then still a 400.
        return REQUIRED[k.to](body)
          .filter((r) => r.path.reduce<unknown>((n, key) => (n as Any)?.[key], body) !== undefined)
          .map((r) => ({ k, r }));
      });
      expect(cases.length).to.be.greaterThan(50);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...cases), async ({ k, r }) => {
          const res = await send(k.to, deleteAt(kitBody(k.file), r.path));
          expect(res.status, `${k.file} without ${r.path.join('.')}: ${JSON.stringify(res.body).slice(0, 300)}`).to.equal(400);
          expect(named(res.body), `${k.file} without ${r.path.join('.')}`).to.equal(r.expression);
        }),
        { numRuns: RUNS * 2 },
      );
    });
  });
});
