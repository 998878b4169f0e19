import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';
import { publicBaseOf } from '../../src/http/base-url.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ PRAUTH_DATA_DIR: '/nonexistent', ...env });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};

describe('TLS configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prauth-tlscfg-'));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  writeFileSync(cert, 'not checked here: the server fails at start on a bad PEM');
  writeFileSync(key, 'x');

  it('when only one of TLS_CERT_FILE and TLS_KEY_FILE is set, or a file is missing, then the service does not start and says why', () => {
    expect(problemsOf({ TLS_CERT_FILE: cert })).to.deep.equal(['TLS_CERT_FILE and TLS_KEY_FILE must be set together']);
    expect(problemsOf({ TLS_CERT_FILE: cert, TLS_KEY_FILE: join(dir, 'missing.pem') })).to.deep.equal([`TLS_KEY_FILE is not a readable file: ${join(dir, 'missing.pem')}`]);
    expect(problemsOf({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key })).to.deep.equal([]);
  });

  it('when the public base is derived, then PUBLIC_BASE_URL wins, else the scheme the server speaks and the Host', () => {
    const tls = loadConfig({ PRAUTH_DATA_DIR: '/nonexistent', TLS_CERT_FILE: cert, TLS_KEY_FILE: key });
    const plain = loadConfig({ PRAUTH_DATA_DIR: '/nonexistent' });
    const proxied = loadConfig({ PRAUTH_DATA_DIR: '/nonexistent', PUBLIC_BASE_URL: 'https://prauth.example.org/' });
    expect(publicBaseOf({ host: 'h:8443' }, tls)).to.equal('https://h:8443');
    expect(publicBaseOf({ host: 'h:8080' }, plain)).to.equal('http://h:8080');
    expect(publicBaseOf({ host: 'internal:8080' }, proxied)).to.equal('https://prauth.example.org');
  });
});
