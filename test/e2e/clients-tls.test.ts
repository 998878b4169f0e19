// An operator's walk-through, end to end over HTTPS: a self-signed certificate made with openssl, the server started
// with TLS_CERT_FILE/TLS_KEY_FILE, keys and JWTs made with scripts/make-client-keys.mjs, clients registered with the
// CLI (through the running server's admin interface, certificate pinned), a token used on the FHIR surface, a CDS
// Hooks call signed by the registered EHR, revocation, and a restart that keeps tokens, clients and used jtis.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { example, fhirCorpus } from '../support/fhir-corpus.js';
import { cli, startServer, type Spawned } from '../support/spawn.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const script = (args: string[]) => run(process.execPath, ['scripts/make-client-keys.mjs', ...args], { cwd: root }).then((r) => r.stdout.trim());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('end to end: clients over HTTPS (TLS 1.2+), CLI registration, tokens, CDS JWTs, restart', function () {
  this.timeout(90_000);
  let dir: string;
  let env: Record<string, string>;
  let ca: Buffer;
  let server: Spawned;

  const https = (url: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = httpsRequest(url, { method: o.method ?? 'GET', headers: o.headers ?? {}, ca }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : {} }));
      });
      req.once('error', reject);
      req.end(o.body);
    });

  const tokenRequest = (assertion: string) =>
    https(`${server.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'system/*.rs system/Claim.c',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
      }).toString(),
    });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prauth-tls-'));
    await run('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ]);
    ca = readFileSync(join(dir, 'cert.pem'));
    const fx = join(dir, 'fixtures');
    await run('mkdir', ['-p', fx]);
    writeFileSync(join(fx, 'corpus.ndjson'), fhirCorpus().map((d) => JSON.stringify(d)).join('\n'));
    env = {
      PRAUTH_DATA_DIR: join(dir, 'data'),
      PRAUTH_FIXTURES_DIR: fx,
      TLS_CERT_FILE: join(dir, 'cert.pem'),
      TLS_KEY_FILE: join(dir, 'key.pem'),
      KEY_CACHE_SECONDS: '0',
      // The address clients sign for (aud): stable across the restart below, as behind a load balancer.
      PUBLIC_BASE_URL: 'https://prauth.test',
    };
    server = await startServer(env);
  });
  after(async () => {
    await server?.stop();
  });

  it('when a client connects, then the server speaks TLS 1.2 or 1.3 and refuses TLS 1.1', async () => {
    expect(server.url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(server.url).port);
    const protocol = (maxVersion: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3') =>
      new Promise<string>((resolve) => {
        // SECLEVEL=0 lets this client offer TLS 1.1 at all, so the refusal comes from the server.
        const s = tlsConnect({ host: '127.0.0.1', port, ca, minVersion: 'TLSv1', maxVersion, ciphers: 'DEFAULT@SECLEVEL=0', servername: 'localhost' });
        s.once('secureConnect', () => {
          resolve(s.getProtocol() ?? 'none');
          s.end();
        });
        s.once('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code}`));
      });
    expect(await protocol('TLSv1.3')).to.equal('TLSv1.3');
    expect(await protocol('TLSv1.2')).to.equal('TLSv1.2');
    expect(await protocol('TLSv1.1')).to.match(/^error ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION|^error ERR_SSL_UNSUPPORTED_PROTOCOL/);
    const metadata = await https(`${server.url}/v1/metadata`);
    expect(metadata.status).to.equal(200);
    expect(metadata.body.rest[0].security.extension[0].extension[0]).to.deep.equal({ url: 'token', valueUri: 'https://prauth.test/v1/auth/token' });
  });

  it('when an operator registers a backend client and an EHR with the script and the CLI, then both work over HTTPS, revocation stops the token, and a restart keeps the rest', async () => {
    // Backend service: keys by script, registration by CLI (through the running server: the data directory is its).
    await script(['keys', '--dir', join(dir, 'backend'), '--alg', 'RS384']);
    const made = await cli(['clients', 'create', '--kind', 'backend', '--name', 'pas-harness', '--jwks-file', join(dir, 'backend', 'jwks.json'), '--json'], env);
    expect(made.code, made.stderr).to.equal(0);
    const { client_id: clientId, client } = JSON.parse(made.stdout) as { client_id: string; client: { kind: string; jwks: { keys: unknown[] } } };
    expect(client.kind).to.equal('backend');
    expect(client.jwks.keys).to.have.length(1);

    const tokenUrl = 'https://prauth.test/v1/auth/token';
    const assertion = await script(['assertion', '--dir', join(dir, 'backend'), '--client-id', clientId, '--token-url', tokenUrl]);
    const issued = await tokenRequest(assertion);
    expect(issued.status, JSON.stringify(issued.body)).to.equal(200);
    const token = issued.body.access_token as string;
    const formulary = await https(`${server.url}/v1/formulary/TX/part_d`, { headers: { authorization: `Bearer ${token}` } });
    expect(formulary.status).to.equal(200);
    expect(formulary.body.resourceType).to.equal('Bundle');

    // EHR: its own keys, registered with its issuer; a CDS Hooks call signed with them.
    await script(['keys', '--dir', join(dir, 'ehr')]);
    const issuer = 'https://ehr.example.org/fhir';
    const ehr = await cli(['clients', 'create', '--kind', 'cds-ehr', '--issuer', issuer, '--jwks-file', join(dir, 'ehr', 'jwks.json'), '--json'], env);
    expect(ehr.code, ehr.stderr).to.equal(0);
    const service = '/v1/cds-services/service-coverage-requirements';
    const cdsJwt = await script(['cds-jwt', '--dir', join(dir, 'ehr'), '--iss', issuer, '--aud', `https://prauth.test${service}`]);
    const hook = await https(`${server.url}${service}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${cdsJwt}` }, body: JSON.stringify(example('crd-2.2-order-sign-hook-request.json')) });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(200);
    expect(hook.body.systemActions.length).to.be.greaterThan(0);

    const refused = await cli(['clients', 'create', '--kind', 'cds-ehr', '--jwks-url', 'http://ehr.example.org/jwks.json', '--json'], env);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.contain('needs its issuer').and.contain('plain http only on localhost');

    const listed = await cli(['clients', 'list'], env);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout).to.contain(`${clientId}  active   backend  pas-harness`).and.contain(`issuer=${issuer}`);

    // Restart: the token, the clients and the used jti survive it.
    await server.stop();
    const offline = await cli(['clients', 'list', '--json'], env);
    expect(offline.code, offline.stderr).to.equal(0);
    expect((JSON.parse(offline.stdout) as { id: string }[]).map((c) => c.id)).to.include(clientId);
    server = await startServer(env);
    const again = await https(`${server.url}/v1/formulary/TX/part_d`, { headers: { authorization: `Bearer ${token}` } });
    expect(again.status, 'a token issued before the restart still works').to.equal(200);
    const replay = await tokenRequest(assertion);
    expect(replay.status).to.equal(401);
    expect(replay.body.error_description).to.contain('replay');

    const revoked = await cli(['clients', 'revoke', clientId], env);
    expect(revoked.code, revoked.stderr).to.equal(0);
    const after = await https(`${server.url}/v1/formulary/TX/part_d`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).to.equal(401);
    expect(after.headers['www-authenticate']).to.contain('error="invalid_token"');
  });
});
