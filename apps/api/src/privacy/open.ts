import { dirname, join } from 'node:path';
import type { Config } from '../config.ts';
import { type SqliteEventStoreOptions, openSqliteEventStore } from '../event-store/sqlite.ts';
import { readOrCreateSecretFile } from '../secret-file.ts';
import { type OpenPersonalData, personalDataAt } from './personal-data.ts';
import { type SealedEventStore, sealEventStore } from './sealed-store.ts';
import { alertUnreadable } from './unreadable-alert.ts';

type KeyConfig = Pick<Config, 'keyEncryptionKey' | 'keysFile' | 'dataDir'> & { eventStore?: Config['eventStore'] };

/**
 * The key-encryption key: KEY_ENCRYPTION_KEY, or (development) a key created once in DATA_DIR,
 * about which the start-up log warns, since a copy of DATA_DIR then carries the key with the data.
 */
function loadKeyEncryptionKey(config: KeyConfig, log: (line: string) => void = () => {}): Buffer {
  if (config.keyEncryptionKey) return config.keyEncryptionKey;
  const file = join(config.dataDir, 'kek.key');
  const { secret, created } = readOrCreateSecretFile(file);
  log(
    `[privacy] the key-encryption key is ${file}${created ? ' (created now)' : ''}: in production set KEY_ENCRYPTION_KEY ` +
      'from a secret store and delete the file, so a copy of DATA_DIR does not carry the key to its own personal data',
  );
  return secret;
}

/**
 * Opens the key store of a configuration (DATA_DIR/keys.sqlite, or PostgreSQL's tables with
 * EVENT_STORE=postgres), creating it and the KEK file if needed, as a process that serves or runs
 * a command opens it: an event whose blob does not open raises the alert (unreadable-alert.ts).
 */
export function openPersonalData(config: KeyConfig, log?: (line: string) => void): OpenPersonalData {
  const databaseUrl = config.eventStore?.kind === 'postgres' ? config.eventStore.url : undefined;
  return personalDataAt({ keysFile: config.keysFile, kek: loadKeyEncryptionKey(config, log), ...(databaseUrl !== undefined && { databaseUrl }) }, alertUnreadable);
}

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
