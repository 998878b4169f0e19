// PAS 2.2.1 subscriptions (FHIR R4 Subscriptions Backport): the Subscription a client posts, checked and read into
// our terms, and the notification Bundles (handshake, heartbeat, event-notification, $status) built from stored
// state. Pure: no store, no clock, no network.
import { BACKPORT_EXT, BACKPORT_PROFILE, PAS_SUBSCRIPTION_TOPIC } from '../../fhir-profiles/canonicals.js';
import { uuidFrom } from './ids.js';
import type { Failure } from './outcome.js';
import type { Bundle, BundleEntry, Parameters, ParametersParameter, Subscription } from './r4.js';
import { isRecord } from '../domain/json.js';

/** Headers a notification's HTTP client sets itself: a Subscription may not give them (docs/pas.md). */
const RESERVED_HEADERS: ReadonlySet<string> = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'content-type', 'content-encoding', 'expect', 'proxy-connection']);

export type PayloadContent = 'empty' | 'id-only' | 'full-resource';
export type SubscriptionStatusCode = 'requested' | 'active' | 'error' | 'off';
export type NotificationType = 'handshake' | 'heartbeat' | 'event-notification' | 'query-status';

export interface SubscriptionRequest {
  endpoint: string;
  /** channel.header values ("Name: value"), sent with every notification. */
  headers: string[];
  contentType: string;
  payload: PayloadContent;
  /** The requesting organization's identifier (filter `org-identifier` / `orgIdentifier`). */
  orgIdentifier: string | null;
  heartbeatSeconds: number | null;
  timeoutSeconds: number | null;
  /** The end that applies: a future Subscription.end, else none (a past end is kept in `resource` only). */
  end: string | null;
  resource: Subscription;
}

const bad = (message: string, expression: string): Failure => ({ status: 400, code: 'invalid_body', message, expression });

/** A Subscription for the PAS topic with a rest-hook channel; anything we cannot honour is refused (400), never altered silently. */
export function parseSubscription(body: unknown, now: Date): SubscriptionRequest | Failure {
  if (!isRecord(body) || body.resourceType !== 'Subscription') return bad('Send a Subscription resource as application/fhir+json', 'Subscription');
  const s = body as unknown as Subscription & { _criteria?: { extension?: { url?: string; valueString?: string }[] } };
  if (s.criteria !== PAS_SUBSCRIPTION_TOPIC) return bad(`Only the PAS topic is supported: Subscription.criteria must be ${PAS_SUBSCRIPTION_TOPIC}`, 'Subscription.criteria');
  const ch = s.channel;
  if (!isRecord(ch)) return bad('Subscription.channel is required', 'Subscription.channel');
  if (ch.type !== 'rest-hook') return bad(`Only rest-hook channels are supported (got '${String(ch.type)}')`, 'Subscription.channel.type');
  let url: URL;
  try {
    url = new URL(String(ch.endpoint ?? ''));
  } catch {
    return bad('Subscription.channel.endpoint must be an absolute http(s) URL', 'Subscription.channel.endpoint');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return bad('Subscription.channel.endpoint must be an absolute http(s) URL', 'Subscription.channel.endpoint');
  const contentType = ch.payload ?? 'application/fhir+json';
  if (!['application/fhir+json', 'application/json'].includes(contentType)) return bad(`Notifications are sent as application/fhir+json (got '${contentType}')`, 'Subscription.channel.payload');
  const payloadExt = ((ch as { _payload?: { extension?: { url?: string; valueCode?: string }[] } })._payload?.extension ?? []).find((e) => e.url === BACKPORT_EXT.payloadContent);
  const payload = (payloadExt?.valueCode ?? 'full-resource') as PayloadContent;
  if (!['empty', 'id-only', 'full-resource'].includes(payload)) return bad(`Unknown payload content '${payload}' (empty, id-only or full-resource)`, 'Subscription.channel.payload.extension');
  const headers = ch.header ?? [];
  if (!Array.isArray(headers) || headers.some((h) => typeof h !== 'string' || !/^[A-Za-z0-9-]+:\s?.+$/.test(h) || /[\r\n]/.test(h))) {
    return bad('Each Subscription.channel.header must be "Name: value"', 'Subscription.channel.header');
  }
  // Headers the HTTP client sets itself (framing, host, the notification's own type): refused rather than sent wrong,
  // dropped or left to override the payload's content type.
  const owned = headers.map((h) => h.split(':')[0]!.trim().toLowerCase()).find((n) => RESERVED_HEADERS.has(n));
  if (owned) return bad(`Subscription.channel.header '${owned}' is set by the service for each notification and cannot be given`, 'Subscription.channel.header');
  let orgIdentifier: string | null = null;
  for (const f of s._criteria?.extension ?? []) {
    if (f.url !== BACKPORT_EXT.filterCriteria) continue;
    const m = /^(org-identifier|orgIdentifier)=(\S+)$/.exec(f.valueString ?? '');
    if (!m) return bad(`Unsupported filter '${String(f.valueString).slice(0, 80)}': the PAS topic filters by org-identifier=<identifier>`, 'Subscription.criteria.extension');
    if (orgIdentifier && orgIdentifier !== m[2]) return bad('Only one org-identifier filter per Subscription', 'Subscription.criteria.extension');
    orgIdentifier = m[2]!;
  }
  const chExt = (ch.extension ?? []) as { url?: string; valueUnsignedInt?: number; valuePositiveInt?: number }[];
  const heartbeat = chExt.find((e) => e.url === BACKPORT_EXT.heartbeatPeriod)?.valueUnsignedInt ?? null;
  if (heartbeat !== null && (!Number.isInteger(heartbeat) || heartbeat < 1 || heartbeat > 86_400)) return bad('The heartbeat period must be 1 to 86400 seconds', 'Subscription.channel.extension');
  const timeout = chExt.find((e) => e.url === BACKPORT_EXT.timeout)?.valueUnsignedInt ?? null;
  if (timeout !== null && (!Number.isInteger(timeout) || timeout < 1 || timeout > 120)) return bad('The timeout must be 1 to 120 seconds', 'Subscription.channel.extension');
  const given = typeof s.end === 'string' ? s.end : null;
  if (given !== null && Number.isNaN(new Date(given).getTime())) return bad('Subscription.end must be an instant (e.g. 2027-01-01T00:00:00Z)', 'Subscription.end');
  // An end already past when the Subscription is created is not a request to stop before starting: the PAS test kit
  // sends end 2020-12-31 on the Subscription it expects notifications on. Such an end is kept in the resource as sent
  // and not applied; a future end is applied (delivery stops then).
  const end = given !== null && new Date(given) > now ? given : null;
  return { endpoint: url.toString(), headers, contentType, payload, orgIdentifier, heartbeatSeconds: heartbeat, timeoutSeconds: timeout, end, resource: s };
}

/** What a stored subscription looks like to the projections. */
export interface SubscriptionView {
  id: string;
  status: SubscriptionStatusCode;
  eventsSinceStart: number;
  /** Public base address (without /v1) recorded when the subscription was made. */
  base: string;
  lastError: string | null;
  resource: Subscription;
}

export const subscriptionUrl = (v: Pick<SubscriptionView, 'base' | 'id'>): string => `${v.base}/v1/Subscription/${v.id}`;

/** The Subscription as the server holds it (id, status, error). */
export function toSubscriptionResource(v: SubscriptionView): Subscription {
  return {
    ...v.resource,
    id: v.id,
    status: v.status,
    ...(v.lastError && v.status === 'error' ? { error: v.lastError } : {}),
  };
}

export interface NotificationEvent {
  eventNumber: number;
  timestamp: string;
  /** The focus: a PAS response Bundle (full-resource), a ClaimResponse URL (id-only), nothing (empty). */
  focusBundle?: Bundle;
  focusUrl?: string;
}

/** SubscriptionStatus (backport-subscription-status-r4). */
export function toSubscriptionStatus(v: SubscriptionView, type: NotificationType, events: { eventNumber: number; timestamp: string; focus?: string }[] = []): Parameters {
  const parameter: ParametersParameter[] = [
    { name: 'subscription', valueReference: { reference: subscriptionUrl(v) } },
    { name: 'topic', valueCanonical: PAS_SUBSCRIPTION_TOPIC },
    { name: 'status', valueCode: v.status },
    { name: 'type', valueCode: type },
    { name: 'events-since-subscription-start', valueString: String(v.eventsSinceStart) },
    ...events.map((e) => ({
      name: 'notification-event',
      part: [
        { name: 'event-number', valueString: String(e.eventNumber) },
        { name: 'timestamp', valueInstant: e.timestamp },
        ...(e.focus ? [{ name: 'focus', valueReference: { reference: e.focus } }] : []),
      ],
    })),
    ...(v.lastError && type === 'query-status' ? [{ name: 'error', valueCodeableConcept: { text: v.lastError } }] : []),
  ];
  return { resourceType: 'Parameters', meta: { profile: [BACKPORT_PROFILE.status] }, parameter };
}

/** A notification Bundle (history): the SubscriptionStatus first, then the focus per the payload content. */
export function toNotificationBundle(v: SubscriptionView, payload: PayloadContent, type: Exclude<NotificationType, 'query-status'>, now: string, event?: NotificationEvent): Bundle {
  const entries: BundleEntry[] = [];
  let focus: string | undefined;
  if (event && type === 'event-notification') {
    if (payload === 'full-resource' && event.focusBundle) {
      focus = `urn:uuid:${event.focusBundle.id}`;
      entries.push({ fullUrl: focus, resource: event.focusBundle, request: { method: 'GET', url: event.focusUrl ?? focus }, response: { status: '200' } });
    } else if (payload === 'id-only' && event.focusUrl) {
      focus = event.focusUrl;
      entries.push({ fullUrl: focus, request: { method: 'GET', url: focus }, response: { status: '200' } });
    }
  }
  const status = toSubscriptionStatus(v, type, event && type === 'event-notification' ? [{ eventNumber: event.eventNumber, timestamp: event.timestamp, ...(focus ? { focus } : {}) }] : []);
  const seed = `${v.id}|${type}|${event?.eventNumber ?? now}`;
  return {
    resourceType: 'Bundle',
    id: uuidFrom(`notification|${seed}`),
    meta: { profile: [BACKPORT_PROFILE.notification] },
    type: 'history',
    timestamp: now,
    entry: [
      { fullUrl: `urn:uuid:${uuidFrom(`status|${seed}`)}`, resource: status, request: { method: 'GET', url: `${subscriptionUrl(v)}/$status` }, response: { status: '200' } },
      ...entries,
    ],
  };
}

/** $status answer: a searchset Bundle with the SubscriptionStatus. */
export function toStatusBundle(v: SubscriptionView, now: string): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    timestamp: now,
    total: 1,
    entry: [{ fullUrl: `urn:uuid:${uuidFrom(`query-status|${v.id}|${now}`)}`, resource: toSubscriptionStatus(v, 'query-status'), search: { mode: 'match' } }],
  };
}
