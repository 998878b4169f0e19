#!/usr/bin/env node
// Keys and signed JWTs for a client of prauth, with jose (no hand-written crypto). Three steps:
//
//   node scripts/make-client-keys.mjs keys --alg ES384 --dir ./my-client
//       -> my-client/private-key.jwk.json (mode 0600, keep it secret) and my-client/jwks.json (public: register it
//          with `prauth clients create --jwks-file my-client/jwks.json`, or publish it at an https URL)
//   node scripts/make-client-keys.mjs assertion --dir ./my-client --client-id c_... --token-url https://host/v1/auth/token
//       -> a SMART Backend Services client assertion (iss = sub = client_id, aud = token URL, exp 5 min, jti)
//   node scripts/make-client-keys.mjs cds-jwt --dir ./my-ehr --iss https://ehr.example --aud https://host/v1/cds-services/service-coverage-requirements [--jku URL]
//       -> a CDS Hooks JWT as an EHR sends it (iss, aud = the service URL, iat, exp 5 min, jti; kid and jku in the header)
//
// The JWT is printed on stdout alone, so it can be captured: ASSERTION=$(node scripts/make-client-keys.mjs assertion ...)
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';

const USAGE = `usage:
  make-client-keys.mjs keys --dir DIR [--alg ES384|RS384] [--kid KID]
  make-client-keys.mjs assertion --dir DIR --client-id ID --token-url URL
  make-client-keys.mjs cds-jwt --dir DIR --iss ISS --aud SERVICE_URL [--jku JWKS_URL]`;

function fail(message) {
  process.stderr.write(`make-client-keys: ${message}\n${USAGE}\n`);
  process.exit(1);
}

const [command, ...rest] = process.argv.slice(2);
let values;
try {
  ({ values } = parseArgs({
    args: rest,
    options: {
      dir: { type: 'string' },
      alg: { type: 'string', default: 'ES384' },
      kid: { type: 'string' },
      'client-id': { type: 'string' },
      'token-url': { type: 'string' },
      iss: { type: 'string' },
      aud: { type: 'string' },
      jku: { type: 'string' },
    },
  }));
} catch (err) {
  fail(err.message);
}
if (!values.dir) fail('--dir is required');
const privatePath = join(values.dir, 'private-key.jwk.json');

async function loadPrivate() {
  let jwk;
  try {
    jwk = JSON.parse(readFileSync(privatePath, 'utf8'));
  } catch {
    fail(`no private key at ${privatePath}: run the keys step first`);
  }
  return { jwk, key: await importJWK(jwk, jwk.alg) };
}

const nowSec = () => Math.floor(Date.now() / 1000);

if (command === 'keys') {
  if (!['ES384', 'RS384'].includes(values.alg)) fail('--alg must be ES384 or RS384');
  if (existsSync(privatePath)) fail(`${privatePath} exists already: use another --dir`);
  const kid = values.kid ?? randomUUID();
  const { privateKey, publicKey } = await generateKeyPair(values.alg, { extractable: true });
  const pub = { ...(await exportJWK(publicKey)), kid, alg: values.alg, use: 'sig' };
  mkdirSync(values.dir, { recursive: true });
  writeFileSync(privatePath, `${JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: values.alg }, null, 2)}\n`, { mode: 0o600 });
  writeFileSync(join(values.dir, 'jwks.json'), `${JSON.stringify({ keys: [pub] }, null, 2)}\n`);
  process.stderr.write(`wrote ${privatePath} (secret) and ${join(values.dir, 'jwks.json')} (public), kid ${kid}, alg ${values.alg}\n`);
} else if (command === 'assertion') {
  if (!values['client-id'] || !values['token-url']) fail('assertion needs --client-id and --token-url');
  const { jwk, key } = await loadPrivate();
  const jwt = await new SignJWT({ jti: randomBytes(32).toString('hex') })
    .setProtectedHeader({ alg: jwk.alg, kid: jwk.kid, typ: 'JWT', ...(values.jku ? { jku: values.jku } : {}) })
    .setIssuer(values['client-id'])
    .setSubject(values['client-id'])
    .setAudience(values['token-url'])
    .setExpirationTime(nowSec() + 300)
    .sign(key);
  process.stdout.write(`${jwt}\n`);
} else if (command === 'cds-jwt') {
  if (!values.iss || !values.aud) fail('cds-jwt needs --iss and --aud');
  const { jwk, key } = await loadPrivate();
  const jwt = await new SignJWT({ jti: randomBytes(32).toString('hex') })
    .setProtectedHeader({ alg: jwk.alg, typ: 'JWT', kid: jwk.kid, ...(values.jku ? { jku: values.jku } : {}) })
    .setIssuer(values.iss)
    .setAudience(values.aud)
    .setIssuedAt(nowSec())
    .setExpirationTime(nowSec() + 300)
    .sign(key);
  process.stdout.write(`${jwt}\n`);
} else {
  fail(`unknown command '${command ?? ''}'`);
}
