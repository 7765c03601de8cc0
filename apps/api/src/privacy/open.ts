import { dirname, join } from 'node:path';
import { type SqliteEventStoreOptions, openSqliteEventStore } from '../event-store/sqlite.ts';
import { openPersonalData } from './personal-data.ts';
import { type SealedEventStore, sealEventStore } from './sealed-store.ts';

/**
 * An embedded event store with personal data sealed by the key store beside it (the file's folder
 * as DATA_DIR: keys.sqlite, and the KEK file unless `keyEncryptionKey` is given), as the server
 * opens it: for scripts, benchmarks and tests that open a store file themselves.
 */
export function openSealedSqliteStore(file: string, options: SqliteEventStoreOptions & { keyEncryptionKey?: Buffer } = {}): SealedEventStore {
  const { keyEncryptionKey = null, ...storeOptions } = options;
  const dataDir = dirname(file);
  const personal = openPersonalData({ dataDir, keysFile: join(dataDir, 'keys.sqlite'), keyEncryptionKey });
  try {
    return sealEventStore(openSqliteEventStore(file, storeOptions), personal, { closesKeys: true });
  } catch (err) {
    personal.close();
    throw err;
  }
}
