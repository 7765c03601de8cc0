import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('withdrawal_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('amount_paise', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('destination_kind', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text')
    .addColumn('processed_by', 'text')
    .addColumn('reference', 'text')
    .addColumn('reason', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('withdrawal_requests_user').on('withdrawal_requests').columns(['user_id', 'position']).execute();
  await db.schema.createIndex('withdrawal_requests_status').on('withdrawal_requests').columns(['status', 'position']).execute();

  await db.schema
    .createTable('app_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('support_email', 'text')
    .addColumn('homepage_url', 'text')
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
