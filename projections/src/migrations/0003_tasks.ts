import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('reward_paise', 'integer', (c) => c.notNull())
    .addColumn('estimated_time', 'text', (c) => c.notNull())
    .addColumn('task_type', 'text', (c) => c.notNull())
    .addColumn('task_url', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('icon_color', 'text', (c) => c.notNull())
    .addColumn('requires_proof', 'integer', (c) => c.notNull())
    .addColumn('proof_instructions', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tasks_listed').on('tasks').columns(['deleted_at', 'is_active', 'position']).execute();

  await db.schema
    .createTable('user_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('task_title', 'text', (c) => c.notNull())
    .addColumn('reward_paise', 'integer', (c) => c.notNull())
    .addColumn('proof_image_url', 'text', (c) => c.notNull())
    .addColumn('proof_description', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('rupees_earned_paise', 'integer')
    .addColumn('rejection_reason', 'text')
    .addColumn('reviewed_at', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addUniqueConstraint('user_tasks_user_task', ['user_id', 'task_id'])
    .execute();

  await db.schema
    .createTable('proof_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('task_title', 'text', (c) => c.notNull())
    .addColumn('reward_paise', 'integer', (c) => c.notNull())
    .addColumn('proof_image_url', 'text', (c) => c.notNull())
    .addColumn('proof_description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .addColumn('reviewed_at', 'text')
    .addColumn('reviewed_by', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('proof_submissions_queue').on('proof_submissions').columns(['status', 'position']).execute();
}
