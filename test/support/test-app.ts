// An app built in-process over an in-memory embedded store, loaded with the given documents.
import { pino } from 'pino';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { servingPolicy } from './spawn.js';
import { createCorpusHolder } from '../../src/corpus/corpus-holder.js';
import type { CanonicalDoc } from '../../src/domain/documents.js';
import type { AppDeps } from '../../src/api/app-deps.js';
import { ingestRecords } from '../../src/ingest/run-ingest.js';
import type { CreateKeyOptions } from '../../src/services/keys.js';
import { buildServices } from '../../src/service.js';
import { openEmbeddedStore } from '../../src/store/embedded/embedded-store.js';
import { openMongoStore } from '../../src/store/mongo/mongo-store.js';
import { ensureIndexes } from '../../src/store/collections.js';
import type { DocumentStore } from '../../src/store/port.js';

export interface TestApp {
  app: BuiltApp;
  deps: AppDeps;
  /** A new key's plaintext. */
  key(options?: CreateKeyOptions): Promise<string>;
}

/**
 * Most suites exercise every surface over the whole sample corpus, so test apps opt in to serving sample rules
 * (SERVE_SAMPLE_RULES=true) unless the test sets the serving policy itself; test/contract/rule-status.test.ts and
 * test/contract/verified-default.test.ts check the default (verified rules only, 404 elsewhere).
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ PRAUTH_DATA_DIR: '/nonexistent-test-dir', LOG_LEVEL: 'silent', ...servingPolicy(env), ...env });
}

let mongoApps = 0;
/**
 * The store a test app runs on: in memory, or with MONGODB_URI set (the CI's second run, on FerretDB) a database
 * of its own on that server, so the whole contract suite runs on both adapters.
 */
export async function testStore(): Promise<DocumentStore> {
  const uri = process.env.MONGODB_URI;
  if (!uri) return openEmbeddedStore({});
  return openMongoStore(uri, `prauth_t_${process.pid}_${++mongoApps}`);
}

export async function makeTestApp(
  docs: readonly CanonicalDoc[],
  options: { env?: Record<string, string>; extend?: (deps: AppDeps) => void | Promise<void>; now?: () => Date; store?: DocumentStore } = {},
): Promise<TestApp> {
  const store = options.store ?? (await testStore());
  await ensureIndexes(store);
  const now = options.now ?? (() => new Date());
  const report = await ingestRecords({ store, now }, docs.map((value, i) => ({ file: 'test', line: i + 1, value })));
  if (report.rejected.length) throw new Error(`test corpus rejected: ${JSON.stringify(report.rejected)}`);
  const config = testConfig(options.env);
  const corpus = await createCorpusHolder(store, { verifiedOnly: config.serveVerifiedOnly });
  const deps = buildServices({ config, store, corpus, log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), now });
  await options.extend?.(deps);
  const app = buildApp(deps);
  return {
    app,
    deps,
    key: async (o = {}) => (await deps.keys.create(o)).key,
  };
}
