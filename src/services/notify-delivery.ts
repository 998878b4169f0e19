// Delivery adapters for notify-when-ready: e-mail over SMTP (nodemailer) and SMS through a provider adapter with
// the Twilio Messages API shape (POST {api}/2010-04-01/Accounts/{sid}/Messages.json, form-encoded To/From/Body,
// HTTP Basic auth). Errors say whether a retry can help: a 4xx other than 408/429 is permanent.
import type { Transporter } from 'nodemailer';
import type { NotifyConfig } from '../config.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per outbox message: a receiver drops repeats of an at-least-once delivery by it. */
  messageId: string;
  unsubscribeUrl: string;
}

export interface OutgoingSms {
  to: string;
  body: string;
}

export type SendMail = (mail: OutgoingMail) => Promise<void>;
export type SendSms = (sms: OutgoingSms) => Promise<void>;

export class DeliveryError extends Error {
  constructor(message: string, readonly permanent: boolean, readonly code?: string | number) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** undefined when SMTP_URL is unset: e-mail messages then wait in the outbox until it is configured. */
export function createMailer(config: Pick<NotifyConfig, 'smtpUrl' | 'mailFrom'>): SendMail | undefined {
  if (!config.smtpUrl) return undefined;
  const smtpUrl = config.smtpUrl;
  // Loaded on first use: the CLI and servers without SMTP never pay for the module.
  let transport: Promise<Transporter> | undefined;
  const transportOf = (): Promise<Transporter> => (transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl)));
  const domain = /@([^>\s]+)/.exec(config.mailFrom)?.[1] ?? 'localhost';
  return async (mail) => {
    try {
      await (await transportOf()).sendMail({
        from: config.mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${mail.messageId}@${domain}>`,
        // RFC 8058: mail clients unsubscribe with one POST to that address, not a GET a link scanner could make.
        headers: { 'List-Unsubscribe': `<${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'Auto-Submitted': 'auto-generated' },
      });
    } catch (err) {
      const e = err as { responseCode?: number; code?: string };
      // 5xx replies are permanent rejections of this message (RFC 5321 4.2.1); 4xx and connection errors are not.
      const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
      throw new DeliveryError('SMTP delivery failed', permanent, e.responseCode ?? e.code);
    }
  };
}

/** undefined when no SMS account is configured: SMS messages then wait in the outbox. */
export function createSmsSender(config: Pick<NotifyConfig, 'sms'>, fetchImpl: typeof fetch = fetch): SendSms | undefined {
  const { apiUrl, accountSid, authToken, from, messagingServiceSid } = config.sms;
  if (!accountSid || !authToken || (!from && !messagingServiceSid)) return undefined;
  const url = `${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  return async (sms) => {
    const form = new URLSearchParams({ To: sms.to, Body: sms.body });
    if (messagingServiceSid) form.set('MessagingServiceSid', messagingServiceSid);
    else form.set('From', from!);
    let res: Response;
    try {
      res = await fetchImpl(url, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form.toString(),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new DeliveryError('SMS provider unreachable', false, (err as { name?: string }).name);
    }
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) return;
    const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
    throw new DeliveryError(`SMS provider answered ${res.status}`, permanent, res.status);
  };
}
