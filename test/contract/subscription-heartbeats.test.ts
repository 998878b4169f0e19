// Heartbeats of a PAS Subscription (Subscriptions Backport): one per quiet period, even while the last one still waits in
// the outbox (qa6 #9: two heartbeats 5 s apart, because the check counted the period from the last *delivered* one).
import { expect } from 'chai';
import request from 'supertest';
import { makeTestApp, type TestApp } from '../support/test-app.js';
import { pasCorpus, pasSubscription, startReceiver, statusOf } from '../support/pas-requests.js';

describe('PAS Subscription heartbeats: one per quiet period', function () {
  this.timeout(30_000);
  let clock = new Date('2026-11-26T10:00:05Z').getTime();
  let t: TestApp;
  before(async () => {
    t = await makeTestApp(pasCorpus(), { now: () => new Date(clock), env: { PUBLIC_BASE_URL: 'https://prauth.test' } });
  });
  const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('when the next check comes before the queued heartbeat is delivered, then no second heartbeat is queued for the same quiet period', async () => {
    const receiver = await startReceiver();
    try {
      const key = await t.key({ name: 'hb' });
      const res = await request(t.app.handler).post('/v1/Subscription').set('x-api-key', key).set('content-type', 'application/fhir+json').send(pasSubscription(receiver.url, { heartbeat: 20 }));
      expect(res.status).to.equal(201);
      await t.deps.outbox.drain(); // the handshake: delivered at 10:00:05, the Subscription turns active
      t.deps.subscriptions.start(10);
      clock += 20_000; // 10:00:25: a quiet period has passed, a heartbeat is queued
      await tick(60);
      clock += 16_000; // 10:00:41: another 20 s slot, but only 16 s after the heartbeat was queued (not yet delivered)
      await tick(60);
      t.deps.subscriptions.stop();
      await t.deps.outbox.drain();
      const beats = receiver.received.filter((r) => statusOf(r.body).type === 'heartbeat');
      expect(beats, 'one heartbeat for one quiet period').to.have.length(1);
      // Another full period after it: the next one.
      t.deps.subscriptions.start(10);
      clock += 20_000;
      await tick(60);
      t.deps.subscriptions.stop();
      await t.deps.outbox.drain();
      expect(receiver.received.filter((r) => statusOf(r.body).type === 'heartbeat')).to.have.length(2);
    } finally {
      t.deps.subscriptions.stop();
      await receiver.close();
    }
  });
});
