// API keys: UUID v4 shown once, stored only as a SHA-256 hash (a 122-bit random key needs no slow hash).
// Verification finds the record by hash, compares in constant time, and caches for a few seconds so that a
// revocation made on any instance is seen everywhere within KEY_CACHE_SECONDS.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../domain/hash.js';
import { createTtlCache } from '../domain/ttl-cache.js';
import { COLLECTIONS } from '../store/collections.js';
import type { DocumentStore } from '../store/port.js';
import type { Program } from '../domain/vocabulary.js';
import type { EndpointGroup } from '../domain/endpoint-groups.js';
import { subscriptionOf, type KeyPrincipal } from '../domain/principal.js';

export interface KeyRecord {
  id: string;
  hash: string;
  name: string;
  /** Empty means every jurisdiction. */
  states: string[];
  /** Empty means every program. */
  programs: Program[];
  /** Empty means every non-admin endpoint group. */
  groups: EndpointGroup[];
  compare: boolean;
  admin: boolean;
  createdAt: string;
  revokedAt: string | null;
  /** Last four characters, to help an operator tell keys apart. */
  hint: string;
}

export type PublicKeyRecord = Omit<KeyRecord, 'hash'>;

export type { KeyPrincipal } from '../domain/principal.js';

export interface CreateKeyOptions {
  name?: string;
  states?: string[];
  programs?: Program[];
  groups?: EndpointGroup[];
  compare?: boolean;
  admin?: boolean;
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const hashKey = (key: string): string => sha256Hex(key.toLowerCase());

export function toPublic(record: KeyRecord): PublicKeyRecord {
  const { hash: _hash, ...rest } = record;
  return rest;
}

function toPrincipal(r: KeyRecord): KeyPrincipal {
  return {
    kind: 'key',
    keyId: r.id,
    meterId: r.id,
    name: r.name,
    ...subscriptionOf(r),
  };
}

export interface KeyService {
  create(options: CreateKeyOptions): Promise<{ key: string; record: PublicKeyRecord }>;
  list(): Promise<PublicKeyRecord[]>;
  get(id: string): Promise<PublicKeyRecord | null>;
  revoke(id: string): Promise<PublicKeyRecord | null>;
  /** The principal for a presented key, or null when it is malformed, unknown or revoked. */
  verify(presented: string): Promise<KeyPrincipal | null>;
  /** The principal of a valid key verified within the cache time, without waiting; undefined otherwise (then verify). */
  verifyCached?(presented: string): KeyPrincipal | undefined;
}

export function createKeyService(deps: { store: DocumentStore; now: () => Date; cacheSeconds: number }): KeyService {
  const keys = deps.store.collection<KeyRecord>(COLLECTIONS.keys);
  const cache = createTtlCache<KeyPrincipal | null>({ seconds: deps.cacheSeconds, now: deps.now });

  return {
    async create(options) {
      const key = randomUUID();
      const record: KeyRecord = {
        id: `k_${randomBytes(6).toString('hex')}`,
        hash: hashKey(key),
        name: options.name ?? 'unnamed',
        states: [...new Set(options.states ?? [])].sort(),
        programs: [...new Set(options.programs ?? [])].sort() as Program[],
        groups: [...new Set(options.groups ?? [])].sort() as EndpointGroup[],
        compare: options.compare ?? false,
        admin: options.admin ?? false,
        createdAt: deps.now().toISOString(),
        revokedAt: null,
        hint: key.slice(-4),
      };
      await keys.insert(record);
      return { key, record: toPublic(record) };
    },
    async list() {
      return (await keys.find({}, { sort: { createdAt: 1 } })).map(toPublic);
    },
    async get(id) {
      const r = await keys.findOne({ id });
      return r ? toPublic(r) : null;
    },
    async revoke(id) {
      const r = await keys.findOne({ id });
      if (!r) return null;
      if (!r.revokedAt) {
        r.revokedAt = deps.now().toISOString();
        await keys.update({ id }, { revokedAt: r.revokedAt });
      }
      cache.clear();
      return toPublic(r);
    },
    verifyCached(presented) {
      return UUID_V4.test(presented) ? (cache.peek(hashKey(presented)) ?? undefined) : undefined;
    },
    async verify(presented) {
      if (!UUID_V4.test(presented)) return null;
      const hash = hashKey(presented);
      return cache.get(hash, async () => {
        const r = await keys.findOne({ hash });
        const ok = !!r && !r.revokedAt && timingSafeEqual(Buffer.from(r.hash, 'hex'), Buffer.from(hash, 'hex'));
        return ok ? toPrincipal(r) : null;
      });
    },
  };
}
