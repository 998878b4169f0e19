// The Da Vinci PAS server suite v2.2.1 (inferno-framework/davinci-pas-test-kit f78bf2c, lib/davinci_pas_test_kit/
// server/generated/v2.2.1/server_suite.rb), its 49 counted tests re-implemented over the kit's own preset request
// bodies (test/kit-requests/pas-kit-*.json), in the kit's order: subscription setup, approval, denial, pended (with the
// notification group), claim updates, must support ($submit and $inquire), errors. The kit's "USER INPUT VALIDATION"
// tests (the request Bundles and the Subscription it is given) check the tester's input, not the server: not counted.
// What each test asserts follows the kit's Ruby: claim_operation_logic.rb (status 200/201, a Bundle, Parameters for
// v2.2.1 $inquire), server_response_bundle_validation_test.rb (every response Bundle and its entries valid against
// the PAS profiles), pas_claim_response_decision_test.rb (an item carries the use case's X12 306 code: A1, A3, A4),
// claim_updates/server_claim_update_response_tests.rb (sequences echoed, every submitted item answered),
// must_support_test.rb (each must-support element seen in some resource of that type across the run's responses),
// error_tests/*.rb (the kit's nonconformant Bundle answered with a non-2xx OperationOutcome), and the Subscriptions
// Backport server tests the kit includes (creation response, handshake, event notification, full-resource payload).
import request from 'supertest';
import { PAS_PROFILE, PAS_SUBSCRIPTION_TOPIC } from '../../../fhir-profiles/canonicals.js';
import { kitBody } from '../kit-requests.js';
import { startReceiver, statusOf } from '../pas-requests.js';
import type { TestApp } from '../test-app.js';
import { validateAgainst, igContent } from '../ig-validate.js';
import { missingMustSupport } from './must-support.js';
import { KitRun } from './score.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const PAS = 'http://hl7.org/fhir/us/davinci-pas/StructureDefinition/';
const X12_306 = 'https://codesystem.x12.org/005010/306';

/** Errors of a resource against its declared profile when the packages hold it, else against base R4. */
function errorsOf(r: Json, fallback?: string): string[] {
  const declared = (r.meta?.profile ?? []).map((p: string) => p.split('|')[0]).find((p: string) => igContent().profiles.has(p));
  return validateAgainst(r as never, declared ?? fallback).map((e) => `${r.resourceType}/${r.id ?? '-'}: ${e}`);
}

/** The kit's bundle validation: the Bundle against its profile, then every entry against its own. */
function bundleErrors(b: Json, profile: string, claimResponseProfile: string): string[] {
  if (b?.resourceType !== 'Bundle') return [`not a Bundle: ${JSON.stringify(b).slice(0, 200)}`];
  return [...validateAgainst(b as never, profile), ...(b.entry ?? []).flatMap((e: Json, i: number) => errorsOf(e.resource, i === 0 ? claimResponseProfile : undefined))];
}

const hasAction = (b: Json, code: string): boolean =>
  (b.entry ?? []).some((e: Json) => e.resource?.resourceType === 'ClaimResponse' && (e.resource.item ?? []).some((i: Json) => JSON.stringify(i.adjudication ?? []).includes(`"system":"${X12_306}","code":"${code}"`)));

const returned = (p: Json): Json[] => (p?.parameter ?? []).map((x: Json) => x.resource).filter((r: Json) => r?.resourceType === 'Bundle');

/** Every resource of the responses, the Bundles themselves included (must_support_data_gathering.rb). */
const resourcesOf = (bundles: Json[]): Json[] => bundles.flatMap((b) => [b, ...(b.entry ?? []).map((e: Json) => e.resource)]);

/**
 * The kit asks the tester for request Bundles that the server approves, denies and pends. Its preset (made for the
 * PAS reference implementation) sends one service (X12 1365 `3`, consultation) for all three, which a rules engine
 * answers alike. `tester` gives the bodies as a tester of this server would: the preset's Bundles with the items'
 * service type changed to one the rules deny (`45`, excluded in the test corpus) or pend for documentation (`42`,
 * home health: PA required). Without it, the preset's bodies are sent unchanged.
 */
export interface PasKitInputs {
  denialServiceType?: string;
  pendedServiceType?: string;
}

function withServiceType(file: string, code: string | undefined): Json {
  const b = kitBody(file);
  if (!code) return b;
  for (const item of b.entry[0].resource.item) item.productOrService.coding[0] = { system: 'https://codesystem.x12.org/005010/1365', code };
  return b;
}

export async function runPasKit(t: TestApp, inputs: PasKitInputs = {}, label = 'PAS server v2.2.1'): Promise<KitRun> {
  const run = new KitRun(label);
  const key = await t.key({ name: 'pas-kit' });
  const admin = await t.key({ name: 'pas-kit-operator', admin: true });
  const post = async (path: string, body: Json): Promise<{ status: number; body: Json }> => {
    const res = await request(t.app.handler).post(path).set('x-api-key', key).set('content-type', 'application/fhir+json').send(JSON.stringify(body));
    return { status: res.status, body: res.body as Json };
  };
  const submits: Json[] = [];
  const inquiries: Json[] = [];
  const submit = async (file: string, code?: string): Promise<{ status: number; body: Json }> => {
    const res = await post('/v1/Claim/$submit', withServiceType(file, code));
    if (res.body?.resourceType === 'Bundle') submits.push(res.body);
    return res;
  };
  const operationOk = (res: { status: number; body: Json }, type: 'Bundle' | 'Parameters'): string | void => {
    if (![200, 201].includes(res.status)) return `HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`;
    if (res.body?.resourceType !== type) return `expected a ${type}, got ${res.body?.resourceType}`;
  };

  // --- Subscription setup ---
  const receiver = await startReceiver();
  try {
    const sub = kitBody('pas-kit-subscription.json');
    sub.channel.endpoint = receiver.url; // where the kit listens; the rest as the kit sends it
    const created = await post('/v1/Subscription', sub);
    await t.deps.outbox.drain();
    const handshake = receiver.received.find((r) => statusOf(r.body).type === 'handshake');
    await run.check('subscriptions_r4_server_notification_delivery', () => {
      if (!handshake) return 'no notification reached the endpoint';
      if (handshake.headers.authorization !== 'Bearer demo_execution') return 'the channel header was not sent';
      return undefined;
    });
    await run.check('subscriptions_r4_server_creation_response_conformance', () => {
      if (created.status !== 201 || created.body.resourceType !== 'Subscription') return `HTTP ${created.status} ${created.body.resourceType}`;
      if (!['requested', 'active'].includes(created.body.status)) return `status ${created.body.status}`;
      if (created.body.criteria !== PAS_SUBSCRIPTION_TOPIC) return 'criteria not kept';
      const errors = validateAgainst(created.body as never);
      if (errors.length) return errors.join('; ');
      return undefined;
    });
    await run.check('subscriptions_r4_server_handshake_conformance', () => {
      const b = handshake?.body;
      if (b?.resourceType !== 'Bundle' || b.type !== 'history') return 'the handshake is not a history Bundle';
      const s = statusOf(b);
      if (s.type !== 'handshake' || s.topic !== PAS_SUBSCRIPTION_TOPIC || !String(s.subscription ?? '').includes(created.body.id)) return `SubscriptionStatus ${JSON.stringify(s)}`;
      const errors = [...validateAgainst(b as never), ...validateAgainst(b.entry[0].resource as never)];
      if (errors.length) return errors.join('; ');
      return undefined;
    });

    // --- Approval, denial, pended (the preset gives the approval and the denial the same Bundle) ---
    const cases: [string, string, string, string | undefined][] = [
      ['approval', 'pas-kit-approval-submit.json', 'A1', undefined],
      ['denial', 'pas-kit-approval-submit.json', 'A3', inputs.denialServiceType],
      ['pended', 'pas-kit-pended-submit.json', 'A4', inputs.pendedServiceType],
    ];
    let pended: Json | undefined;
    for (const [useCase, file, code, serviceType] of cases) {
      const res = await submit(file, serviceType);
      if (useCase === 'pended') pended = res.body;
      await run.check(`pas_v221_claim_submit_operation_test_${useCase}`, () => operationOk(res, 'Bundle'));
      await run.check(`pas_server_v221_pas_response_bundle_validation_test_${useCase}`, () => bundleErrors(res.body, PAS_PROFILE.responseBundle, PAS_PROFILE.claimResponse).join('; ') || undefined);
      await run.check(`pas_server_v221_decision_validation_test_${useCase}`, () => (hasAction(res.body, code) ? undefined : `no item carries ${code} (${useCase}); items: ${JSON.stringify((res.body.entry?.[0]?.resource?.item ?? []).map((i: Json) => JSON.stringify(i.adjudication).match(/"code":"(A\d)"/)?.[1] ?? 'none'))}`));
    }
    // The pended request decided (the kit waits for the tester to have the payer decide it), then notified.
    const ref = pended?.entry?.[0]?.resource?.preAuthRef;
    if (ref) await request(t.app.handler).post(`/v1/admin/pas/${ref}/decide`).set('x-api-key', admin).send({ decision: 'approve' });
    await t.deps.outbox.drain();
    const event = receiver.received.find((r) => statusOf(r.body).type === 'event-notification');
    await run.check('pas_server_v221_subscription_notification_wait_pended', () => (event ? undefined : 'no event notification after the pended request was decided'));
    await run.check('pas_server_v221_subscription_notification_conformance_pended', () => {
      const b = event?.body;
      if (b?.resourceType !== 'Bundle' || b.type !== 'history') return 'not a history Bundle';
      const s = statusOf(b);
      if (s.type !== 'event-notification' || !s['notification-event']) return `SubscriptionStatus ${JSON.stringify(s).slice(0, 200)}`;
      const errors = [...validateAgainst(b as never), ...validateAgainst(b.entry[0].resource as never)];
      if (errors.length) return errors.join('; ');
      return undefined;
    });
    await run.check('pas_server_v221_subscription_notification_full_resource_conformance_pended', () => {
      const b = event?.body;
      const focus = JSON.stringify(statusOf(b ?? { entry: [{ resource: { parameter: [] } }] })['notification-event'] ?? '').match(/"reference":"([^"]+)"/)?.[1];
      if (!focus) return 'no focus in the notification event';
      if (!(b?.entry ?? []).slice(1).some((e: Json) => e.fullUrl === focus && e.resource)) return `the focus ${focus} is not in the notification`;
      return undefined;
    });
    await run.check('pas_server_v221_notification_pas_conformance_pended', () => {
      const focus = event?.body?.entry?.[1]?.resource;
      return bundleErrors(focus, PAS_PROFILE.responseBundle, PAS_PROFILE.claimResponse).join('; ') || undefined;
    });
  } finally {
    await receiver.close();
  }

  // --- Claim updates ---
  const steps: [string, string][] = [
    ['initial', 'pas-kit-update-initial.json'],
    ['add_item', 'pas-kit-update-add-item.json'],
    ['modify_cancel', 'pas-kit-update-modify-cancel.json'],
    ['cancel_all', 'pas-kit-update-cancel-all.json'],
  ];
  const sequences: { label: string; sent: number[]; answered: number[] }[] = [];
  for (const [step, file] of steps) {
    const res = await submit(file);
    sequences.push({ label: step, sent: kitBody(file).entry[0].resource.item.map((i: Json) => i.sequence), answered: (res.body.entry?.[0]?.resource?.item ?? []).map((i: Json) => i.itemSequence) });
    await run.check(`pas_server_v221_claim_update_submit_${step}`, () => operationOk(res, 'Bundle'));
    await run.check(`pas_server_v221_claim_update_response_validation_${step}`, () => bundleErrors(res.body, PAS_PROFILE.responseBundle, PAS_PROFILE.claimResponse).join('; ') || undefined);
  }
  await run.check('pas_server_v221_claim_update_item_sequence_echo_test', () => sequences.map((s) => (s.answered.filter((n) => !s.sent.includes(n)).length ? `${s.label}: ${s.answered} not all sent` : '')).filter(Boolean).join('; ') || undefined);
  await run.check('pas_server_v221_claim_update_current_results_test', () => sequences.map((s) => (s.sent.filter((n) => !s.answered.includes(n)).length ? `${s.label}: sent ${s.sent}, answered ${s.answered}` : '')).filter(Boolean).join('; ') || undefined);

  // --- Must support: $submit ---
  const ms1 = await submit('pas-kit-must-support-submit-1.json');
  const ms2 = await submit('pas-kit-must-support-submit-2.json');
  await run.check('pas_v221_claim_submit_operation_test_must_support', () => operationOk(ms1, 'Bundle') ?? operationOk(ms2, 'Bundle'));
  await run.check('pas_server_v221_submit_response_bundle_validation_test_must_support', () => [ms1, ms2].flatMap((r) => bundleErrors(r.body, PAS_PROFILE.responseBundle, PAS_PROFILE.claimResponse)).join('; ') || undefined);
  const msCheck = (id: string, type: string, profileUrl: string, bundles: Json[]) =>
    run.check(id, () => {
      const of = resourcesOf(bundles).filter((r) => r?.resourceType === type && (type !== 'Bundle' || bundles.includes(r)));
      if (!of.length) return `no ${type} in the responses`;
      const missing = missingMustSupport(profileUrl, of);
      return missing.length ? `not seen in ${of.length} ${type}: ${missing.join(', ')}` : undefined;
    });
  const responseProfiles: [string, string, string][] = [
    ['pas_response_bundle', 'Bundle', PAS_PROFILE.responseBundle],
    ['claimresponse', 'ClaimResponse', PAS_PROFILE.claimResponse],
    ['communication_request', 'CommunicationRequest', `${PAS}profile-communicationrequest`],
    ['insurer', 'Organization', `${PAS}profile-insurer`],
    ['requestor', 'Organization', `${PAS}profile-requestor`],
    ['beneficiary', 'Patient', `${PAS}profile-beneficiary`],
    ['practitioner', 'Practitioner', `${PAS}profile-practitioner`],
    ['practitioner_role', 'PractitionerRole', `${PAS}profile-practitionerrole`],
    ['task', 'Task', `${PAS}profile-task`],
  ];
  for (const [k, type, url] of responseProfiles) await msCheck(`pas_server_v221_submit_response_must_support_${k}`, type, url, submits);

  // --- Must support: $inquire ---
  const inq = await post('/v1/Claim/$inquire', kitBody('pas-kit-must-support-inquire.json'));
  inquiries.push(...returned(inq.body));
  await run.check('pas_v221_claim_inquire_operation_test_must_support', () => operationOk(inq, 'Parameters'));
  await run.check('pas_server_v221_inquire_response_bundle_validation_test_must_support', () => {
    if (!inquiries.length) return 'no Bundle returned';
    return inquiries.flatMap((b) => bundleErrors(b, PAS_PROFILE.inquiryResponseBundle, PAS_PROFILE.claimInquiryResponse)).join('; ') || undefined;
  });
  const inquiryProfiles: [string, string, string][] = [
    ['pas_inquiry_response_bundle', 'Bundle', PAS_PROFILE.inquiryResponseBundle],
    ['claiminquiryresponse', 'ClaimResponse', PAS_PROFILE.claimInquiryResponse],
    ...responseProfiles.filter(([k]) => ['insurer', 'requestor', 'beneficiary', 'practitioner', 'practitioner_role', 'task'].includes(k)),
  ];
  for (const [k, type, url] of inquiryProfiles) await msCheck(`pas_server_v221_inquire_response_must_support_${k}`, type, url, inquiries);

  // --- Errors: the kit's nonconformant Bundle (no entries) ---
  for (const [id, op] of [
    ['pas_server_v221_prior_auth_submission_error', 'submit'],
    ['pas_server_v221_prior_auth_inquiry_error', 'inquire'],
  ] as const) {
    const res = await post(`/v1/Claim/$${op}`, kitBody('pas-kit-nonconformant-bundle.json'));
    await run.check(id, () => (res.status >= 200 && res.status < 300 ? `HTTP ${res.status}` : res.body?.resourceType !== 'OperationOutcome' ? `a ${res.body?.resourceType}` : undefined));
  }
  return run;
}
