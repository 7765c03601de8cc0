import type { Kysely } from 'kysely';

/** The staff audit list and the adjustments awaiting a second finance member. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_user_id', 'text')
    .addColumn('amount_paise', 'integer')
    .addColumn('reference', 'text')
    .execute();
  await db.schema.createIndex('audit_log_position').on('audit_log').column('position').execute();

  await db.schema
    .createTable('adjustments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('amount_paise', 'integer', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('adjustments_status').on('adjustments').columns(['status', 'position']).execute();
}
