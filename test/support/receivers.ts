// Real receivers on loopback for delivery tests: an SMTP server (smtp-server) that parses what it accepts
// (mailparser), and an HTTP server speaking the Twilio Messages API shape.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Map<string, unknown>;
}

export interface MailSink {
  url: string;
  mails: ReceivedMail[];
  /** Makes the next n sessions fail with a 451 (temporary) reply. */
  failNext(n: number, code?: number): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const mails: ReceivedMail[] = [];
  let failures = 0;
  let failCode = 451;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failures > 0) {
          failures--;
          const err = Object.assign(new Error('try again later'), { responseCode: failCode });
          callback(err);
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((m) => {
            mails.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: m.subject ?? '',
              text: m.text ?? '',
              html: typeof m.html === 'string' ? m.html : '',
              messageId: m.messageId ?? '',
              headers: m.headers as Map<string, unknown>,
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    failNext(n, code = 451) {
      failures = n;
      failCode = code;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface SmsRequest {
  path: string;
  authorization: string;
  form: URLSearchParams;
}

export interface SmsReceiver {
  url: string;
  requests: SmsRequest[];
  /** Status answered to the next n requests (then 201). */
  failNext(n: number, status: number): void;
  waitFor(count: number, timeoutMs?: number): Promise<SmsRequest[]>;
  close(): Promise<void>;
}

/** Answers like Twilio's POST /2010-04-01/Accounts/{sid}/Messages.json: 201 with a message resource. */
export async function startSmsReceiver(): Promise<SmsReceiver> {
  const requests: SmsRequest[] = [];
  let failures = 0;
  let failStatus = 500;
  let seq = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !/^\/2010-04-01\/Accounts\/[^/]+\/Messages\.json$/.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":20404,"message":"not found"}');
        return;
      }
      if (failures > 0) {
        failures--;
        res.writeHead(failStatus, { 'content-type': 'application/json' }).end(`{"code":${failStatus},"message":"failure"}`);
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      requests.push({ path: req.url!, authorization: req.headers.authorization ?? '', form });
      const sid = `SM${String(++seq).padStart(32, '0')}`;
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid, status: 'queued', to: form.get('To'), from: form.get('From'), body: form.get('Body') }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(n, status) {
      failures = n;
      failStatus = status;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
