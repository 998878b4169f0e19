// startService: config -> store -> corpus -> app -> listen. Used by main.ts, the end-to-end tests and the bench.
import { randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { MongoClient } from 'mongodb';
import type { Logger } from 'pino';
import { schedule as cronSchedule, validate as cronValidate, type ScheduledTask } from 'node-cron';
import { allRoutes } from './http/routes/index.js';
import { startingUp } from './http/dispatch.js';
import { publicBaseOf } from './http/base-url.js';
import { createIngester } from './services/ingester.js';
import { buildApp, type BuiltApp } from './app.js';
import type { Config } from './config.js';
import { createCorpusHolder, type CorpusHolder } from './corpus/corpus-holder.js';
import { loadFhirDefinitions } from './fhir/shape/fhir-shape.js';
import { recoverIngests } from './ingest/journal.js';
import { withRecordsFile } from './ingest/records-file.js';
import type { AppDeps } from './api/app-deps.js';
import { runIngest, type IngestProgress, type IngestReport, type IngestSource } from './ingest/run-ingest.js';
import { createAccessGate } from './services/access-gate.js';
import { createAuthThrottle } from './services/auth-throttle.js';
import { createClientService } from './services/clients/client-service.js';
import { servedResourceTypes } from './api/registry.js';
import { createDemoSessions } from './services/demo-sessions.js';
import { createEhrFetcher } from './services/ehr-fetch.js';
import { createKeyService } from './services/keys.js';
import { createPasService } from './services/pas/pas-service.js';
import { handleAutoDecisions } from './services/pas/decide.js';
import { createSubscriptionService } from './services/pas/subscriptions.js';
import { createOutbox } from './services/outbox.js';
import { createChangeFeed } from './services/change-feed.js';
import { lazyVault } from './services/contact-vault.js';
import { createIngestRuns } from './services/ingest-runs.js';
import { createMailer, createSmsSender } from './services/notify-delivery.js';
import { createNotifyService } from './services/notify-when-ready.js';
import { createRateLimits } from './services/rate-limits.js';
import { createUsageMeter } from './services/usage.js';
import { readCorpusVersion } from './store/collections.js';
import { acquireLock, type HeldLock } from './store/embedded/data-dir-lock.js';
import { openStore } from './store/open-store.js';
import type { DocumentStore } from './store/port.js';
import { outboundCheck } from './domain/outbound.js';

export interface RunningService {
  server: Server;
  url: string;
  deps: AppDeps;
  app: BuiltApp;
  store: DocumentStore;
  corpus: CorpusHolder;
  stop(): Promise<void>;
}

export interface ServiceInputs {
  config: Config;
  store: DocumentStore;
  corpus: CorpusHolder;
  log: Logger;
  now: () => Date;
  /** The token the local CLI presents to the admin interface (embedded store only). */
  operatorToken?: string;
}

/**
 * Builds every service once, in dependency order, into the complete dependency object the app runs on. main, the
 * tests and the bench all go through here: a new service is one line below, never a field patched on afterwards.
 */
export function buildServices(inputs: ServiceInputs): AppDeps {
  const { config, store, corpus, log, now } = inputs;
  // Shared counters live in the store's own database (the one its documents are in), whatever the config says.
  const mongoStore = 'client' in store ? (store as unknown as { client: MongoClient; db: { databaseName: string } }) : undefined;
  const mongo = mongoStore ? { client: mongoStore.client, dbName: mongoStore.db.databaseName } : undefined;
  const limits = createRateLimits({
    limits: config.rateLimits,
    ...(mongo ? { mongo } : {}),
    onStoreError: (err) => log.warn({ err }, 'rate-limit store failed; request admitted (fail open)'),
  });
  const keys = createKeyService({ store, now, cacheSeconds: config.keyCacheSeconds });
  const usage = createUsageMeter(store);
  const gate = createAccessGate({ limits, usage, now });
  const clients = createClientService({ store, now, cacheSeconds: config.keyCacheSeconds, servedResourceTypes: servedResourceTypes() });
  const authThrottle = createAuthThrottle({ limits });
  const demo = createDemoSessions({ store, limits, ttlMinutes: config.demoSessionMinutes, now });
  const outbound = outboundCheck(config.outboundDeny.list);
  const ehrFetch = createEhrFetcher({ timeoutMs: config.crdEhrTimeoutMs, outbound });
  const outbox = createOutbox({ store, now, log });
  const subscriptions = createSubscriptionService({ store, now, outbox, outbound, responseBundle: (ref, v) => pas.responseBundle(ref, v), onError: (err) => log.warn({ err }, 'subscription heartbeat check failed') });
  const pas = createPasService({ store, corpus, now, outbox, publish: (e) => subscriptions.publish(e), ...(config.pasAutoDecide ? { autoDecide: config.pasAutoDecide } : {}) });
  if (config.pasAutoDecide) handleAutoDecisions(outbox, pas, config.pasAutoDecide.action);
  const changeFeed = createChangeFeed({ store, verifiedOnly: config.serveVerifiedOnly });
  const notify = createNotifyService({
    store, corpus, outbox, limits, now, log,
    vault: lazyVault(config.notify),
    sendMail: createMailer(config.notify),
    sendSms: createSmsSender(config.notify),
    // Links in messages: PUBLIC_BASE_URL, else this server's own origin (never a request's Host header).
    messageBaseUrl: publicBaseOf({ host: `localhost:${config.port}` }, config),
  });
  const ingestRuns = createIngestRuns({ store, now, log, ingest: createIngester(store, corpus, now), afterChange: () => notify.dispatch() });
  const ingest = (source: IngestSource, onProgress?: IngestProgress): Promise<IngestReport> =>
    typeof source === 'string' ? ingestRuns.run(source, 'admin', onProgress) : withRecordsFile(source, (path) => ingestRuns.run(path, 'admin', onProgress));
  return {
    ...inputs,
    keys,
    clients,
    authThrottle,
    usage,
    gate,
    demo,
    ingest,
    ehrFetch,
    outbox,
    pas,
    subscriptions,
    changeFeed,
    notify,
    ingestRuns,
  };
}

export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`port ${port} is already in use; stop the process that holds it or set PORT to another port`);
    this.name = 'PortInUseError';
  }
}

/**
 * The bundled corpus is loaded on a first start only, so a store keeps what it loaded before when the service is
 * upgraded. Where the bundled corpus's verified count (fixtures/coverage.json, written by the build) differs from
 * what the store serves, the operator is told how to load it; nothing is replaced without being asked.
 */
function warnIfBundledDiffers(fixturesDir: string, servedVerified: number, log: Logger): void {
  let bundled: unknown;
  try {
    bundled = (JSON.parse(readFileSync(join(fixturesDir, 'coverage.json'), 'utf8')) as { verified?: unknown }).verified;
  } catch {
    return; // no bundled coverage table (a custom fixtures directory): nothing to compare
  }
  if (typeof bundled !== 'number' || bundled === servedVerified) return;
  log.warn({ bundledVerified: bundled, servedVerified, fixturesDir },
    `this store serves ${servedVerified} verified rules; the bundled corpus has ${bundled} (the store keeps the corpus it loaded first): npx prauth ingest ${fixturesDir} loads it`);
  log.flush(); // the log is buffered; an operator reads this at start-up, not at the next 4 KB
}

export async function startService(config: Config, log: Logger, extend?: (deps: AppDeps) => Promise<void> | void): Promise<RunningService> {
  // The port first: a port in use is reported before any data directory is created or corpus loaded. Until the
  // service is ready the server answers 503 with Retry-After, rendered for the address's surface like every error.
  let ready: BuiltApp['handler'] | undefined;
  const routes = allRoutes({ config });
  const starting = startingUp(routes, log);
  const handler = (req: IncomingMessage, res: ServerResponse): void => (ready ? ready(req, res) : starting(req, res));
  // HTTPS when TLS_CERT_FILE/TLS_KEY_FILE are set: TLS 1.2 minimum (the test kits check it); else plain HTTP,
  // the usual deployment behind a TLS-terminating reverse proxy.
  const server: Server = config.tlsCertFile && config.tlsKeyFile
    ? (createTlsServer({ cert: readFileSync(config.tlsCertFile), key: readFileSync(config.tlsKeyFile), minVersion: 'TLSv1.2' }, handler) as unknown as Server)
    : createServer(handler);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new PortInUseError(config.port) : err));
    server.listen(config.port, config.host, () => resolve());
  });
  let lock: HeldLock | undefined;
  // Each start-up step at debug level, with the time since the port was bound: where a start that hangs is waiting.
  const t0 = performance.now();
  // Flushed at once: the log is buffered (4 KB) for speed, and a start that hangs would otherwise show nothing.
  const step = (name: string) => {
    log.debug({ step: name, ms: Math.round(performance.now() - t0) }, 'start-up');
    if (log.isLevelEnabled('debug')) log.flush();
  };
  try {
    if (!config.mongodbUri) lock = acquireLock(config.dataDir, 'server');
    step('opening the store');
    const store = await openStore(config);
    step('recovering interrupted ingests');
    const repaired = await recoverIngests(store); // finish an ingest a crash interrupted (write-ahead journal)
    if (repaired.length) log.warn({ corpusVersions: repaired }, 'completed interrupted ingests from the journal');
    const now = () => new Date();
    const storeHadCorpus = (await readCorpusVersion(store)) !== 0;
    if (config.loadSample && !storeHadCorpus && existsSync(config.fixturesDir)) {
      const report = await runIngest({ store, now }, config.fixturesDir);
      log.info({ added: report.added, rejected: report.rejected.length, corpusVersion: report.corpusVersion }, 'loaded the bundled sample corpus');
    }
    step('loading the corpus');
    const corpus = await createCorpusHolder(store, { verifiedOnly: config.serveVerifiedOnly });
    if (config.loadSample && storeHadCorpus) warnIfBundledDiffers(config.fixturesDir, corpus.current.counts.verified, log);
    corpus.startPolling(config.corpusPollSeconds * 1000, (err) => log.warn({ err }, 'corpus refresh failed'));
    const deps = buildServices({
      config,
      store,
      corpus,
      log,
      now,
      ...(lock ? { operatorToken: randomBytes(24).toString('hex') } : {}),
    });
    deps.usage.start(config.usageFlushSeconds * 1000, (err) => log.warn({ err }, 'usage flush failed'));
    step('recovering ingest runs');
    await deps.ingestRuns.recover();
    deps.outbox.start(config.outboxPollSeconds * 1000);
    deps.subscriptions.start(config.subscriptionHeartbeatCheckSeconds * 1000);
    deps.notify.start(config.outboxPollSeconds * 1000);
    await extend?.(deps);
    const app = buildApp(deps, routes);
    ready = app.handler;
    step('ready');
    // The structural validator's R4 definitions (about 2 s of parsing) load right after the service is ready, so a
    // start is not slowed by them; a FHIR or CDS body arriving first waits for them.
    setImmediate(loadFhirDefinitions);
    const { port } = server.address() as AddressInfo;
    const url = `${config.tlsCertFile ? 'https' : 'http'}://127.0.0.1:${port}`;
    // Over HTTPS the CLI pins this server's certificate (often self-signed, and not issued for 127.0.0.1).
    const fingerprint = config.tlsCertFile ? new X509Certificate(readFileSync(config.tlsCertFile)).fingerprint256 : undefined;
    if (lock && deps.operatorToken) lock.publish(url, deps.operatorToken, fingerprint);

    let task: ScheduledTask | undefined;
    if (config.ingestCron && config.ingestSource) {
      if (!cronValidate(config.ingestCron)) throw new Error(`INGEST_CRON is not a valid cron expression: ${config.ingestCron}`);
      const source = config.ingestSource;
      task = cronSchedule(config.ingestCron, async () => {
        await deps.ingestRuns.scheduled(source);
      }, { name: 'ingest' });
    }

    return {
      server,
      url,
      deps,
      app,
      store,
      corpus,
      async stop() {
        await task?.stop();
        corpus.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await deps.usage.stop();
        deps.subscriptions.stop();
        await deps.notify.stop();
        await deps.outbox.stop();
        await store.close();
        lock?.release();
      },
    };
  } catch (err) {
    lock?.release();
    server.close();
    throw err;
  }
}
