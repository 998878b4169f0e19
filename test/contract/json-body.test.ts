// The JSON body reader of the usual request (src/http/json-body.ts) against Express's body-parser, which it stands
// in for: over real HTTP, the same bodies read to the same values and refused with the same error types, chunked
// at any byte (a UTF-8 character split across chunks, a BOM), and every other body left to body-parser.
import { expect } from 'chai';
import express from 'express';
import fc from 'fast-check';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { jsonBodyReader, limitBytes, type BodyReader } from '../../src/http/json-body.js';

const JSON_TYPES = ['application/json', 'application/fhir+json', 'application/*+json'];
const parser = express.json({ type: JSON_TYPES, limit: '1kb', strict: true }) as unknown as BodyReader;
let usedFallback = 0;
const fallback: BodyReader = (req, res, next) => {
  usedFallback++;
  parser(req, res, next);
};
const fast = jsonBodyReader('1kb', fallback);

type Outcome = { body?: unknown; error?: string; status?: number };
function serve(reader: BodyReader): Server {
  return createServer((req, res) => {
    reader(req, res, (err?: unknown) => {
      const e = err as { type?: string; status?: number } | undefined;
      const out: Outcome = e ? { error: e.type, status: e.status } : { body: (req as IncomingMessage & { body?: unknown }).body };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(out === undefined ? null : out));
    });
  }).listen(0);
}

function send(server: Server, chunks: Buffer[], headers: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const req = request({ port: (server.address() as AddressInfo).port, method: 'POST', path: '/', headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += String(d)));
      res.on('end', () => resolve(JSON.parse(text) as Outcome));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('JSON body reader', () => {
  let a: Server;
  let b: Server;
  before(() => {
    a = serve(fast);
    b = serve(parser);
  });
  after(() => {
    a.close();
    b.close();
  });
  const both = async (bytes: Buffer, headers: Record<string, string>, cut: number[] = []): Promise<Outcome> => {
    const chunks: Buffer[] = [];
    let at = 0;
    for (const c of [...cut, bytes.length]) {
      chunks.push(bytes.subarray(at, Math.max(at, Math.min(c, bytes.length))));
      at = Math.max(at, Math.min(c, bytes.length));
    }
    const withLength = { 'content-length': String(bytes.length), ...headers };
    const [x, y] = await Promise.all([send(a, chunks, withLength), send(b, chunks, withLength)]);
    expect(x, bytes.toString('latin1')).to.deep.equal(y);
    return x;
  };

  it('when bodies are JSON of any shape, sent in chunks cut anywhere, then they read as body-parser reads them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.json({ maxDepth: 3 }), fc.array(fc.nat(300), { maxLength: 4 }), fc.constantFrom('', ' \n\t', '\uFEFF'), async (text, cut, lead) => {
        await both(Buffer.from(`${lead}${text}`), { 'content-type': 'application/json' }, [...cut].sort((p, q) => p - q));
      }),
      { numRuns: 150 },
    );
  });

  it('when a body is malformed, a scalar, split inside a character, blank or a BOM alone, then the same value or error', async () => {
    const cases: [string | Buffer, string?][] = [['{"a":1'], ['"text"'], ['  42'], ['null'], [' '], ['\uFEFF'], [Buffer.from('{"k":"é€😀"}')], [Buffer.from([0x7b, 0x22, 0x6b, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])], ['[1,2]', 'application/fhir+json; charset=UTF-8']];
    for (const [body, type] of cases) {
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
      for (let cut = 0; cut <= bytes.length; cut++) await both(bytes, { 'content-type': type ?? 'application/json' }, [cut]);
    }
    expect(await both(Buffer.from('{"a":'), { 'content-type': 'application/json' })).to.deep.equal({ error: 'entity.parse.failed', status: 400 });
  });

  it('when a body is compressed, chunked, over the limit or in another charset, then body-parser reads it', async () => {
    const before = usedFallback;
    expect(await both(gzipSync('{"z":1}'), { 'content-type': 'application/json', 'content-encoding': 'gzip' })).to.deep.equal({ body: { z: 1 } });
    expect(await both(Buffer.from(`{"big":"${'x'.repeat(1100)}"}`), { 'content-type': 'application/json' })).to.deep.include({ error: 'entity.too.large' });
    expect(await both(Buffer.from('{"u":1}'), { 'content-type': 'application/json; charset=latin1' })).to.deep.include({ error: 'charset.unsupported' });
    expect(await both(Buffer.from('{"q":1}'), { 'content-type': 'application/json; charset="utf-8"' })).to.deep.equal({ body: { q: 1 } });
    expect(usedFallback - before).to.equal(4);
    expect(limitBytes('1mb')).to.equal(1048576);
    expect(limitBytes('512kb')).to.equal(524288);
    expect(limitBytes('7b')).to.equal(7);
  });
});
