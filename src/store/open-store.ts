import type { Config } from '../config.js';
import type { DocumentStore } from './port.js';
import { openEmbeddedStore } from './embedded/embedded-store.js';
import { ensureIndexes } from './collections.js';
import { withDeadline } from './deadline.js';

/**
 * MONGODB_URI set: the official driver; otherwise the embedded file store in PRAUTH_DATA_DIR. Connecting and
 * creating the indexes must finish within STORE_OPEN_TIMEOUT_SECONDS (the service and the CLI alike).
 */
export function openStore(config: Pick<Config, 'mongodbUri' | 'mongodbDb' | 'dataDir' | 'storeOpenTimeoutMs'>): Promise<DocumentStore> {
  const open = async (): Promise<DocumentStore> => {
    // The driver is loaded only when it is used (about 0.15 s of a start on the embedded store).
    const store = config.mongodbUri
      ? await (await import('./mongo/mongo-store.js')).openMongoStore(config.mongodbUri, config.mongodbDb)
      : await openEmbeddedStore({ dataDir: config.dataDir });
    await ensureIndexes(store);
    return store;
  };
  return withDeadline(open(), config.storeOpenTimeoutMs, 'opening the store (connect and index creation)');
}
