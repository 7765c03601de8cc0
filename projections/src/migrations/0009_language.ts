import type { Kysely } from 'kysely';

/** The language a person chose for the app, stored on the account (null until they choose). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text').execute();
}
