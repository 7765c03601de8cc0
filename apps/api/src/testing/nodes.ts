// Helpers for the specs of several API nodes on one PostgreSQL log; nothing in the app imports this file.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import { createTestDatabase } from '../event-store/postgres-testing.ts';
import type { SealedEventStore } from '../privacy/sealed-store.ts';
import { openEventStore } from '../server.ts';
import { type ApiProcess, startApiProcess } from './process.ts';

export interface Nodes {
  /** The API processes, each with a DATA_DIR of its own. */
  nodes: ApiProcess[];
  /** The test's own connection to the shared stores (role grants, reading the log back). */
  store: SealedEventStore;
  /** The shared database's URL. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts `count` API processes at once on a new database (the first to take the schema lock creates
 * the tables, the others find them), with what every node must share besides it: the KEK, the
 * server secret and the ledger's signing key.
 */
export async function startNodes(count: number, extraEnv: Record<string, string> = {}): Promise<Nodes> {
  const database = await createTestDatabase();
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kamai-node-'));
    dirs.push(dir);
    return dir;
  };
  const env = {
    EVENT_STORE: 'postgres',
    DATABASE_URL: database.url,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    APP_SECRET: randomBytes(24).toString('hex'),
    LEDGER_SIGNING_KEY: randomBytes(24).toString('hex'),
    ...extraEnv,
  };
  const started = await Promise.allSettled(Array.from({ length: count }, () => startApiProcess(dataDir(), env)));
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  let store: SealedEventStore | undefined;
  const close = async () => {
    await store?.close();
    await Promise.all(nodes.map((n) => n.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await database.drop();
  };
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    store = await openEventStore(loadConfig({ ...env, DATA_DIR: dataDir() }));
  } catch (err) {
    await close();
    throw err;
  }
  return { nodes, store, url: database.url, close };
}
