// Notify-when-ready (spec 4.2, 6): watches stored durably with the contact sealed (contact-vault.ts); a dispatcher
// reads the change log from a stored cursor and, for each verified program-level rule that fills a watched gap,
// enqueues one outbox message per watch (dedupe key = the watch, so a watcher is told once however often the
// dispatcher re-reads the log after a crash); the outbox handlers compose and send the e-mail or SMS.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { CorpusHolder } from '../corpus/corpus-holder.js';
import { ruleKey } from '../corpus/read-model.js';
import type { CoverageRuleDoc } from '../domain/documents.js';
import { PROGRAMS, PROGRAM_LABELS, subjectLabel, type Program, type SubjectKind } from '../domain/vocabulary.js';
import { SAMPLE_NOTICE } from './manifest.js';
import type { ChangeLogEntry } from '../ingest/run-ingest.js';
import { COLLECTIONS } from '../store/collections.js';
import { DuplicateKeyError, type DocumentStore } from '../store/port.js';
import type { ContactVault } from './contact-vault.js';
import type { OutgoingMail, SendMail, SendSms } from './notify-delivery.js';
import { maskContact, type NotifyChannel, type NotifyRequest } from './notify-request.js';
import type { Outbox, OutboxMessage } from './outbox.js';
import type { RateLimits } from './rate-limits.js';
import type { LimitDecision } from '../domain/limits.js';

export type WatchStatus = 'waiting' | 'notified' | 'unsubscribed';

export interface WatchDoc {
  id: string;
  state: string;
  program?: Program;
  kind: SubjectKind;
  subject: string;
  channel: NotifyChannel;
  /** AES-256-GCM sealed contact. */
  contactSealed: string;
  /** HMAC of the normalised contact (dedupe, per-contact limits). */
  contactHash: string;
  status: WatchStatus;
  createdAt: string;
  /** Written by older versions (the request's Host); never read: message links use messageBaseUrl. */
  baseUrl?: string;
  notifiedAt?: string;
  ruleId?: string;
  unsubscribedAt?: string;
}

interface CursorDoc {
  id: 'notify-cursor';
  corpusVersion: number;
}

export const NOTIFY_KINDS = { email: 'notify.email', sms: 'notify.sms' } as const;

export interface NotifyPayload {
  watchId: string;
  ruleId: string;
  changeId: string;
}

export type RegisterOutcome =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; policy: 'notify_address' | 'notify_contact'; decision: LimitDecision; what: string };

export interface NotifyService {
  register(req: NotifyRequest, clientAddress: string, baseUrl: string): Promise<RegisterOutcome>;
  /** The watch id, or undefined for a token that is not ours. Repeating it is harmless. */
  unsubscribe(token: string): Promise<string | undefined>;
  /** Reads change-log entries past the cursor and enqueues a message per filled watch; returns how many. */
  dispatch(): Promise<number>;
  /** Dispatches periodically (another instance's ingest, a CLI ingest while the server was down). */
  start(pollMs: number): void;
  stop(): Promise<void>;
}

export interface NotifyDeps {
  store: DocumentStore;
  corpus: CorpusHolder;
  outbox: Outbox;
  limits: RateLimits;
  vault: ContactVault;
  now: () => Date;
  log: Logger;
  sendMail: SendMail | undefined;
  sendSms: SendSms | undefined;
  /**
   * The base of the links in messages sent later (lookup, unsubscribe): PUBLIC_BASE_URL, else this server's own
   * origin. Never a request's Host header, which any caller can set (qa6 #2).
   */
  messageBaseUrl: string;
}

function watchIdOf(contactHash: string, r: NotifyRequest): string {
  return createHash('sha256')
    .update([contactHash, r.state, r.program ?? '*', r.kind, r.subject].join('|'))
    .digest('hex')
    .slice(0, 32);
}

function lookupUrl(base: string, state: string, program: string | undefined, kind: SubjectKind, subject: string): string {
  const p = new URLSearchParams({ state, ...(program ? { program } : {}), [kind]: subject });
  return `${base}${program ? '/v1/pauth-lookup' : '/v1/compare-payers'}?${p.toString()}`;
}

function ruleFillsWatch(rule: { jurisdiction: string; program: string; subject: { kind: string; code: string } }, w: WatchDoc): boolean {
  return rule.jurisdiction === w.state && rule.subject.kind === w.kind && rule.subject.code === w.subject && (!w.program || w.program === rule.program);
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The message: what was asked, the rule's verdict and its citation, the lookup and the unsubscribe link. */
export function composeMessage(rule: CoverageRuleDoc, base: string, unsubscribeUrl: string): { subject: string; text: string; html: string; sms: string } {
  const program = PROGRAM_LABELS[rule.program] ?? rule.program;
  const what = `${rule.jurisdiction}, ${program}, ${subjectLabel(rule.subject.kind, rule.subject.code)}`;
  const verdict = rule.requirement.exclusion
    ? 'not covered (no PA route; a claim will be denied)'
    : rule.requirement.paRequired ? `PA required (${rule.requirement.paType.replace(/_/g, ' ')})` : 'no PA required';
  const lookup = lookupUrl(base, rule.jurisdiction, rule.program, rule.subject.kind, rule.subject.code);
  const lines = [
    `A prior-authorization rule is now published for a combination you asked to watch.`,
    ``,
    `${what}: ${verdict}`,
    `Rule: ${rule.id}`,
    `Source: ${rule.source.title} (${rule.source.publisher}) ${rule.source.url}`,
    `Last verified: ${rule.verification.lastVerified}`,
    `Look it up: ${lookup}`,
    ``,
    SAMPLE_NOTICE,
    `This is the only message for this request. To stop it anyway: ${unsubscribeUrl}`,
  ];
  const html =
    `<p>A prior-authorization rule is now published for a combination you asked to watch.</p>` +
    `<p><strong>${esc(what)}</strong>: ${esc(verdict)}<br>Rule: ${esc(rule.id)}<br>` +
    `Source: <a href="${esc(rule.source.url)}">${esc(rule.source.title)}</a> (${esc(rule.source.publisher)})<br>` +
    `Last verified: ${esc(rule.verification.lastVerified)}<br><a href="${esc(lookup)}">Look it up</a></p>` +
    `<p>${esc(SAMPLE_NOTICE)}</p><p><a href="${esc(unsubscribeUrl)}">Unsubscribe</a></p>`;
  return {
    subject: `PA rule published: ${what}`,
    text: lines.join('\n'),
    html,
    sms: `prauth: ${what}: ${verdict}. Source: ${rule.source.url} (verified ${rule.verification.lastVerified}). Stop: ${unsubscribeUrl}`,
  };
}

export function createNotifyService(deps: NotifyDeps): NotifyService {
  const { store, vault, log } = deps;
  const watches = store.collection<WatchDoc>(COLLECTIONS.notifications);
  const meta = store.collection<CursorDoc>(COLLECTIONS.meta);
  const changes = store.collection<ChangeLogEntry>(COLLECTIONS.changes);
  const rules = store.collection<CoverageRuleDoc>(COLLECTIONS.rules);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let indexed: Promise<void> | undefined;
  const ready = (): Promise<void> =>
    (indexed ??= Promise.all([watches.ensureIndex('state'), watches.ensureIndex('contactHash')]).then(() => undefined));

  async function deliver(payload: unknown, message: OutboxMessage): Promise<void> {
    const p = payload as NotifyPayload;
    const watch = await watches.findOne({ id: p.watchId });
    if (!watch || watch.status === 'unsubscribed') return; // nothing to send: done
    const rule = await rules.findOne({ id: p.ruleId });
    if (!rule) return;
    const base = deps.messageBaseUrl;
    const unsubscribeUrl = `${base}/v1/notify/unsubscribe?token=${encodeURIComponent(vault.unsubscribeToken(watch.id))}`;
    const msg = composeMessage(rule, base, unsubscribeUrl);
    const contact = vault.decrypt(watch.contactSealed);
    if (watch.channel === 'email') {
      const mail: OutgoingMail = { to: contact, subject: msg.subject, text: msg.text, html: msg.html, messageId: `${message.id}.notify`, unsubscribeUrl };
      await deps.sendMail!(mail);
    } else {
      await deps.sendSms!({ to: contact, body: msg.sms });
    }
    log.info({ watch: watch.id, channel: watch.channel, rule: rule.id, attempt: message.attempts }, 'notify-when-ready message sent');
  }

  // Kinds without a configured transport get no handler: their messages wait in the outbox until one is set up.
  if (deps.sendMail) deps.outbox.handle(NOTIFY_KINDS.email, deliver);
  if (deps.sendSms) deps.outbox.handle(NOTIFY_KINDS.sms, deliver);

  async function notifyWatch(w: WatchDoc, ruleId: string, changeId: string): Promise<void> {
    const payload: NotifyPayload = { watchId: w.id, ruleId, changeId };
    await deps.outbox.enqueue({ kind: NOTIFY_KINDS[w.channel], payload, dedupeKey: `watch:${w.id}` });
    await watches.update({ id: w.id, status: 'waiting' }, { status: 'notified', notifiedAt: deps.now().toISOString(), ruleId });
    w.status = 'notified';
  }

  /**
   * The read model can lag an ingest in progress: a watch stored just after the dispatcher read the waiting watches
   * would miss a rule that is already in the store. So after the insert, look in the store itself: either the
   * dispatcher saw this watch, or this check sees the rule (the rule is written before its change-log entry).
   */
  async function closeRace(w: WatchDoc): Promise<void> {
    const found = (await rules.find({ jurisdiction: w.state, 'subject.kind': w.kind, 'subject.code': w.subject })).find(
      (r) => r.verification.status === 'verified' && !r.payer && (!w.program || r.program === w.program),
    );
    if (found) await notifyWatch(w, found.id, 'store');
  }

  async function dispatchOnce(): Promise<number> {
    await ready();
    const cursor = (await meta.findOne({ id: 'notify-cursor' }))?.corpusVersion ?? 0;
    const entries = await changes.find({ corpusVersion: { $gt: cursor } }, { sort: { corpusVersion: 1 } });
    if (!entries.length) return 0;
    let queued = 0;
    const upTo = entries.reduce((m, e) => Math.max(m, e.corpusVersion), cursor);
    // Waiting watches are few next to the change log (the first start logs every sample rule): match in memory.
    const byTarget = new Map<string, WatchDoc[]>();
    for (const w of await watches.find({ status: 'waiting' })) {
      const k = `${w.state}|${w.kind}|${w.subject}`;
      byTarget.set(k, [...(byTarget.get(k) ?? []), w]);
    }
    for (const e of byTarget.size ? entries : []) {
      if (e.resourceType !== 'CoverageRule' || e.action === 'retired' || e.payerId) continue;
      const candidates = (byTarget.get(`${e.jurisdiction}|${e.subject.kind}|${e.subject.code}`) ?? []).filter((x) => x.status === 'waiting' && ruleFillsWatch(e, x));
      if (!candidates.length) continue;
      // Only a rule the lookup serves fills a gap: verified (entries written before `after` existed are checked in the store).
      const status = e.after?.status ?? (await rules.findOne({ id: e.ruleId }))?.verification.status;
      if (status !== 'verified') continue;
      for (const w of candidates) {
        await notifyWatch(w, e.ruleId, e.id);
        queued++;
      }
    }
    // Enqueue is idempotent per watch, so moving the cursor last makes a crash here repeat work, never lose it.
    await meta.upsertMany([{ id: 'notify-cursor', corpusVersion: upTo }]);
    if (queued) log.info({ queued, corpusVersion: upTo }, 'notify-when-ready messages queued');
    return queued;
  }

  function serial<R>(fn: () => Promise<R>): Promise<R> {
    const next = running.then(fn, fn);
    running = next.catch(() => undefined);
    return next;
  }

  return {
    async register(req, clientAddress, baseUrl) {
      await ready();
      const now = deps.now();
      const byAddress = await deps.limits.consume(`notify-ip:${clientAddress}`, 'notify_address', now);
      if (!byAddress.allowed) return { ok: false, policy: 'notify_address', decision: byAddress, what: 'notify-when-ready requests from this address' };
      const contactHash = vault.hash(req.channel, req.contact);
      const byContact = await deps.limits.consume(`notify-contact:${contactHash}`, 'notify_contact', now);
      if (!byContact.allowed) return { ok: false, policy: 'notify_contact', decision: byContact, what: 'notify-when-ready requests for this contact' };

      const echo = {
        state: req.state,
        ...(req.program ? { program: req.program } : {}),
        kind: req.kind,
        subject: req.subject,
        channel: req.channel,
        contact_hint: maskContact(req.channel, req.contact),
        lookup_url: lookupUrl(baseUrl, req.state, req.program, req.kind, req.subject),
      };
      const id = watchIdOf(contactHash, req);
      const model = deps.corpus.current;
      const programs = req.program ? [req.program] : PROGRAMS;
      if (programs.some((p) => model.rules.has(ruleKey(req.state, p, req.kind, req.subject)))) {
        // Nothing to wait for: say so instead of storing a watch that can never fire.
        return { ok: true, body: { recorded: false, id, status: 'available', ...echo } };
      }
      const doc: WatchDoc = {
        id,
        state: req.state,
        ...(req.program ? { program: req.program } : {}),
        kind: req.kind,
        subject: req.subject,
        channel: req.channel,
        contactSealed: vault.encrypt(req.contact),
        contactHash,
        status: 'waiting',
        createdAt: now.toISOString(),
      };
      let duplicate = false;
      try {
        await watches.insert(doc);
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        duplicate = true;
        // A repeat after an unsubscribe means "watch again".
        await watches.update({ id, status: 'unsubscribed' }, { status: 'waiting' });
      }
      if (!duplicate) await closeRace(doc);
      // The same answer whether or not this contact already watched the combination: anyone can send anyone's contact,
      // so the body must not tell them what that person asked to be alerted about (qa6 #3). A repeat keeps the watch.
      return {
        ok: true,
        body: {
          recorded: true,
          id,
          status: !duplicate && doc.status === 'notified' ? 'notified' : 'waiting',
          ...echo,
          unsubscribe: 'Every message carries a one-click unsubscribe link (GET /v1/notify/unsubscribe?token=...)',
        },
      };
    },

    async unsubscribe(token) {
      const id = vault.verifyUnsubscribeToken(token);
      if (!id) return undefined;
      const watch = await watches.findOne({ id });
      if (!watch) return undefined;
      if (watch.status !== 'unsubscribed') await watches.update({ id }, { status: 'unsubscribed', unsubscribedAt: deps.now().toISOString() });
      return id;
    },

    dispatch() {
      return serial(dispatchOnce);
    },

    start(pollMs) {
      if (timer) return;
      const tick = (): void => {
        if (!timer) return;
        serial(dispatchOnce).catch((err: unknown) => log.warn({ error: (err as Error).name }, 'notify dispatch failed'));
      };
      timer = setInterval(tick, pollMs);
      timer.unref();
      setImmediate(tick);
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
