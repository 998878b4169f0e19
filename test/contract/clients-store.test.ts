// The client registry, its access tokens and the used-jti record are durable on every store adapter: the embedded
// store on disk (reopened), and MongoDB when MONGODB_URI is set. A second service over the same store (another
// instance, or this one after a restart) honours the tokens, refuses replays and sees revocations.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClientService } from '../../src/services/clients/client-service.js';
import type { ClientService } from '../../src/services/clients/records.js';
import { ensureIndexes } from '../../src/store/collections.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import { openMongoStore } from '../../src/store/mongo/mongo-store.js';
import type { DocumentStore } from '../../src/store/port.js';
import { makeKeyPair, signAssertion, tokenForm } from '../support/smart.js';

interface Adapter {
  name: string;
  open(): Promise<DocumentStore>;
  cleanup(): Promise<void>;
}

const TOKEN_URL = 'https://prauth.test/v1/auth/token';
const served = new Set(['InsurancePlan', 'Basic', 'MedicationKnowledge', 'Questionnaire', 'Claim']);

const adapters: Adapter[] = [];
{
  const dir = mkdtempSync(join(tmpdir(), 'prauth-clients-'));
  adapters.push({ name: 'embedded (file-backed)', open: () => openEmbeddedStore({ dataDir: dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) });
}
const mongoUri = process.env.MONGODB_URI;
if (mongoUri) {
  const dbName = `prauth_clients_${process.pid}_${Date.now()}`;
  adapters.push({
    name: 'mongo',
    open: () => openMongoStore(mongoUri, dbName),
    cleanup: async () => {
      const s = await openMongoStore(mongoUri, dbName);
      await s.db.dropDatabase();
      await s.close();
    },
  });
}

describe('client registry, tokens and jtis on the store adapters', () => {
  if (!mongoUri) {
    it('runs against MongoDB only when MONGODB_URI is set (skipped: no MONGODB_URI)', function () {
      this.skip();
    });
  }

  for (const a of adapters) {
    it(`${a.name}: when the service is rebuilt over the same store, then tokens still work, replays are refused and revocation holds`, async () => {
      const service = (store: DocumentStore): ClientService => createClientService({ store, now: () => new Date(), cacheSeconds: 0, servedResourceTypes: served });
      const key = await makeKeyPair('ES384');
      let store = await a.open();
      try {
        await ensureIndexes(store);
        const created = await service(store).create({ kind: 'backend', name: 'durable', jwks: { keys: [key.publicJwk] }, states: ['TX'] });
        if (!created.ok) throw new Error(created.problems.join('; '));
        const assertion = await signAssertion({ clientId: created.record.id, tokenUrl: TOKEN_URL, key });
        const issued = await service(store).issueToken(tokenForm(assertion, 'system/*.rs'), TOKEN_URL);
        if (!issued.ok) throw new Error(issued.description);
        await store.close();

        store = await a.open(); // a restart, or another instance
        const again = service(store);
        const principal = await again.verifyAccessToken(issued.body.access_token);
        expect(principal).to.include({ kind: 'client', clientId: created.record.id, via: 'access_token' });
        expect([...principal!.states!]).to.deep.equal(['TX']);
        expect(principal!.scopes).to.deep.equal(['system/*.rs']);
        const replay = await again.issueToken(tokenForm(assertion, 'system/*.rs'), TOKEN_URL);
        expect(replay).to.deep.include({ ok: false, error: 'invalid_client', description: 'client_assertion: jti already used (replay)' });
        await again.revoke(created.record.id);
        expect(await service(store).verifyAccessToken(issued.body.access_token)).to.equal(null);
        expect((await service(store).get(created.record.id))!.revokedAt).to.be.a('string');
      } finally {
        await store.close();
        await a.cleanup();
      }
    });
  }
});
