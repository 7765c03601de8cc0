/**
 * For specs that need PostgreSQL: a database of their own on the run's cluster (postgres-cluster.ts).
 * Fails, never skips, when the cluster could not be started.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';

/** The URL of a new, empty database, dropped by the returned drop(). */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const given = inject('postgres');
  if ('error' in given) throw new Error(given.error);
  const name = `kamai_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: given.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(given.url);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: given.url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * For a spec's describe block: each call answers the URL of a new database; all are dropped after
 * the block (vitest's afterAll).
 */
export function databasesForSpec(): () => Promise<string> {
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops.splice(0)) await drop();
  });
  return async () => {
    const { url, drop } = await createTestDatabase();
    drops.push(drop);
    return url;
  };
}
