// Da Vinci PAS 2.2.1 declarations: Claim/$submit and $inquire over the stored PAS workflow, ClaimResponse read
// (the id-only notification focus), and Subscriptions for pended results (R4 Subscriptions Backport).
import approvalSubmit from '../examples/pas-kit-approval-submit.json' with { type: 'json' };
import pasSubscription from '../examples/pas-kit-subscription.json' with { type: 'json' };
import { PAS_OPERATION, PAS_PROFILE, PAS_SUBSCRIPTION_TOPIC, SUBSCRIPTION_TOPIC_CANONICAL_EXT } from '../../../fhir-profiles/canonicals.js';
import { queryHints, type FhirDecl, type FhirOperationDecl, type FhirPathDecl, type OpEnv } from '../decl-types.js';
import { isFailure } from '../../fhir/outcome.js';
import { PAS_READS, SUBSCRIPTION_READS } from '../../fhir/shape/reads.js';

const hintParams = [
  { name: 'state', description: 'Optional: the member state (else the claim jurisdiction, the patient address, the payer, or the key subscription when it names one state)' },
  { name: 'program', description: 'Optional: the program (else Coverage.class naming a program, an SOPT Coverage.type, the payer, or the key subscription when it names one program)' },
];

const claimSubmit: FhirOperationDecl = {
  kind: 'operation',
  id: 'fhir-claim-submit',
  resourceType: 'Claim',
  name: 'submit',
  definition: PAS_OPERATION.submit,
  auth: 'key',
  example: { body: approvalSubmit },
  // The response Bundle's first entry is the ClaimResponse (id = preAuthRef, meta.versionId its version).
  links: {
    claimResponse: { operationId: 'fhir-claimresponse-read', parameters: { id: '$response.body#/entry/0/resource/id' }, description: 'Read the ClaimResponse of this request' },
    claimResponseVersion: {
      operationId: 'fhir-claimresponse-vread',
      parameters: { id: '$response.body#/entry/0/resource/id', vid: '$response.body#/entry/0/resource/meta/versionId' },
      description: 'Read this version of the ClaimResponse',
    },
  },
  reads: PAS_READS,
  queryParams: hintParams,
  summary: 'PAS (2.2.1) Claim/$submit',
  description:
    'Body: a PAS request Bundle (first entry a Claim with use=preauthorization, every referenced resource included; an update names the prior request in related.claim and leaves it out) or a bare Claim. Stored, then answered with a response Bundle whose first entry is a ClaimResponse: each item echoes itemSequence with a reviewAction from the rules (A1 certified, with a certification period when the attached documentation covers the rule; A3 not certified with the reason when the rule excludes the service; A4 pended naming the missing documentation) and the preAuthRef. Business problems (state or program unknown, no Coverage, unknown prior request) are ClaimResponse.error entries; 400 only for a body that is not a PAS request. The same Bundle again gives the same authorization in its current state.',
  capability: [{ type: 'Claim', supportedProfile: [PAS_PROFILE.claim, PAS_PROFILE.claimUpdate, PAS_PROFILE.claimInquiry], documentation: 'The $submit and $inquire operations; no read or search of Claims.' }],
  async run(input, env) {
    const hints = queryHints(input.query);
    if (isFailure(hints)) return hints;
    return env.pas.submit(env.caller, input.body, hints);
  },
};

const claimInquire: FhirOperationDecl = {
  kind: 'operation',
  id: 'fhir-claim-inquire',
  resourceType: 'Claim',
  name: 'inquire',
  definition: PAS_OPERATION.inquire,
  auth: 'key',
  reads: PAS_READS,
  queryParams: [],
  summary: 'PAS (2.2.1) Claim/$inquire',
  description:
    'Body: a PAS inquiry request Bundle (first entry a Claim naming patient, insurer and provider). Matches your own stored requests by the Claim identifier (or the preAuthRef), else by member id plus provider identifier, narrowed by item codes (not-applicable means any). Answers Parameters with one `return` inquiry response Bundle per match, in its current state (none: empty Parameters).',
  async run(input, env) {
    return env.pas.inquire(env.caller, input.body);
  },
};

const claimResponseRead: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-claimresponse-read',
  path: '/v1/ClaimResponse/:id',
  pathParams: [{ name: 'id', description: 'The preAuthRef' }],
  auth: 'key',
  summary: 'Read a PAS ClaimResponse (current version)',
  description: 'The current ClaimResponse of one of your own stored requests (id = preAuthRef; meta.versionId counts the changes).',
  capability: [{ type: 'ClaimResponse', supportedProfile: [PAS_PROFILE.claimResponse], interaction: [{ code: 'read' }, { code: 'vread' }], documentation: 'Your own PAS responses by preAuthRef; every decision is a new version.' }],
  async run(input, env) {
    const cr = await env.pas.read(env.caller, input.params.id ?? '');
    return cr ? { body: cr } : { status: 404, code: 'not_found', message: `No ClaimResponse ${String(input.params.id).slice(0, 40)} among your requests`, expression: 'id' };
  },
};

const claimResponseVread: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-claimresponse-vread',
  path: '/v1/ClaimResponse/:id/_history/:vid',
  pathParams: [
    { name: 'id', description: 'The preAuthRef' },
    { name: 'vid', description: 'The version (1 = the answer to the submission)' },
  ],
  auth: 'key',
  summary: 'Read one version of a PAS ClaimResponse',
  description: 'A past version of one of your own PAS responses (the focus of id-only notifications).',
  capability: [{ type: 'ClaimResponse' }],
  async run(input, env) {
    const v = Number(input.params.vid);
    if (!Number.isInteger(v) || v < 1) return { status: 400, code: 'invalid_parameter', message: 'The version must be a positive integer', expression: 'vid' };
    const cr = await env.pas.read(env.caller, input.params.id ?? '', v);
    return cr ? { body: cr } : { status: 404, code: 'not_found', message: `No version ${v} of ClaimResponse ${String(input.params.id).slice(0, 40)} among your requests`, expression: 'vid' };
  },
};

const subscriptionCreate: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-subscription-create',
  method: 'POST',
  reads: SUBSCRIPTION_READS,
  path: '/v1/Subscription',
  pathParams: [],
  example: { body: pasSubscription },
  links: {
    read: { operationId: 'fhir-subscription-read', parameters: { id: '$response.body#/id' }, description: 'Read the Subscription created' },
    status: { operationId: 'fhir-subscription-status', parameters: { id: '$response.body#/id' }, description: 'Its $status' },
  },
  auth: 'key',
  summary: 'Create a PAS Subscription (R4 Subscriptions Backport, rest-hook)',
  description:
    'Body: a Subscription for the PAS topic (criteria), a rest-hook channel (endpoint, optional header, heartbeat period and timeout extensions), payload content full-resource, id-only or empty, optional filter org-identifier=<the requesting organization identifier>. 201 with status requested; a handshake notification follows, then event notifications for each new ClaimResponse version of your own requests (decisions, updates, cancellations), and heartbeats when asked. Delivery is retried with backoff and survives restarts.',
  capability: [
    {
      type: 'Subscription',
      supportedProfile: [PAS_PROFILE.subscription],
      interaction: [{ code: 'create' }, { code: 'read' }],
      extension: [{ url: SUBSCRIPTION_TOPIC_CANONICAL_EXT, valueCanonical: PAS_SUBSCRIPTION_TOPIC }],
      operation: [{ name: 'status', definition: 'http://hl7.org/fhir/uv/subscriptions-backport/OperationDefinition/backport-subscription-status' }],
      documentation: 'PAS pended-result notifications: rest-hook only; full-resource, id-only or empty payloads; filter org-identifier.',
    },
  ],
  async run(input, env) {
    const out = await env.subscriptions.create(env.caller.owner, input.body, env.base);
    if (isFailure(out)) return out;
    return { body: out.body, status: 201, headers: { Location: `${env.base}/v1/Subscription/${out.body.id}` } };
  },
};

/** Whose Subscriptions a caller may read: its own, or every one for a caller that sees all (the operator). */
const subscriptionOwner = (env: OpEnv): string | null => (env.caller.all ? null : env.caller.owner);
const NO_SUBSCRIPTION = { status: 404, code: 'not_found', message: 'No such Subscription among yours', expression: 'id' } as const;

const subscriptionRead: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-subscription-read',
  path: '/v1/Subscription/:id',
  pathParams: [{ name: 'id', description: 'Subscription id' }],
  auth: 'key',
  summary: 'Read one of your Subscriptions',
  description: 'The Subscription with its current status (requested until the handshake is delivered, then active; error with the reason when delivery keeps failing).',
  capability: [{ type: 'Subscription' }],
  async run(input, env) {
    const s = await env.subscriptions.read(subscriptionOwner(env), input.params.id ?? '');
    return s ? { body: s } : NO_SUBSCRIPTION;
  },
};

const subscriptionStatus: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-subscription-status',
  path: '/v1/Subscription/:id/$status',
  pathParams: [{ name: 'id', description: 'Subscription id' }],
  auth: 'key',
  summary: 'Subscription $status',
  description: 'A searchset Bundle with the SubscriptionStatus (status, events since start, last delivery error).',
  capability: [{ type: 'Subscription' }],
  async run(input, env) {
    const b = await env.subscriptions.status(subscriptionOwner(env), input.params.id ?? '');
    return b ? { body: b } : NO_SUBSCRIPTION;
  },
};

export const PAS_DECLS: readonly FhirDecl[] = [claimSubmit, claimInquire, claimResponseRead, claimResponseVread, subscriptionCreate, subscriptionRead, subscriptionStatus];
