import type { Kysely } from 'kysely';

/**
 * Texts became message keys with parameters: the rows keep the English text and, for events that
 * carry them, the key and parameters, so a reader's language can be rendered later.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('params', 'text').execute();
  await db.schema.alterTable('notifications').addColumn('message_key', 'text').execute();
  await db.schema.alterTable('notifications').addColumn('params', 'text').execute();
}
