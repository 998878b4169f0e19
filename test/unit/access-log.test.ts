// The access log is written by hand (src/logger.ts): its lines must stay what pino wrote, batched per event-loop turn.
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { accessLoggerOf, createLogger } from '../../src/logger.js';

function capture(): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  return { writes, stream: new Writable({ write: (chunk, _enc, done) => (writes.push(String(chunk)), done()) }) };
}
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
const line = { reqId: 'r-1 "quoted"', method: 'GET', path: '/v1/pauth-lookup', status: 200, ms: 0.4321 };

describe('access log', () => {
  it('when requests are logged, then each line is the one pino writes (fields, order, escaping), all of one turn in one write', async () => {
    const ours = capture();
    const access = accessLoggerOf(createLogger('info', ours.stream));
    access.info(line, 'request');
    access.info({ ...line, reqId: 'r-2' }, 'request');
    expect(ours.writes).to.have.length(0); // batched until the turn ends
    await turn();
    expect(ours.writes).to.have.length(1);

    const theirs = capture();
    pino({ level: 'info', base: { service: 'prauth', log: 'access' } }, theirs.stream).info(line, 'request');
    await turn();
    const strip = (l: string): string => l.replace(/"time":\d+/, '"time":0');
    expect(strip(ours.writes[0]!.split('\n')[0]!)).to.equal(strip(theirs.writes.join('').trim()));
    expect(JSON.parse(ours.writes[0]!.split('\n')[1]!)).to.include({ reqId: 'r-2', log: 'access', msg: 'request' });
  });

  it('when the level is above info, then nothing is written', async () => {
    const ours = capture();
    accessLoggerOf(createLogger('warn', ours.stream)).info(line, 'request');
    await turn();
    expect(ours.writes).to.have.length(0);
  });
});
