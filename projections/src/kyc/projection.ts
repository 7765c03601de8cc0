import { type ColumnsOf, erasedColumns, erasedTextOf } from '../erasure.ts';
import { isPlaceholder } from '@kamai/contracts';
import type { Projection } from '../projection.ts';
import { userIdOf } from '../users/projection.ts';

/** Where kyc_documents keeps a KycDocumentSubmitted's fields. */
export const DOCUMENT_COLUMNS: ColumnsOf = {
  documentId: 'id',
  documentType: 'document_type',
  frontImageUrl: 'front_image_url',
  backImageUrl: 'back_image_url',
  frontImageSha256: 'front_image_sha256',
  backImageSha256: 'back_image_sha256',
  submittedAt: 'uploaded_at',
};

/** kyc_documents: every KYC document submission on a user's stream and its review. */
export const kycProjection: Projection = {
  name: 'kyc',
  // 2: pan_number, for the yearly report.
  // 3: a rejection's reason reads as erased once its person is.
  version: 3,
  tables: {
    // With the images' hashes, for finding one picture sent by two accounts.
    kyc_documents: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, document_type TEXT NOT NULL, front_image_url TEXT NOT NULL,
        back_image_url TEXT NOT NULL, front_image_sha256 TEXT NOT NULL, back_image_sha256 TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending', rejection_reason TEXT, uploaded_at TEXT NOT NULL, reviewed_at TEXT,
        reviewed_by TEXT, position INTEGER NOT NULL, pan_number TEXT`,
      indexes: {
        user: 'user_id, document_type, position',
        status: 'status, position',
        front_sha: 'front_image_sha256',
        back_sha: 'back_image_sha256',
      },
    },
  },
  handles: ['KycDocumentSubmitted', 'KycDocumentApproved', 'KycDocumentRejected', 'UserErased'],
  apply(rows, event) {
    switch (event.type) {
      case 'KycDocumentSubmitted': {
        const d = event.data;
        rows.insert('kyc_documents', {
          id: d.documentId,
          user_id: userIdOf(event.streamId),
          document_type: d.documentType,
          front_image_url: d.frontImageUrl,
          back_image_url: d.backImageUrl,
          front_image_sha256: d.frontImageSha256,
          back_image_sha256: d.backImageSha256,
          // Read as erased in a rebuild after the person's key is gone: kept as no PAN.
          pan_number: d.panNumber === undefined || isPlaceholder(d.panNumber) ? null : d.panNumber,
          status: 'pending',
          rejection_reason: null,
          uploaded_at: d.submittedAt,
          reviewed_at: null,
          reviewed_by: null,
          position: event.position,
        });
        return;
      }
      case 'KycDocumentApproved': {
        const d = event.data;
        rows.update(
          'kyc_documents',
          { id: d.documentId, user_id: userIdOf(event.streamId) },
          { set: { status: 'approved', reviewed_at: d.approvedAt, reviewed_by: d.reviewedBy } },
        );
        return;
      }
      case 'KycDocumentRejected': {
        const d = event.data;
        rows.update(
          'kyc_documents',
          { id: d.documentId, user_id: userIdOf(event.streamId) },
          { set: { status: 'rejected', reviewed_at: d.rejectedAt, reviewed_by: d.reviewedBy, rejection_reason: d.reason } },
        );
        return;
      }
      case 'UserErased': {
        // The image keys and their hashes identify the person's documents: they read as erased.
        // The PAN column reads null once erased, as a PAN sealed for an erased person projects.
        const erased = { ...erasedColumns('KycDocumentSubmitted', DOCUMENT_COLUMNS), pan_number: null };
        rows.update('kyc_documents', { user_id: userIdOf(event.streamId) }, { set: erased });
        const reason = erasedTextOf('KycDocumentRejected', 'reason');
        if (reason === undefined) return;
        for (const row of rows.all('kyc_documents', { user_id: userIdOf(event.streamId) }, ['id', 'rejection_reason'])) {
          if (row.rejection_reason !== null) rows.update('kyc_documents', { id: row.id }, { set: { rejection_reason: reason } });
        }
        return;
      }
      default:
        return;
    }
  },
};
