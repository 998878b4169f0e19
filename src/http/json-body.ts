// The JSON body of the usual request, read without Express's body-parser: a Content-Length within the limit, no
// Content-Encoding or Transfer-Encoding, UTF-8 (no charset, or charset=utf-8). What body-parser would do with such a
// body is done the same way here (UTF-8 decoded chunk by chunk, a leading BOM dropped, an empty body read as {},
// strict: the first character not blank must open an object or an array, else the same `entity.parse.failed`), at
// a fraction of its cost per request (its charset, encoding and length machinery, its stream wrappers). Every
// other body (compressed, chunked, another charset, over the limit) goes to body-parser itself.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';

type Next = (err?: unknown) => void;
export type BodyReader = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/** A size such as 512kb or 1mb (the config's form: b, kb, mb, binary multiples as body-parser reads them). */
export function limitBytes(limit: string): number {
  const m = /^(\d+)(b|kb|mb)$/i.exec(limit);
  if (!m) return NaN;
  return Number(m[1]) * { b: 1, kb: 1024, mb: 1024 * 1024 }[m[2]!.toLowerCase() as 'b' | 'kb' | 'mb'];
}

/** No parameters, or exactly one: charset=utf-8. */
const UTF8_TYPE = /^[^;]*(;\s*charset=utf-8\s*)?$/i;
const FIRST_NOT_BLANK = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d]|$)/;

const readError = (type: string, status: number): Error & { type: string; status: number } => Object.assign(new Error(type), { type, status });

/** body-parser's strict JSON parse, with its errors' type. */
function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  if (text[0] !== '{' && text[0] !== '[') {
    const first = FIRST_NOT_BLANK.exec(text)?.[1];
    if (first !== '{' && first !== '[') throw readError('entity.parse.failed', 400);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw readError('entity.parse.failed', 400);
  }
}

/** `fallback` (body-parser's JSON reader, same limit) for every body this one does not read. */
export function jsonBodyReader(limit: string, fallback: BodyReader): BodyReader {
  const max = limitBytes(limit);
  return (req, res, next) => {
    const h = req.headers;
    const length = Number(h['content-length']);
    const type = h['content-type'];
    if (
      !(length > 0 && length <= max && Number.isInteger(length)) ||
      h['content-encoding'] !== undefined ||
      h['transfer-encoding'] !== undefined ||
      typeof type !== 'string' ||
      !UTF8_TYPE.test(type) ||
      'body' in req
    ) {
      return fallback(req, res, next);
    }
    const decoder = new StringDecoder('utf8');
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += decoder.write(chunk);
    };
    const done = (err?: unknown): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('close', onClose);
      req.off('error', done);
      if (err) return next(readError('request.aborted', 400));
      text += decoder.end();
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      let body: unknown;
      try {
        body = parseStrict(text);
      } catch (e) {
        return next(e);
      }
      (req as { body?: unknown }).body = body;
      next();
    };
    const onEnd = (): void => done();
    const onAborted = (): void => done(new Error('aborted'));
    const onClose = (): void => {
      if (!req.complete) done(new Error('aborted'));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('aborted', onAborted);
    req.once('close', onClose);
    req.once('error', done);
  };
}
