// What the CLI can do, in two implementations: directly on the store (the CLI holds the data directory, or the
// store is MongoDB), or through a running server's admin interface (the server holds the embedded store).
import type { Config } from '../config.js';
import { createIngester } from '../service.js';
import type { IngestReport } from '../ingest/run-ingest.js';
import { createKeyService, type CreateKeyOptions, type PublicKeyRecord } from '../services/keys.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { acquireLock, readLock, runningServers, type HeldLock, type LockInfo } from '../store/embedded/data-dir-lock.js';
import { openStore } from '../store/open-store.js';
import { COLLECTIONS } from '../store/collections.js';
import { toUsageReport, type UsageDoc, type UsageReport } from '../services/usage.js';
import type { DocumentStore } from '../store/port.js';

export interface Operator {
  readonly via: 'store' | 'server';
  /** Where writes go, in words: "the embedded store in /srv/data (through the server pid 123 at http://...)". */
  readonly where: string;
  /** Things the operator should know before trusting the result (another data directory in use, a new one). */
  readonly warnings: string[];
  createKey(options: CreateKeyOptions): Promise<{ key: string; record: PublicKeyRecord }>;
  listKeys(): Promise<PublicKeyRecord[]>;
  revokeKey(id: string): Promise<PublicKeyRecord | null>;
  usage(id: string): Promise<UsageReport | null>;
  ingest(path: string): Promise<IngestReport>;
  close(): Promise<void>;
  /** Direct mode: the store the CLI holds (topic commands build their service over it). */
  readonly store?: DocumentStore;
  /** Server mode: a call to the running server's admin interface (404 is returned, other errors throw). */
  adminCall?<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }>;
}

export class OperatorError extends Error {}

function direct(store: DocumentStore, lock: HeldLock | undefined, config: Config, warnings: string[]): Operator {
  const now = () => new Date();
  const keys = createKeyService({ store, now, cacheSeconds: 0 });
  const ingest = createIngester(store, undefined, now);
  return {
    via: 'store',
    store,
    where: config.mongodbUri ? `MongoDB database '${config.mongodbDb}' (MONGODB_URI)` : `the embedded store in ${config.dataDir} (no server running on it)`,
    warnings,
    createKey: (o) => keys.create(o),
    listKeys: () => keys.list(),
    revokeKey: (id) => keys.revoke(id),
    async usage(id) {
      if (!(await keys.get(id))) return null;
      return toUsageReport(id, await store.collection<UsageDoc>(COLLECTIONS.usage).find({ keyId: id }));
    },
    ingest,
    async close() {
      await store.close();
      lock?.release();
      void config;
    },
  };
}

function remote(info: LockInfo, config: Config, warnings: string[]): Operator {
  const base = info.adminUrl!;
  async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${info.operatorToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw new OperatorError(`the server (pid ${info.pid}) holds the data directory but did not answer at ${base}: ${(err as Error).message}`);
    }
    const data = (await res.json().catch(() => ({}))) as T & { error?: string };
    if (res.status >= 400 && res.status !== 404) throw new OperatorError(`server answered ${res.status}: ${data.error ?? 'error'}`);
    return { status: res.status, data };
  }
  return {
    via: 'server',
    adminCall: call,
    where: `the embedded store in ${config.dataDir} (through the server pid ${info.pid} at ${base})`,
    warnings,
    async createKey(o) {
      return (await call<{ key: string; record: PublicKeyRecord }>('POST', '/v1/admin/keys', o)).data;
    },
    async listKeys() {
      return (await call<{ keys: PublicKeyRecord[] }>('GET', '/v1/admin/keys')).data.keys;
    },
    async revokeKey(id) {
      const r = await call<{ key: PublicKeyRecord }>('POST', `/v1/admin/keys/${encodeURIComponent(id)}/revoke`);
      return r.status === 404 ? null : r.data.key;
    },
    async usage(id) {
      const r = await call<UsageReport>('GET', `/v1/admin/keys/${encodeURIComponent(id)}/usage`);
      return r.status === 404 ? null : r.data;
    },
    async ingest(path) {
      return (await call<IngestReport>('POST', '/v1/admin/ingest', { path })).data;
    },
    async close() {},
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What an operator should hear before a command on this data directory: servers elsewhere, a brand-new directory. */
export function dataDirWarnings(config: Config): string[] {
  if (config.mongodbUri) return [];
  const here = resolve(config.dataDir);
  const warnings = runningServers()
    .filter((s) => s.dataDir !== here)
    .map((s) => `a server (pid ${s.pid}, ${s.url}) is running on the data directory ${s.dataDir}, but this command uses ${here}; set PRAUTH_DATA_DIR=${s.dataDir} to reach that server's keys and corpus`);
  if (!existsSync(here)) warnings.push(`${here} does not exist yet: this command creates a new, empty data directory (set PRAUTH_DATA_DIR to use another)`);
  return warnings;
}

export async function openOperator(config: Config, waitMs = 10_000): Promise<Operator> {
  const warnings = dataDirWarnings(config);
  if (config.mongodbUri) return direct(await openStore(config), undefined, config, warnings);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const holder = readLock(config.dataDir);
    if (holder?.holder === 'server' && holder.adminUrl && holder.operatorToken) return remote(holder, config, warnings);
    if (!holder) {
      try {
        const lock = acquireLock(config.dataDir, 'cli');
        try {
          return direct(await openStore(config), lock, config, warnings);
        } catch (err) {
          lock.release();
          throw err;
        }
      } catch (err) {
        if ((err as Error).name !== 'DataDirBusyError') throw err;
      }
    }
    // Another CLI holds it, or a server is still starting: wait for it.
    if (Date.now() > deadline) {
      throw new OperatorError(`the data directory ${config.dataDir} is busy (${holder?.holder ?? 'unknown'} pid ${holder?.pid ?? '?'})`);
    }
    await sleep(100);
  }
}
