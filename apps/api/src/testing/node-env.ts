// For tests and the bench only; nothing in the app imports this file.
import { randomBytes } from 'node:crypto';

/**
 * The environment every API node on one PostgreSQL database must share besides the database: the
 * KEK, the server secret and the ledger's signing key (docs/scale-out.md), fresh for each cluster.
 */
export function postgresNodesEnv(databaseUrl: string): Record<string, string> {
  return {
    EVENT_STORE: 'postgres',
    DATABASE_URL: databaseUrl,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    APP_SECRET: randomBytes(24).toString('hex'),
    LEDGER_SIGNING_KEY: randomBytes(24).toString('hex'),
  };
}
