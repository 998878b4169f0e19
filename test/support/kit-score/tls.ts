// The kits' TLS test (inferno's tls_version_test with minimum TLS 1.2), over the service started as an operator would
// start it for them: HTTPS with TLS_CERT_FILE/TLS_KEY_FILE (a self-signed certificate made with openssl).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { startService } from '../../../src/service.js';

/** The protocol a client offering at most `maxVersion` gets, or the error. */
function negotiate(port: number, ca: Buffer, maxVersion: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'): Promise<string> {
  return new Promise((resolve) => {
    const s = tlsConnect({ host: '127.0.0.1', port, ca, minVersion: 'TLSv1', maxVersion, ciphers: 'DEFAULT@SECLEVEL=0', servername: 'localhost' });
    s.once('secureConnect', () => (resolve(s.getProtocol() ?? 'none'), s.end()));
    s.once('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code ?? e.message}`));
  });
}

/** Fails (a reason) unless TLS 1.2 is spoken and anything below it refused. */
export async function tlsVersionCheck(): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'prauth-kit-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', PRAUTH_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', TLS_CERT_FILE: join(dir, 'cert.pem'), TLS_KEY_FILE: join(dir, 'key.pem') });
    const svc = await startService(config, pino({ level: 'silent' }));
    try {
      const port = Number(new URL(svc.url).port);
      const ca = readFileSync(join(dir, 'cert.pem'));
      const v12 = await negotiate(port, ca, 'TLSv1.2');
      const v11 = await negotiate(port, ca, 'TLSv1.1');
      if (v12 !== 'TLSv1.2') return `TLS 1.2 not spoken: ${v12}`;
      if (!v11.startsWith('error')) return `TLS 1.1 accepted: ${v11}`;
      return undefined;
    } finally {
      await svc.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
