import { type KycDocumentBody, type KycDocumentStatus, type KycQueueItem, KYC_DOCUMENT_TYPES, maskMobile, maskPan } from '@kamai/contracts';
import type { Selectable } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import type { KycDocumentsTable } from './schema.ts';

export type KycDocumentRow = Selectable<KycDocumentsTable>;

export function toKycDocumentBody(row: KycDocumentRow): KycDocumentBody {
  return {
    id: row.id,
    documentType: row.document_type,
    frontImageUrl: row.front_image_url,
    backImageUrl: row.back_image_url,
    status: row.status,
    rejectionReason: row.rejection_reason,
    uploadedAt: row.uploaded_at,
    reviewedAt: row.reviewed_at,
    panNumber: row.pan_number === null ? null : maskPan(row.pan_number),
  };
}

/** `GET /api/kyc/documents`: the latest submission of each document; a document never submitted is absent. */
export async function listKycDocuments(db: ReadDbHandle, userId: string): Promise<KycDocumentBody[]> {
  const rows = await db.selectFrom('kyc_documents').selectAll().where('user_id', '=', userId).orderBy('position', 'desc').execute();
  const latest: KycDocumentBody[] = [];
  for (const type of KYC_DOCUMENT_TYPES) {
    const row = rows.find((r) => r.document_type === type);
    if (row) latest.push(toKycDocumentBody(row));
  }
  return latest;
}

export function findKycDocument(db: ReadDbHandle, documentId: string): Promise<KycDocumentRow | undefined> {
  return db.selectFrom('kyc_documents').selectAll().where('id', '=', documentId).executeTakeFirst();
}

function selectQueue(db: ReadDbHandle) {
  return db
    .selectFrom('kyc_documents as k')
    .leftJoin('users as u', 'u.id', 'k.user_id')
    .selectAll('k')
    .select(['u.first_name', 'u.last_name', 'u.mobile']);
}
type QueueRow = Awaited<ReturnType<ReturnType<typeof selectQueue>['executeTakeFirstOrThrow']>>;

/** Other accounts' masked mobiles that submitted an image with the same bytes as one of these. */
async function alsoSubmittedBy(db: ReadDbHandle, rows: readonly QueueRow[]): Promise<Map<string, string[]>> {
  const hashes = [...new Set(rows.flatMap((r) => [r.front_image_sha256, r.back_image_sha256]))];
  const answer = new Map<string, string[]>();
  if (hashes.length === 0) return answer;
  const matches = await db
    .selectFrom('kyc_documents as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select(['k.user_id', 'k.front_image_sha256', 'k.back_image_sha256', 'u.mobile'])
    .where((eb) => eb.or([eb('k.front_image_sha256', 'in', hashes), eb('k.back_image_sha256', 'in', hashes)]))
    .execute();
  for (const row of rows) {
    const mine = new Set([row.front_image_sha256, row.back_image_sha256]);
    const others = matches
      .filter((m) => m.user_id !== row.user_id && (mine.has(m.front_image_sha256) || mine.has(m.back_image_sha256)))
      .flatMap((m) => (m.mobile === null ? [] : [m.mobile]));
    answer.set(row.id, [...new Set(others)].sort().map(maskMobile));
  }
  return answer;
}

function toQueueItem(row: QueueRow, also: Map<string, string[]>): KycQueueItem {
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    ...toKycDocumentBody(row),
    userId: row.user_id,
    userName: name || (row.mobile ?? ''),
    userMobile: row.mobile ?? '',
    reviewedBy: row.reviewed_by,
    alsoSubmittedBy: also.get(row.id) ?? [],
  };
}

/** The reviewers' queue (`GET /api/admin/kyc?status=`): pending oldest first, reviewed newest first. */
export async function listKycQueue(db: ReadDbHandle, options: { status: KycDocumentStatus; limit?: number }): Promise<KycQueueItem[]> {
  const rows = await selectQueue(db)
    .where('k.status', '=', options.status)
    .orderBy('k.position', options.status === 'pending' ? 'asc' : 'desc')
    .limit(options.limit ?? 200)
    .execute();
  const also = await alsoSubmittedBy(db, rows);
  return rows.map((row) => toQueueItem(row, also));
}

export async function findKycQueueItem(db: ReadDbHandle, documentId: string): Promise<KycQueueItem | undefined> {
  const row = await selectQueue(db).where('k.id', '=', documentId).executeTakeFirst();
  if (!row) return undefined;
  return toQueueItem(row, await alsoSubmittedBy(db, [row]));
}

/**
 * The PAN each user gave at KYC: from an approved PAN card when there is one, else from their
 * latest PAN submission. Users who gave none are left out.
 */
export async function pansOf(db: ReadDbHandle, userIds: readonly string[]): Promise<Map<string, string>> {
  const pans = new Map<string, { pan: string; approved: boolean }>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('kyc_documents')
      .select(['user_id', 'pan_number', 'status'])
      .where('document_type', '=', 'pan')
      .where('pan_number', 'is not', null)
      .where('user_id', 'in', userIds.slice(i, i + 500))
      .orderBy('position')
      .execute();
    for (const r of rows) {
      const approved = r.status === 'approved';
      // Later rows win, except that an approved card is never replaced by an unapproved one.
      if (r.pan_number !== null && (approved || !pans.get(r.user_id)?.approved)) pans.set(r.user_id, { pan: r.pan_number, approved });
    }
  }
  return new Map([...pans].map(([id, p]) => [id, p.pan]));
}
