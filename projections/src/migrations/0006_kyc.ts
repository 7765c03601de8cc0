import type { Kysely } from 'kysely';

/** kyc_documents (spec section 3), with the images' hashes for finding one picture sent by two accounts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('kyc_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('front_image_url', 'text', (c) => c.notNull())
    .addColumn('back_image_url', 'text', (c) => c.notNull())
    .addColumn('front_image_sha256', 'text', (c) => c.notNull())
    .addColumn('back_image_sha256', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('rejection_reason', 'text')
    .addColumn('uploaded_at', 'text', (c) => c.notNull())
    .addColumn('reviewed_at', 'text')
    .addColumn('reviewed_by', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('kyc_documents_user').on('kyc_documents').columns(['user_id', 'document_type', 'position']).execute();
  await db.schema.createIndex('kyc_documents_status').on('kyc_documents').columns(['status', 'position']).execute();
  await db.schema.createIndex('kyc_documents_front_sha').on('kyc_documents').column('front_image_sha256').execute();
  await db.schema.createIndex('kyc_documents_back_sha').on('kyc_documents').column('back_image_sha256').execute();
}
