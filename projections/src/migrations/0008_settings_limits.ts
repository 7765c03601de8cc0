import type { Kysely } from 'kysely';

/** The limits an admin has changed, as JSON ({ maxTaskRewardPaise: ... }); the defaults apply to the rest. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('app_settings').addColumn('limits', 'text').execute();
}
