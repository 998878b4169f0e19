// PAS request Bundles for the workflow tests, built from the public PAS 2.2.1 example (test/examples) the way a test
// harness edits it: a new Bundle identifier and Claim identifier per request, items re-coded, documentation attached.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PAS_EXT } from '../../fhir-profiles/canonicals.js';
import type { CanonicalDoc, CoverageRuleDoc } from '../../src/domain/documents.js';
import { example, fhirCorpus, X12_1365 } from './fhir-corpus.js';
import { rule } from './docs.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The FHIR test corpus plus a rule that excludes a service (A3): MA Medicaid MCO, X12 1365 code 45. */
export function pasCorpus(): CanonicalDoc[] {
  const excluded: CoverageRuleDoc = rule({ state: 'MA', program: 'medicaid_mco', kind: 'service', code: 'skilled_nursing_facility', codes: [{ system: X12_1365, code: '45', display: 'Skilled nursing facility' }] });
  excluded.requirement.exclusion = { reason: 'Test exclusion: not a covered benefit of this program', citation: 'Test citation' };
  return [...fhirCorpus(), excluded];
}

export interface ItemSpec {
  code: string;
  system?: string;
  servicedPeriod?: { start: string; end: string };
}

/** A PAS request Bundle: the example with its own identifiers and the given items (X12 1365 codes by default). */
export function pasRequest(id: string, items: ItemSpec[], opts: { priority?: 'stat' | 'normal'; supporting?: Json[] } = {}): Json {
  const b = example('pas-2.2.1-claim-submit-request-bundle.json');
  b.identifier.value = `bundle-${id}`;
  const claim = b.entry[0].resource;
  claim.identifier[0].value = `claim-${id}`;
  const template = claim.item[0];
  claim.item = items.map((it, i) => {
    const item: Json = JSON.parse(JSON.stringify(template));
    item.sequence = i + 1;
    item.productOrService = { coding: [{ system: it.system ?? X12_1365, code: it.code }] };
    item.extension = item.extension.filter((e: Json) => e.url !== PAS_EXT.requestedService);
    delete item.servicedDate;
    if (it.servicedPeriod) item.servicedPeriod = it.servicedPeriod;
    return item;
  });
  if (opts.priority) claim.priority = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/processpriority', code: opts.priority }] };
  for (const [i, r] of (opts.supporting ?? []).entries()) {
    const fullUrl = `http://davinci-pas.org/fhir/${r.resourceType}/${r.id}`;
    b.entry.push({ fullUrl, resource: r });
    claim.supportingInfo.push({
      sequence: 100 + i,
      category: { coding: [{ system: 'http://hl7.org/fhir/us/davinci-pas/CodeSystem/PASTempCodes', code: 'additionalInformation' }] },
      valueReference: { reference: `${r.resourceType}/${r.id}` },
    });
  }
  return b;
}

/** A completed DTR QuestionnaireResponse for the rule's questionnaire answering documentation items 1..n. */
export function dtrResponse(id: string, questionnairePath: string, answered: number[]): Json {
  return {
    resourceType: 'QuestionnaireResponse',
    id,
    status: 'completed',
    questionnaire: `https://prauth.test/v1/dtr/questionnaire/${questionnairePath}|2026-11-01`,
    subject: { reference: 'Patient/SubscriberExample' },
    item: [{ linkId: 'documentation', item: answered.map((n) => ({ linkId: `documentation.${n}`, answer: [{ valueBoolean: true }] })) }],
  };
}

/** A PAS update of a stored request: related.claim names the preAuthRef; the prior Claim is left out. */
export function pasUpdate(base: Json, id: string, preAuthRef: string, mutate: (claim: Json) => void): Json {
  const b = JSON.parse(JSON.stringify(base));
  b.identifier.value = `bundle-${id}`;
  const claim = b.entry[0].resource;
  claim.identifier[0].value = `claim-${id}`;
  claim.related = [{ claim: { identifier: { system: 'urn:prauth:preauth-ref', value: preAuthRef } }, relationship: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/ex-relatedclaimrelationship', code: 'prior' }] } }];
  mutate(claim);
  return b;
}

/** The review action code of each item of a ClaimResponse: [[sequence, code], ...]. */
export const reviewCodes = (cr: Json): [number, string][] =>
  (cr.item ?? []).map((i: Json) => [
    i.itemSequence,
    // A cancelled item is answered without a reviewAction (PAS 2.2.1 spec-46: every submitted item's current result).
    i.adjudication[0].extension?.find((e: Json) => e.url === PAS_EXT.reviewAction).extension.find((e: Json) => e.url === PAS_EXT.reviewActionCode).valueCodeableConcept.coding[0].code ?? 'cancelled',
  ]);

/** A PAS Subscription as a harness sends it (full-resource unless told, filtered to the requesting organization). */
export function pasSubscription(endpoint: string, opts: { payload?: string; token?: string; org?: string; heartbeat?: number } = {}): Json {
  return {
    resourceType: 'Subscription',
    meta: { profile: ['http://hl7.org/fhir/us/davinci-pas/StructureDefinition/profile-subscription'] },
    status: 'requested',
    reason: 'Pended prior authorization results',
    criteria: 'http://hl7.org/fhir/us/davinci-pas/SubscriptionTopic/PASSubscriptionTopic',
    _criteria: { extension: [{ url: 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-filter-criteria', valueString: `org-identifier=${opts.org ?? '8189991234'}` }] },
    channel: {
      ...(opts.heartbeat ? { extension: [{ url: 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-heartbeat-period', valueUnsignedInt: opts.heartbeat }] } : {}),
      type: 'rest-hook',
      endpoint,
      payload: 'application/fhir+json',
      _payload: { extension: [{ url: 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-payload-content', valueCode: opts.payload ?? 'full-resource' }] },
      ...(opts.token ? { header: [`Authorization: Bearer ${opts.token}`] } : {}),
    },
  };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: Json;
}

/** A real notification endpoint on loopback: records every POST; answers `status()` (200 unless told). */
export async function startReceiver(status: () => number = () => 200): Promise<{ url: string; received: Received[]; close(): Promise<void>; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += String(c)));
    req.on('end', () => {
      const code = status();
      if (code < 300) received.push({ headers: req.headers, body: JSON.parse(data) });
      res.writeHead(code).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/notify`,
    received,
    server,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The SubscriptionStatus parameters of a notification as a name -> value map. */
export function statusOf(notification: Json): Record<string, unknown> {
  const params: Json[] = notification.entry[0].resource.parameter;
  const out: Record<string, unknown> = {};
  for (const p of params) out[p.name] = p.valueCode ?? p.valueString ?? p.valueCanonical ?? p.valueReference?.reference ?? p.valueCodeableConcept ?? p.part;
  return out;
}
