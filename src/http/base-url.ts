// The public address of this service, without /v1: PUBLIC_BASE_URL when set (the usual case behind a reverse
// proxy), else the scheme this server speaks and the request's Host. Signed JWTs are checked against it (a CDS
// Hooks JWT's aud is the service URL, a client assertion's aud the token URL), so set PUBLIC_BASE_URL in production.
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../config.js';

export function publicBaseOf(headers: IncomingHttpHeaders, config: Pick<Config, 'publicBaseUrl' | 'tlsCertFile'>): string {
  return config.publicBaseUrl ?? `${config.tlsCertFile ? 'https' : 'http'}://${headers.host ?? 'localhost'}`;
}
