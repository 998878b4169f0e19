import type { Config } from '../config.js';
import type { DocumentStore } from './port.js';
import { openEmbeddedStore } from './embedded/embedded-store.js';
import { openMongoStore } from './mongo/mongo-store.js';
import { ensureIndexes } from './collections.js';

/** MONGODB_URI set: the official driver; otherwise the embedded file store in PRAUTH_DATA_DIR. */
export async function openStore(config: Pick<Config, 'mongodbUri' | 'mongodbDb' | 'dataDir'>): Promise<DocumentStore> {
  const store = config.mongodbUri
    ? await openMongoStore(config.mongodbUri, config.mongodbDb)
    : await openEmbeddedStore({ dataDir: config.dataDir });
  await ensureIndexes(store);
  return store;
}
