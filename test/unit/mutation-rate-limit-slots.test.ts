// The MongoDB rate-limit store (numbered slots), driven directly against a real MongoDB-compatible server: exact
// counts, the position each call takes, two instances sharing one limit, expiry and deletion. Needs a server: the
// URI in PRAUTH_TEST_MONGODB_URI (set by `npm run mutate`, which starts FerretDB for it) or MONGODB_URI (CI's
// FerretDB stage); skipped without one.
import { expect } from 'chai';
import { MongoClient, type Document } from 'mongodb';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimiterMongoSlots } from '../../src/services/rate-limit-slots.js';

const uri = process.env.PRAUTH_TEST_MONGODB_URI ?? process.env.MONGODB_URI;

describe('rate-limit slots on MongoDB', function () {
  this.timeout(60_000);
  let client: MongoClient;
  const dbName = `prauth_slots_${process.pid}_${Date.now()}`;
  let n = 0;
  const limiters: RateLimiterMongoSlots[] = [];
  const limiter = (points: number, tableName = `slots_${++n}`, duration = 3600) => {
    const l = new RateLimiterMongoSlots({ client, dbName, tableName, points, duration, keyPrefix: 'rl' });
    limiters.push(l);
    return l;
  };
  const outcome = (p: Promise<RateLimiterRes>) => p.then((r) => ['ok', r.remainingPoints, r.consumedPoints] as const, (r: unknown) => (r instanceof RateLimiterRes ? (['over', r.remainingPoints, r.consumedPoints] as const) : (['error', String(r)] as const)));

  before(async function () {
    if (!uri) this.skip();
    client = await MongoClient.connect(uri!);
  });
  after(async () => {
    for (const l of limiters) l.stop();
    if (client) {
      await client.db(dbName).dropDatabase();
      await client.close();
    }
  });

  it('when one key is consumed past its limit, then calls 1..N pass with N-1..0 remaining and the next are refused; slots are the positions taken', async () => {
    const l = limiter(3);
    const got = [];
    for (let i = 0; i < 5; i++) got.push(await outcome(l.consume('a')));
    expect(got).to.deep.equal([['ok', 2, 1], ['ok', 1, 2], ['ok', 0, 3], ['over', 0, 4], ['over', 0, 5]]);
    const slots = await client.db(dbName).collection<Document>(`slots_${n}`).find({}).toArray();
    expect(slots.map((s) => s._id).sort()).to.deep.equal(['rl:a#1', 'rl:a#2', 'rl:a#3', 'rl:a#4']);
    expect(slots.every((s) => s.k === 'rl:a' && s.exp instanceof Date && s.exp.getTime() > Date.now() + 3_500_000)).to.equal(true);
    expect(await outcome(l.consume('b')), 'another key has its own count').to.deep.equal(['ok', 2, 1]);
  });

  it('when two instances share one limit, then together they are allowed exactly the limit', async () => {
    const a = limiter(10, 'shared');
    const b = limiter(10, 'shared');
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => outcome((i % 2 ? a : b).consume('k'))));
    expect(results.filter((r) => r[0] === 'ok')).to.have.length(10);
    expect(results.filter((r) => r[0] === 'error')).to.deep.equal([]);
    const positions = results.filter((r) => r[0] === 'ok').map((r) => r[2]).sort((x, y) => Number(x) - Number(y));
    expect(positions).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('when an instance starts after another has counted, then it resumes from the stored count', async () => {
    const a = limiter(4, 'resume');
    await a.consume('k');
    await a.consume('k');
    const b = limiter(4, 'resume');
    expect(await outcome(b.consume('k'))).to.deep.equal(['ok', 1, 3]);
    expect(await outcome(b.consume('k'))).to.deep.equal(['ok', 0, 4]);
    expect((await outcome(b.consume('k')))[0]).to.equal('over');
  });

  it('get: the count taken and when it expires, null for an unused key; delete: forgets the key', async () => {
    const l = limiter(5);
    expect(await l.get('none')).to.equal(null);
    await l.consume('k');
    await l.consume('k');
    const r = await l.get('k');
    expect(r?.consumedPoints).to.equal(2);
    expect(r?.remainingPoints).to.equal(3);
    expect(r?.msBeforeNext).to.be.within(3_500_000, 3_600_000);
    expect(await l.delete('k')).to.equal(true);
    expect(await l.delete('k')).to.equal(false);
    expect(await l.get('k')).to.equal(null);
    expect(await outcome(l.consume('k'))).to.deep.equal(['ok', 4, 1]);
  });

  it('sweep: deletes the slots of ended windows only, and the count of a new window starts again', async () => {
    const l = limiter(2, `sweep`, 1);
    await l.consume('k');
    await l.consume('k');
    expect((await outcome(l.consume('k')))[0]).to.equal('over');
    expect(await l.sweep(new Date(Date.now() - 60_000)), 'nothing has ended a minute ago').to.equal(0);
    expect(await l.sweep(new Date(Date.now() + 5_000))).to.equal(3);
    expect(await outcome(l.consume('k'))).to.deep.equal(['ok', 1, 1]);
  });

  it('refuses what it cannot count: more than one point at a time', async () => {
    const l = limiter(5);
    const r = await outcome(l.consume('k', 2));
    expect(r).to.deep.equal(['error', 'Error: RateLimiterMongoSlots counts single consumptions only']);
  });
});
