// PAS subscriptions (R4 Subscriptions Backport, rest-hook): stored on the store port, handshake on creation,
// heartbeats, and an event notification for each new ClaimResponse version of the subscriber's own requests.
// Every notification is a message on the shared durable outbox: a failed POST is retried with backoff and a restart
// resumes the delivery. The notification body is built at delivery time from stored state, so the outbox holds ids.
import { randomUUID } from 'node:crypto';
import type { Failure } from '../../fhir/outcome.js';
import type { Bundle, Subscription } from '../../fhir/r4.js';
import {
  parseSubscription,
  subscriptionUrl,
  toNotificationBundle,
  toStatusBundle,
  toSubscriptionResource,
  type PayloadContent,
  type SubscriptionStatusCode,
  type SubscriptionView,
} from '../../fhir/subscription.js';
import { isFailure } from '../../fhir/outcome.js';
import type { DocumentStore } from '../../store/port.js';
import type { DeferredWork, PasEvent } from './contract.js';
import { PAS_COLLECTIONS } from './store.js';
import type { OutboundCheck } from '../../domain/outbound.js';

export interface SubscriptionDoc {
  id: string;
  owner: string;
  status: SubscriptionStatusCode;
  endpoint: string;
  headers: string[];
  contentType: string;
  payload: PayloadContent;
  orgIdentifier: string | null;
  heartbeatSeconds: number | null;
  timeoutSeconds: number | null;
  end: string | null;
  eventsSinceStart: number;
  base: string;
  createdAt: string;
  lastSentAt: string | null;
  /** When the last heartbeat was queued: a quiet period counts from it too, so a heartbeat still in the outbox is not queued twice. */
  heartbeatQueuedAt?: string;
  lastError: string | null;
  resource: Subscription;
}

export const NOTIFY_KIND = 'pas.subscription-notification';

interface NotifyMessage {
  subscriptionId: string;
  type: 'handshake' | 'heartbeat' | 'event-notification';
  eventNumber?: number;
  preAuthRef?: string;
  version?: number;
  at: string;
}

export interface SubscriptionDeps {
  store: DocumentStore;
  now: () => Date;
  outbox: DeferredWork;
  /** The PAS response Bundle of a stored version (the full-resource focus). */
  responseBundle: (preAuthRef: string, version: number) => Promise<Bundle | null>;
  /** Sends one notification; the default is fetch. Throws (or returns a non-2xx status) to have it retried. */
  post?: (url: string, headers: Record<string, string>, body: string, timeoutMs: number) => Promise<number>;
  onError?: (err: unknown) => void;
  /** Why an endpoint may not be called (OUTBOUND_DENY), checked at create and before each delivery; none: any. */
  outbound?: OutboundCheck;
}

export interface SubscriptionService {
  create(owner: string, body: unknown, base: string): Promise<{ body: Subscription } | Failure>;
  read(owner: string | null, id: string): Promise<Subscription | null>;
  status(owner: string | null, id: string): Promise<Bundle | null>;
  /** Announces a new ClaimResponse version to the owner's matching subscriptions. */
  publish(event: PasEvent): Promise<void>;
  /** Starts the heartbeat check (the delivery handler is registered on the outbox when the service is built). */
  start(heartbeatCheckMs: number): void;
  stop(): void;
}

const viewOf = (d: SubscriptionDoc): SubscriptionView => ({ id: d.id, status: d.status, eventsSinceStart: d.eventsSinceStart, base: d.base, lastError: d.lastError, resource: d.resource });

async function fetchPost(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  await res.arrayBuffer().catch(() => undefined);
  return res.status;
}

export function createSubscriptionService(deps: SubscriptionDeps): SubscriptionService {
  const subs = deps.store.collection<SubscriptionDoc>(PAS_COLLECTIONS.subscriptions);
  const post = deps.post ?? fetchPost;
  deps.outbox.handle(NOTIFY_KIND, deliver);
  let timer: NodeJS.Timeout | undefined;
  const live = (d: SubscriptionDoc, now: Date) => (d.status === 'requested' || d.status === 'active') && (!d.end || new Date(d.end) > now);

  async function deliver(payload: unknown): Promise<void> {
    const msg = payload as NotifyMessage;
    const sub = await subs.findOne({ id: msg.subscriptionId });
    if (!sub || sub.status === 'off' || (sub.end && new Date(sub.end) <= deps.now())) return; // gone or ended: drop
    let event;
    if (msg.type === 'event-notification' && msg.preAuthRef && msg.version) {
      const focusUrl = `${sub.base}/v1/ClaimResponse/${msg.preAuthRef}/_history/${msg.version}`;
      const focusBundle = sub.payload === 'full-resource' ? ((await deps.responseBundle(msg.preAuthRef, msg.version)) ?? undefined) : undefined;
      event = { eventNumber: msg.eventNumber ?? 0, timestamp: msg.at, focusUrl, ...(focusBundle ? { focusBundle } : {}) };
    }
    // An event notification reports the count as of its own event, whatever was published after it.
    const view = msg.type === 'event-notification' && msg.eventNumber ? { ...viewOf(sub), eventsSinceStart: msg.eventNumber } : viewOf(sub);
    const bundle = toNotificationBundle(view, sub.payload, msg.type, deps.now().toISOString(), event);
    const headers: Record<string, string> = { 'content-type': sub.contentType === 'application/json' ? 'application/json' : 'application/fhir+json' };
    for (const h of sub.headers) {
      const i = h.indexOf(':');
      headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
    }
    // Checked again at each delivery: a name may point elsewhere now than when the Subscription was created.
    const refused = await deps.outbound?.(sub.endpoint);
    if (refused) {
      await subs.update({ id: sub.id }, { lastError: `delivery refused: ${refused}` });
      return; // not retried: the endpoint stays refused until the operator's policy changes
    }
    let status: number;
    try {
      status = await post(sub.endpoint, headers, JSON.stringify(bundle), (sub.timeoutSeconds ?? 10) * 1000);
    } catch (err) {
      await subs.update({ id: sub.id }, { lastError: `delivery failed: ${(err as Error).name}` });
      throw err;
    }
    if (status < 200 || status >= 300) {
      await subs.update({ id: sub.id }, { lastError: `endpoint answered HTTP ${status}` });
      throw new Error(`notification endpoint answered HTTP ${status}`);
    }
    const at = deps.now().toISOString();
    await subs.update({ id: sub.id }, { lastSentAt: at, lastError: null, ...(msg.type === 'handshake' && sub.status === 'requested' ? { status: 'active' as const } : {}) });
  }

  async function heartbeats(): Promise<void> {
    const now = deps.now();
    for (const s of await subs.find({ status: 'active' })) {
      if (!s.heartbeatSeconds || !live(s, now)) continue;
      const last = Math.max(...[s.lastSentAt, s.heartbeatQueuedAt, s.createdAt].filter((t): t is string => !!t).map((t) => new Date(t).getTime()));
      if (now.getTime() - last < s.heartbeatSeconds * 1000) continue;
      const slot = Math.floor(now.getTime() / (s.heartbeatSeconds * 1000));
      await subs.update({ id: s.id }, { heartbeatQueuedAt: now.toISOString() });
      await deps.outbox.enqueue({ kind: NOTIFY_KIND, payload: { subscriptionId: s.id, type: 'heartbeat', at: now.toISOString() } satisfies NotifyMessage, dedupeKey: `${NOTIFY_KIND}:hb:${s.id}:${slot}` });
    }
  }

  return {
    async create(owner, body, base) {
      const now = deps.now();
      const req = parseSubscription(body, now);
      if (isFailure(req)) return req;
      const refused = await deps.outbound?.(req.endpoint);
      if (refused) return { status: 400, code: 'invalid_body', message: `Subscription.channel.endpoint cannot be used: ${refused}`, expression: 'Subscription.channel.endpoint' };
      const doc: SubscriptionDoc = {
        id: randomUUID(),
        owner,
        status: 'requested',
        endpoint: req.endpoint,
        headers: req.headers,
        contentType: req.contentType,
        payload: req.payload,
        orgIdentifier: req.orgIdentifier,
        heartbeatSeconds: req.heartbeatSeconds,
        timeoutSeconds: req.timeoutSeconds,
        end: req.end,
        eventsSinceStart: 0,
        base,
        createdAt: now.toISOString(),
        lastSentAt: null,
        lastError: null,
        resource: req.resource,
      };
      await subs.insert(doc);
      await deps.outbox.enqueue({ kind: NOTIFY_KIND, payload: { subscriptionId: doc.id, type: 'handshake', at: doc.createdAt } satisfies NotifyMessage, dedupeKey: `${NOTIFY_KIND}:handshake:${doc.id}` });
      return { body: toSubscriptionResource(viewOf(doc)) };
    },

    async read(owner, id) {
      const d = await subs.findOne({ id });
      return d && (owner === null || d.owner === owner) ? toSubscriptionResource(viewOf(d)) : null;
    },

    async status(owner, id) {
      const d = await subs.findOne({ id });
      return d && (owner === null || d.owner === owner) ? toStatusBundle(viewOf(d), deps.now().toISOString()) : null;
    },

    async publish(event) {
      const now = deps.now();
      for (const s of await subs.find({ owner: event.owner })) {
        if (!live(s, now)) continue;
        if (s.orgIdentifier && !event.orgIdentifiers.includes(s.orgIdentifier)) continue;
        const eventNumber = await subs.increment(s.id, 'eventsSinceStart', 1, {});
        await deps.outbox.enqueue({
          kind: NOTIFY_KIND,
          payload: { subscriptionId: s.id, type: 'event-notification', eventNumber, preAuthRef: event.preAuthRef, version: event.version, at: now.toISOString() } satisfies NotifyMessage,
          dedupeKey: `${NOTIFY_KIND}:event:${s.id}:${event.preAuthRef}:${event.version}`,
        });
      }
    },

    start(heartbeatCheckMs) {
      if (!timer) {
        timer = setInterval(() => void heartbeats().catch((err: unknown) => deps.onError?.(err)), heartbeatCheckMs);
        timer.unref();
      }
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

export { subscriptionUrl };
