// The API specs' PostgreSQL variants (EVENT_STORE=postgres on the run's throwaway cluster); nothing in
// the app imports this file, nor does testing/index.ts (the bench has no cluster).
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '../event-store/postgres-testing.ts';
import type { ServerOptions } from '../server.ts';
import { type TestServer, startTestServer } from './server.ts';

/** The stores a spec's money paths are checked on: the embedded one, and PostgreSQL as N nodes share it. */
export const STORES = ['sqlite', 'postgres'] as const;
export type StoreKind = (typeof STORES)[number];

/** What an API needs to run on a new database of its own: its URL and a KEK every process on it shares. */
export async function postgresEnv(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const { url, drop } = await createTestDatabase();
  return { env: { EVENT_STORE: 'postgres', DATABASE_URL: url, KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex') }, drop };
}

/** startTestServer on `kind`: for PostgreSQL on a new database, dropped by close(). */
export async function startTestServerOn(kind: StoreKind, env: Record<string, string> = {}, options: ServerOptions = {}): Promise<TestServer> {
  if (kind === 'sqlite') return startTestServer(env, options);
  const database = await postgresEnv();
  let server: TestServer;
  try {
    server = await startTestServer({ ...database.env, ...env }, options);
  } catch (err) {
    await database.drop();
    throw err;
  }
  const close = server.close;
  return Object.assign(server, {
    async close() {
      try {
        await close();
      } finally {
        await database.drop();
      }
    },
  });
}
