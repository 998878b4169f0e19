// The embedded store after a crash in the middle of an append: the file ends with a torn line (no newline). That
// write was never acknowledged; the next one must not be glued onto it (and so lost on the following load).
import { expect } from 'chai';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';

interface Thing {
  id: string;
  n: number;
}

describe('embedded store: a torn last line left by a crash', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'prauth-torn-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when the file ends with a torn line, then it is cut off at open and the next write is a line of its own', async () => {
    const file = join(dir, 'things.db');
    writeFileSync(file, `${JSON.stringify({ id: 'a', n: 1, _id: 'a' })}\n`);
    appendFileSync(file, '{"id":"torn","n":2,"_id":"to'); // killed mid-append

    const store = await openEmbeddedStore({ dataDir: dir });
    const things = store.collection<Thing>('things');
    expect((await things.find({})).map((t) => t.id)).to.deep.equal(['a']);
    await things.insert({ id: 'b', n: 3 });

    // Read the file as the next process would, without the compaction close() does.
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.at(-1), 'the file ends with a newline').to.equal('');
    const ids = lines.filter(Boolean).map((l) => (JSON.parse(l) as { _id?: string })._id);
    expect(ids).to.deep.equal(['a', 'b']);
    await store.close();

    const again = await openEmbeddedStore({ dataDir: dir });
    expect((await again.collection<Thing>('things').find({}, { sort: { id: 1 } })).map((t) => [t.id, t.n])).to.deep.equal([['a', 1], ['b', 3]]);
    await again.close();
  });

  it('when the file ends with a newline, or is empty, then nothing is cut', async () => {
    const file = join(dir, 'things.db');
    const whole = `${JSON.stringify({ id: 'a', n: 1, _id: 'a' })}\n`;
    writeFileSync(file, whole);
    const store = await openEmbeddedStore({ dataDir: dir });
    expect((await store.collection<Thing>('things').find({})).map((t) => t.id)).to.deep.equal(['a']);
    expect(readFileSync(file, 'utf8')).to.equal(whole);
    expect((await store.collection<Thing>('empty').find({})).length).to.equal(0);
    await store.close();
  });
});
