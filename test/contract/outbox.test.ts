// The durable outbox on every adapter: embedded in memory and on disk (with restarts), MongoDB when MONGODB_URI is set.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createOutbox, backoffMs, type OutboxDoc, type OutboxMessage } from '../../src/services/outbox.js';
import { COLLECTIONS } from '../../src/store/collections.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import { openMongoStore } from '../../src/store/mongo/mongo-store.js';
import type { DocumentStore } from '../../src/store/port.js';

const log = pino({ level: 'silent' });

interface Case {
  name: string;
  open(): Promise<DocumentStore>;
  persistent: boolean;
  cleanup(): Promise<void>;
}

function onDisk(): Case {
  const dir = mkdtempSync(join(tmpdir(), 'prauth-outbox-'));
  return { name: 'embedded (file-backed)', persistent: true, open: () => openEmbeddedStore({ dataDir: dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

const cases: Case[] = [
  { name: 'embedded (in memory)', persistent: false, open: () => openEmbeddedStore({}), cleanup: async () => undefined },
  onDisk(),
];
const mongoUri = process.env.MONGODB_URI;
if (mongoUri) {
  const dbName = `prauth_outbox_${process.pid}_${Date.now()}`;
  cases.push({
    name: 'mongo',
    persistent: true,
    open: () => openMongoStore(mongoUri, dbName),
    cleanup: async () => {
      const s = await openMongoStore(mongoUri, dbName);
      await s.db.dropDatabase();
      await s.close();
    },
  });
}

class Clock {
  t = Date.parse('2026-11-25T12:00:00Z');
  now = (): Date => new Date(this.t);
  advance(ms: number): void {
    this.t += ms;
  }
}

describe('Outbox', () => {
  it('backs off exponentially and caps the delay', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 1000, 5000))).to.deep.equal([1000, 2000, 4000, 5000]);
    expect(backoffMs(60, 1000, 3600_000)).to.equal(3600_000);
  });

  for (const c of cases) {
    describe(c.name, () => {
      let store: DocumentStore;
      beforeEach(async () => {
        store = await c.open();
        await store.collection(COLLECTIONS.outbox).delete({});
      });
      afterEach(async () => {
        await store.close();
      });
      after(async () => {
        await c.cleanup();
      });

      it('delivers each enqueued message once and enqueues a dedupe key only once', async () => {
        const clock = new Clock();
        const outbox = createOutbox({ store, now: clock.now, log });
        const got: { payload: unknown; message: OutboxMessage }[] = [];
        outbox.handle('mail', async (payload, message) => {
          got.push({ payload, message });
        });
        await outbox.enqueue({ kind: 'mail', payload: { to: 'w1' }, dedupeKey: 'gap-1:w1' });
        await outbox.enqueue({ kind: 'mail', payload: { to: 'w1-again' }, dedupeKey: 'gap-1:w1' });
        await outbox.enqueue({ kind: 'mail', payload: { to: 'w2' } });
        await outbox.drain();
        expect(got.map((g) => g.payload)).to.have.deep.members([{ to: 'w1' }, { to: 'w2' }]);
        const keyed = got.find((g) => g.message.dedupeKey === 'gap-1:w1')!;
        expect(keyed.message.attempts).to.equal(1);
        await outbox.drain();
        expect(got).to.have.length(2);
        // Re-enqueueing after delivery is still a repeat.
        await outbox.enqueue({ kind: 'mail', payload: { to: 'w1' }, dedupeKey: 'gap-1:w1' });
        await outbox.drain();
        expect(got).to.have.length(2);
        expect(await outbox.stats()).to.deep.equal({ pending: 0, inflight: 0, delivered: 2, dead: 0 });
        const stored = await store.collection<OutboxDoc>(COLLECTIONS.outbox).find({ status: 'delivered' });
        expect(stored.every((d) => d.payload === null), 'payload dropped after delivery').to.equal(true);
      });

      it('holds a message until notBefore and leaves kinds without a handler alone', async () => {
        const clock = new Clock();
        const outbox = createOutbox({ store, now: clock.now, log });
        const got: unknown[] = [];
        outbox.handle('sms', async (p) => {
          got.push(p);
        });
        await outbox.enqueue({ kind: 'sms', payload: 1, notBefore: new Date(clock.t + 60_000) });
        await outbox.enqueue({ kind: 'other', payload: 2 });
        await outbox.drain();
        expect(got).to.deep.equal([]);
        clock.advance(60_000);
        await outbox.drain();
        expect(got).to.deep.equal([1]);
        expect((await outbox.stats()).pending).to.equal(1); // 'other' waits for its handler
      });

      it('retries a failing delivery with backoff and dead-letters it after maxAttempts', async () => {
        const clock = new Clock();
        const outbox = createOutbox({ store, now: clock.now, log, maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 10_000 });
        let calls = 0;
        outbox.handle('flaky', async () => {
          calls++;
          throw Object.assign(new Error('550 rejected someone@example.org'), { responseCode: 550 });
        });
        await outbox.enqueue({ kind: 'flaky', payload: {} });
        await outbox.drain();
        expect(calls).to.equal(1);
        const col = store.collection<OutboxDoc>(COLLECTIONS.outbox);
        let [doc] = await col.find({});
        expect(doc!.status).to.equal('pending');
        expect(doc!.nextAttemptAt).to.equal(new Date(clock.t + 1000).toISOString());
        expect(doc!.lastError).to.equal('Error:550');
        expect(JSON.stringify(doc)).not.to.contain('someone@example.org');
        clock.advance(999);
        await outbox.drain();
        expect(calls, 'not before the backoff').to.equal(1);
        clock.advance(1);
        await outbox.drain();
        expect(calls).to.equal(2);
        [doc] = await col.find({});
        expect(doc!.nextAttemptAt).to.equal(new Date(clock.t + 2000).toISOString());
        clock.advance(2000);
        await outbox.drain();
        expect(calls).to.equal(3);
        [doc] = await col.find({});
        expect(doc!.status).to.equal('dead');
        clock.advance(3600_000);
        await outbox.drain();
        expect(calls).to.equal(3);
        expect(await outbox.stats()).to.deep.equal({ pending: 0, inflight: 0, delivered: 0, dead: 1 });
      });

      it('a message succeeds on a later attempt', async () => {
        const clock = new Clock();
        const outbox = createOutbox({ store, now: clock.now, log, baseDelayMs: 500 });
        let calls = 0;
        outbox.handle('k', async () => {
          if (++calls < 3) throw new Error('temporary');
        });
        await outbox.enqueue({ kind: 'k', payload: 'x' });
        for (let i = 0; i < 3; i++) {
          await outbox.drain();
          clock.advance(10_000);
        }
        expect(calls).to.equal(3);
        expect((await outbox.stats()).delivered).to.equal(1);
      });

      it('two workers never deliver the same due message twice in one pass', async () => {
        const clock = new Clock();
        const a = createOutbox({ store, now: clock.now, log });
        const b = createOutbox({ store, now: clock.now, log });
        const seen: string[] = [];
        const h = async (p: unknown) => {
          await new Promise((r) => setTimeout(r, 5));
          seen.push(String(p));
        };
        a.handle('k', h);
        b.handle('k', h);
        for (let i = 0; i < 10; i++) await a.enqueue({ kind: 'k', payload: `m${i}` });
        await Promise.all([a.drain(), b.drain()]);
        expect(seen.sort()).to.deep.equal(Array.from({ length: 10 }, (_, i) => `m${i}`).sort());
      });

      if (c.persistent) {
        it('survives a restart: pending messages and a claim left by a dead process are delivered after reopening', async () => {
          const clock = new Clock();
          const first = createOutbox({ store, now: clock.now, log, leaseMs: 60_000 });
          await first.enqueue({ kind: 'mail', payload: 'queued' });
          await first.enqueue({ kind: 'mail', payload: 'in-flight' });
          // Simulate a process that claimed a message and died before finishing: mark it in flight as a claim would.
          const col = store.collection<OutboxDoc>(COLLECTIONS.outbox);
          const [inflight] = await col.find({ payload: 'in-flight' });
          await col.update({ id: inflight!.id }, { status: 'inflight', attempts: 1, nextAttemptAt: new Date(clock.t + 60_000).toISOString() });
          await store.close();

          store = await c.open();
          const second = createOutbox({ store, now: clock.now, log, leaseMs: 60_000 });
          const got: unknown[] = [];
          second.handle('mail', async (p) => {
            got.push(p);
          });
          await second.drain();
          if (store.kind === 'mongo') {
            // Another instance may still hold the claim: it is retried once its lease has run out.
            expect(got).to.deep.equal(['queued']);
            clock.advance(60_000);
            await second.drain();
          }
          expect(got).to.have.members(['queued', 'in-flight']);
          const [redelivered] = await store.collection<OutboxDoc>(COLLECTIONS.outbox).find({ id: inflight!.id });
          expect(redelivered!.status).to.equal('delivered');
          expect(redelivered!.attempts).to.equal(2);
        });
      }

      it('start polls and stop waits for the pass in progress', async () => {
        const outbox = createOutbox({ store, now: () => new Date(), log });
        const got: unknown[] = [];
        outbox.handle('k', async (p) => {
          got.push(p);
        });
        await outbox.enqueue({ kind: 'k', payload: 'polled' });
        outbox.start(20);
        const deadline = Date.now() + 3000;
        while (!got.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        await outbox.stop();
        expect(got).to.deep.equal(['polled']);
      });
    });
  }
});
