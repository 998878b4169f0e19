// OUTBOUND_DENY (qa6 #6): with `private`, a CRD call's fhirServer and a Subscription's endpoint on a private address
// are refused before any request leaves the service; the card and the 400 say why. Real servers on loopback.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { startService, type RunningService } from '../../src/service.js';
import { orderSignMedicareE0250 } from '../support/crd-requests.js';
import { startEhrServer, type EhrServer } from '../support/ehr-fhir-server.js';
import { pasSubscription } from '../support/pas-requests.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('OUTBOUND_DENY: the service does not call denied addresses for a client', function () {
  this.timeout(60_000);
  let svc: RunningService;
  let dir: string;
  let ehr: EhrServer;
  let key: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prauth-outbound-'));
    // No corpus is needed: the EHR would be read before any rule is looked for (and a loaded one would stay in the heap).
    svc = await startService(loadConfig({ PORT: '0', HOST: '127.0.0.1', PRAUTH_DATA_DIR: dir, LOG_LEVEL: 'silent', PRAUTH_LOAD_SAMPLE: 'false', OUTBOUND_DENY: 'private' }), pino({ level: 'silent' }));
    key = (await svc.deps.keys.create({ name: 'outbound' })).key;
    ehr = await startEhrServer([], orderSignMedicareE0250().fhirAuthorization.access_token);
  });
  after(async () => {
    await ehr.close();
    await svc.stop();
    rmSync(dir, { recursive: true, force: true });
    (svc as unknown) = undefined; // mocha keeps the suite's closures for the whole run
  });

  it('when a CRD call names a fhirServer on a private address, then nothing is fetched and the card says why', async () => {
    const req: Any = { ...orderSignMedicareE0250(), fhirServer: ehr.url, prefetch: {} };
    req.context = { ...req.context, patientId: 'pat-ehr' };
    const res = await fetch(`${svc.url}/v1/cds-services/service-coverage-requirements`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(req) });
    const body = (await res.json()) as Any;
    expect(res.status).to.equal(200);
    expect(JSON.stringify(body.cards), JSON.stringify(body.cards).slice(0, 1500)).to.contain('the fhirServer cannot be used: the address 127.0.0.1 of 127.0.0.1 is not allowed (OUTBOUND_DENY)');
    expect(ehr.requests, 'no request reached the EHR').to.deep.equal([]);
  });

  it('when a Subscription names an endpoint on a private address, then 400 naming channel.endpoint, and nothing is stored', async () => {
    const res = await fetch(`${svc.url}/v1/Subscription`, { method: 'POST', headers: { 'content-type': 'application/fhir+json', 'x-api-key': key }, body: JSON.stringify(pasSubscription('http://127.0.0.1:9/notify')) });
    const body = (await res.json()) as Any;
    expect(res.status).to.equal(400);
    expect(body.issue[0].expression).to.deep.equal(['Subscription.channel.endpoint']);
    expect(body.issue[0].diagnostics).to.contain('is not allowed (OUTBOUND_DENY)');
  });
});
