// API keys, driven directly over an in-memory store: what is stored (hash only, lists sorted and de-duplicated,
// defaults), who verifies, and how long a revocation may take to be seen. Written for the mutation run (issue 26).
import { expect } from 'chai';
import { createKeyService, hashKey, toPublic, UUID_V4, type KeyRecord } from '../../src/services/keys.js';
import { COLLECTIONS } from '../../src/store/collections.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import type { DocumentStore } from '../../src/store/port.js';

const NOW = new Date('2026-05-06T07:08:09.000Z');

async function service(cacheSeconds = 0, store?: DocumentStore) {
  const s = store ?? (await openEmbeddedStore({}));
  return { store: s, keys: createKeyService({ store: s, now: () => NOW, cacheSeconds }) };
}

describe('API keys: stored as hashes, verified, revoked', () => {
  it('hashKey is the SHA-256 hex of the lower-cased key', () => {
    expect(hashKey('ABC')).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashKey('abc')).to.equal(hashKey('ABC'));
  });

  it('UUID_V4 accepts a v4 UUID in either case and nothing else', () => {
    expect(UUID_V4.test('0f8fad5b-d9cb-469f-a165-70867728950e')).to.equal(true);
    expect(UUID_V4.test('0F8FAD5B-D9CB-469F-A165-70867728950E')).to.equal(true);
    for (const bad of ['0f8fad5b-d9cb-369f-a165-70867728950e', '0f8fad5b-d9cb-469f-c165-70867728950e', 'x0f8fad5b-d9cb-469f-a165-70867728950e', '0f8fad5b-d9cb-469f-a165-70867728950e0', '']) {
      expect(UUID_V4.test(bad), bad).to.equal(false);
    }
  });

  it('when a key is created with no options, then the record has the defaults, the hint is the last four characters and only the hash is stored', async () => {
    const { keys, store } = await service();
    const { key, record } = await keys.create({});
    expect(key).to.match(UUID_V4);
    expect(record.id).to.match(/^k_[0-9a-f]{12}$/);
    expect(record).to.deep.equal({ id: record.id, name: 'unnamed', states: [], programs: [], groups: [], compare: false, admin: false, createdAt: NOW.toISOString(), revokedAt: null, hint: key.slice(-4) });
    const stored = await store.collection<KeyRecord>(COLLECTIONS.keys).findOne({ id: record.id });
    expect(stored?.hash).to.equal(hashKey(key));
    expect(JSON.stringify(stored)).to.not.contain(key);
  });

  it('when a key is created with repeated, unsorted lists, then each list is stored sorted and de-duplicated', async () => {
    const { keys } = await service();
    const { record } = await keys.create({ name: 'n', states: ['TX', 'CA', 'TX'], programs: ['part_d', 'chip', 'part_d'], groups: ['lookup', 'compare', 'lookup'], compare: true, admin: true });
    expect(record).to.include({ name: 'n', compare: true, admin: true });
    expect(record.states).to.deep.equal(['CA', 'TX']);
    expect(record.programs).to.deep.equal(['chip', 'part_d']);
    expect(record.groups).to.deep.equal(['compare', 'lookup']);
  });

  it('when a key is verified, then the principal carries its subscription as sets (empty lists meaning every)', async () => {
    const { keys } = await service();
    const { key, record } = await keys.create({ name: 'scoped', states: ['TX'], programs: ['chip'] });
    expect(await keys.verify(key)).to.deep.equal({
      kind: 'key', keyId: record.id, meterId: record.id, name: 'scoped',
      states: new Set(['TX']), programs: new Set(['chip']), groups: null, compare: false, admin: false,
    });
    expect(await keys.verify(key.toUpperCase()), 'a key is case-insensitive').to.have.property('keyId', record.id);
  });

  it('when a key is malformed or unknown, then verify is null', async () => {
    const { keys } = await service();
    await keys.create({});
    expect(await keys.verify('not-a-key')).to.equal(null);
    expect(await keys.verify('0f8fad5b-d9cb-469f-a165-70867728950e')).to.equal(null);
  });

  it('when a key is revoked, then it no longer verifies, revokedAt is set once and a second revoke keeps it', async () => {
    const { keys } = await service(60);
    const { key, record } = await keys.create({});
    expect(await keys.verify(key)).to.not.equal(null); // now cached
    const revoked = await keys.revoke(record.id);
    expect(revoked).to.deep.equal({ ...record, revokedAt: NOW.toISOString() });
    expect(await keys.verify(key), 'a revocation on this instance clears the cache').to.equal(null);
    expect(await keys.get(record.id)).to.have.property('revokedAt', NOW.toISOString());
    expect(await keys.revoke(record.id)).to.have.property('revokedAt', NOW.toISOString());
    expect(await keys.revoke('k_nosuch')).to.equal(null);
  });

  it('when another instance revokes a key, then this one sees it only after its cache time (and at once with no cache)', async () => {
    const store = await openEmbeddedStore({});
    const { keys: cached } = await service(60, store);
    const { keys: uncached } = await service(0, store);
    const { keys: other } = await service(0, store);
    const { key, record } = await other.create({});
    expect(await cached.verify(key)).to.not.equal(null);
    expect(await uncached.verify(key)).to.not.equal(null);
    await other.revoke(record.id);
    expect(await cached.verify(key), 'still cached').to.not.equal(null);
    expect(await uncached.verify(key)).to.equal(null);
  });

  it('when an unknown key is verified twice with a cache, then both answers are null (a cached miss stays a miss)', async () => {
    const { keys } = await service(60);
    const absent = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(await keys.verify(absent)).to.equal(null);
    expect(await keys.verify(absent)).to.equal(null);
  });

  it('get and list: public records (no hash), listed oldest first', async () => {
    const store = await openEmbeddedStore({});
    let t = Date.parse('2026-01-01T00:00:00Z');
    const keys = createKeyService({ store, now: () => new Date((t -= 1000)), cacheSeconds: 0 });
    const a = await keys.create({ name: 'a' });
    const b = await keys.create({ name: 'b' });
    expect((await keys.list()).map((r) => r.name)).to.deep.equal(['b', 'a']);
    for (const r of await keys.list()) expect(r).to.not.have.property('hash');
    expect(await keys.get(a.record.id)).to.deep.equal(a.record);
    expect(await keys.get('k_nosuch')).to.equal(null);
    expect(toPublic({ ...b.record, hash: 'h' })).to.deep.equal(b.record);
  });
});
