import type { Kysely } from 'kysely';

/** The double-entry journal (issue 11): postings, running account balances, and withdrawals it settles. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('journal_postings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('amount_paise', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('effective_at', 'text', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('reason', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('params', 'text')
    .addColumn('entry_id', 'text')
    .addColumn('submission_id', 'text')
    .addColumn('task_id', 'text')
    .addColumn('withdrawal_id', 'text')
    .addColumn('utr', 'text')
    .execute();
  await db.schema.createIndex('journal_postings_account').on('journal_postings').columns(['account', 'position']).execute();
  await db.schema.createIndex('journal_postings_account_time').on('journal_postings').columns(['account', 'effective_at']).execute();
  await db.schema.createIndex('journal_postings_position').on('journal_postings').columns(['position']).execute();

  await db.schema
    .createTable('journal_balances')
    .addColumn('account', 'text', (c) => c.primaryKey())
    .addColumn('debit_paise', 'integer', (c) => c.notNull())
    .addColumn('credit_paise', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('journal_withdrawals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('amount_paise', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .execute();
}
