// What the CLI can do, in two implementations: directly on the store (the CLI holds the data directory, or the
// store is MongoDB), or through a running server's admin interface (the server holds the embedded store).
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import type { Config } from '../config.js';
import { createIngester } from '../services/ingester.js';
import type { IngestProgress, IngestReport } from '../ingest/run-ingest.js';
import { readSources } from '../ingest/read-sources.js';
import { createIngestRuns } from '../services/ingest-runs.js';
import { pino } from 'pino';
import { createKeyService, type CreateKeyOptions, type PublicKeyRecord } from '../services/keys.js';
import { createClientService } from '../services/clients/client-service.js';
import type { ClientRecord, CreateClientOptions } from '../services/clients/records.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  acquireLock,
  readLock,
  runningServers,
  type HeldLock,
  type LockInfo,
} from '../store/embedded/data-dir-lock.js';
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
  /** Registers a client; `problems` lists why a registration was refused. */
  createClient(options: CreateClientOptions): Promise<{ ok: true; record: ClientRecord } | { ok: false; problems: string[] }>;
  listClients(): Promise<ClientRecord[]>;
  revokeClient(id: string): Promise<ClientRecord | null>;
  ingest(path: string, onProgress?: IngestProgress): Promise<IngestReport>;
  /** Direct mode: the store this CLI holds (read-only views such as staleness use it). */
  readonly store?: DocumentStore;
  /** Server mode: a GET on the admin interface (views the server computes). */
  get<T>(path: string): Promise<T>;
  close(): Promise<void>;
  /** Server mode: a call to the running server's admin interface (404 is returned, other errors throw). */
  adminCall?<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }>;
}

export class OperatorError extends Error {}

function direct(store: DocumentStore, lock: HeldLock | undefined, config: Config, warnings: string[]): Operator {
  const now = () => new Date();
  const keys = createKeyService({ store, now, cacheSeconds: 0 });
  // Runs are recorded like the server's (trigger cli); notify-when-ready dispatch happens when a server next starts.
  const runs = createIngestRuns({ store, now, log: pino({ level: 'silent' }), ingest: createIngester(store, undefined, now) });
  // Token scopes are not issued from the CLI, so the served resource types do not matter here.
  const clients = createClientService({ store, now, cacheSeconds: 0, servedResourceTypes: new Set() });
  return {
    via: 'store',
    store,
    get() {
      return Promise.reject(new OperatorError('no server holds the data directory'));
    },
    where: config.mongodbUri ? `MongoDB database '${config.mongodbDb}' (MONGODB_URI)` : `the embedded store in ${config.dataDir} (no server running on it)`,
    warnings,
    createKey: (o) => keys.create(o),
    listKeys: () => keys.list(),
    revokeKey: (id) => keys.revoke(id),
    async usage(id) {
      if (!(await keys.get(id))) return null;
      return toUsageReport(id, await store.collection<UsageDoc>(COLLECTIONS.usage).find({ keyId: id }));
    },
    createClient: (o) => clients.create(o),
    listClients: () => clients.list(),
    revokeClient: (id) => clients.revoke(id),
    ingest: (path, onProgress) => runs.run(path, 'cli', onProgress),
    async close() {
      await store.close();
      lock?.release();
      void config;
    },
  };
}

/**
 * One HTTPS request to a server whose certificate is pinned by fingerprint (from the lock file): the connection is
 * checked before anything, the operator token included, is written to it.
 */
function pinnedRequest(url: URL, fingerprint256: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; json(): Promise<unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false, minVersion: 'TLSv1.2' });
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      if (socket.getPeerCertificate().fingerprint256 !== fingerprint256) {
        socket.destroy();
        reject(new Error('the server certificate does not match the one recorded in the lock file'));
        return;
      }
      const req = httpsRequest(url, { method, headers, createConnection: () => socket }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: async () => JSON.parse(text) as unknown }));
      });
      req.once('error', reject);
      req.end(body);
    });
  });
}

function remote(info: LockInfo, config: Config, warnings: string[]): Operator {
  const base = info.adminUrl!;
  async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
    let res: { status: number; json(): Promise<unknown> };
    const headers = { authorization: `Bearer ${info.operatorToken}`, ...(body ? { 'content-type': 'application/json' } : {}) };
    try {
      res = base.startsWith('https:') && info.tlsFingerprint256
        ? await pinnedRequest(new URL(`${base}${path}`), info.tlsFingerprint256, method, headers, body ? JSON.stringify(body) : undefined)
        : await fetch(`${base}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    } catch (err) {
      throw new OperatorError(`the server (pid ${info.pid}) holds the data directory but did not answer at ${base}: ${(err as Error).message}`);
    }
    const data = (await res.json().catch(() => ({}))) as T & { error?: string; problems?: string[] };
    if (res.status === 400 && Array.isArray(data.problems)) return { status: res.status, data };
    if (res.status >= 400 && res.status !== 404) throw new OperatorError(`server answered ${res.status}: ${data.error ?? 'error'}`);
    return { status: res.status, data };
  }
  return {
    via: 'server',
    adminCall: call,
    async get<T>(path: string) {
      return (await call<T>('GET', path)).data;
    },
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
    async createClient(o) {
      const body = {
        kind: o.kind,
        ...(o.name ? { name: o.name } : {}),
        ...(o.jwksUrl ? { jwks_url: o.jwksUrl } : {}),
        ...(o.jwks !== undefined ? { jwks: o.jwks } : {}),
        ...(o.issuer ? { issuer: o.issuer } : {}),
        states: o.states ?? [],
        programs: o.programs ?? [],
        groups: o.groups ?? [],
        compare: !!o.compare,
        admin: !!o.admin,
      };
      const r = await call<{ client: ClientRecord; problems?: string[] }>('POST', '/v1/admin/clients', body);
      return r.data.problems ? { ok: false, problems: r.data.problems } : { ok: true, record: r.data.client };
    },
    async listClients() {
      return (await call<{ clients: ClientRecord[] }>('GET', '/v1/admin/clients')).data.clients;
    },
    async revokeClient(id) {
      const r = await call<{ client: ClientRecord }>('POST', `/v1/admin/clients/${encodeURIComponent(id)}/revoke`);
      return r.status === 404 ? null : r.data.client;
    },
    async ingest(path) {
      // The file is read here and sent inline: the server reads no path the operator names (issue 13).
      // Rejections come back by position in the body and are mapped to their file and line here.
      const { files, records } = await readSources(path);
      const parsed = records.filter((r) => !r.parseError);
      const report = (await call<IngestReport>('POST', '/v1/admin/ingest', { records: parsed.map((r) => r.value) })).data;
      const rejected = [
        ...records.filter((r) => r.parseError).map((r) => ({ file: r.file, line: r.line, reason: r.parseError! })),
        ...report.rejected.map((x) => ({ ...x, file: parsed[x.line - 1]?.file ?? x.file, line: parsed[x.line - 1]?.line ?? x.line })),
      ];
      return { ...report, files, received: records.length, rejected };
    },
    async close() {},
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What an operator should hear before a command on this data directory: servers elsewhere, a brand-new directory. */
export function dataDirWarnings(config: Config): string[] {
  if (config.mongodbUri) return [];
  const here = resolve(config.dataDir);
  const servers = runningServers();
  // A server on this directory takes the command: servers on other directories are then not worth a word.
  const warnings = (servers.some((s) => s.dataDir === here) ? [] : servers)
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
