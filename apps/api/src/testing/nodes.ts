// Helpers for the specs of several API nodes on one PostgreSQL log; nothing in the app imports this file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import { createTestDatabase } from '../event-store/postgres-testing.ts';
import { S3RVER_CREDENTIALS, startS3rver } from '../object-storage/testing.ts';
import type { SealedEventStore } from '../privacy/sealed-store.ts';
import { openEventStore } from '../server.ts';
import { postgresNodesEnv } from './node-env.ts';
import { type ApiProcess, startApiProcess } from './process.ts';

export interface Nodes {
  /** The API processes, each with a DATA_DIR of its own. */
  nodes: ApiProcess[];
  /** The test's own connection to the shared stores (role grants, reading the log back). */
  store: SealedEventStore;
  /** The shared database's URL. */
  url: string;
  /** The S3 server every node keeps uploaded objects in (s3rver on loopback). */
  s3: { endpoint: string; bucket: string };
  close(): Promise<void>;
}

/**
 * Starts `count` API processes at once on a new database (the first to take the schema lock creates
 * the tables, the others find them), with what every node must share besides it: one S3 bucket for
 * uploaded objects, the KEK, the server secret and the ledger's signing key.
 */
export async function startNodes(count: number, extraEnv: Record<string, string> = {}): Promise<Nodes> {
  const database = await createTestDatabase();
  const s3 = await startS3rver();
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kamai-node-'));
    dirs.push(dir);
    return dir;
  };
  const env = {
    ...postgresNodesEnv(database.url),
    OBJECT_STORAGE: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
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
    await s3.close();
  };
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    store = await openEventStore(loadConfig({ ...env, DATA_DIR: dataDir() }));
  } catch (err) {
    await close();
    throw err;
  }
  return { nodes, store, url: database.url, s3: { endpoint: s3.endpoint, bucket: s3.bucket }, close };
}
