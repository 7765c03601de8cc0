import type { EventStore } from '@kamai/domain';
import { sql } from 'kysely';
import { type ReadDbHandle, writeTransaction } from './db.ts';
import type { Projection } from './projection.ts';
import { CHECKPOINT, applyEvents } from './runner.ts';

/** Tables that hold projected rows (everything but the checkpoints and kysely's own). */
async function projectedTables(db: ReadDbHandle): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables.map((t) => t.name).filter((name) => name !== 'checkpoints' && !name.startsWith('kysely_'));
}

/**
 * Empties every read model and replays the whole store into it. Runs in one transaction, so readers
 * (and other processes) see the old rows until the new ones are complete, never a half-built model.
 */
export async function rebuildReadModels(
  db: ReadDbHandle,
  store: Pick<EventStore, 'readAll'>,
  projections: readonly Projection[],
  options: { batchSize?: number } = {},
): Promise<{ events: number; position: number }> {
  const tables = await projectedTables(db);
  const batchSize = options.batchSize ?? 2000;
  return writeTransaction(db, async (trx) => {
    for (const table of tables) await sql`DELETE FROM ${sql.table(table)}`.execute(trx);
    await trx.deleteFrom('checkpoints').where('name', '=', CHECKPOINT).execute();
    let events = 0;
    let position = 0;
    for (;;) {
      const batch = await store.readAll({ after: position, limit: batchSize });
      if (batch.length === 0) return { events, position };
      position = await applyEvents(trx, projections, batch);
      events += batch.length;
    }
  });
}
