import type { KycDocumentStatus, KycDocumentType } from '@kamai/contracts';

/** kyc_documents: one row per submission of a KYC document, with its review. */
export interface KycDocumentsTable {
  id: string;
  user_id: string;
  document_type: KycDocumentType;
  front_image_url: string;
  back_image_url: string;
  /** SHA-256 of each re-encoded image, for the reviewers' "Also submitted by" signal. */
  front_image_sha256: string;
  back_image_sha256: string;
  status: KycDocumentStatus;
  rejection_reason: string | null;
  uploaded_at: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
  /** Position of the submission event: the queue's order. */
  position: number;
  /** A PAN card's number (AAAAA9999A) as the user gave it; null when not given or erased. */
  pan_number: string | null;
}
