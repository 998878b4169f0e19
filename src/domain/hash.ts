// SHA-256 as the service stores secrets and derives ids: hex of the UTF-8 text.
import * as crypto from 'node:crypto';

type OneShot = (algorithm: string, data: string, encoding: 'hex') => string;
// Node 20.12+ hashes in one call (no Hash object per call: every keyed request hashes its key); older Nodes build one.
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

export const sha256Hex: (s: string) => string = oneShot ? (s) => oneShot('sha256', s, 'hex') : (s) => crypto.createHash('sha256').update(s).digest('hex');
