import type { Kysely } from 'kysely';

/** Signed-in devices: what the browser said it was and when the session was last used. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('device', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'text').execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
}
