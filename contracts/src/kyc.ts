import * as v from 'valibot';
import { KYC_DOCUMENT_TYPES, type KycDocumentType } from './events/kyc.ts';
import { RejectRequest } from './tasks.ts';
import { refusal } from './refusal.ts';


/** The documents' names as the spec writes them (the web shows its own translated labels). */
export const KYC_DOCUMENT_NAMES: Record<KycDocumentType, string> = { pan: 'PAN Card', voter_id: 'Voter ID' };

export const KYC_MESSAGES = {
  /** Shown under the title 'KYC Incomplete'. */
  incomplete: 'Please upload all required documents',
  documentType: 'Document type must be pan or voter_id',
  imageMissing: 'Upload both the front and the back image',
  underReview: 'This document is already under review',
  approved: 'This document is already approved',
  alreadyClaimed: 'You have already claimed the KYC bonus',
  alreadyReviewed: 'This document has already been reviewed',
  notFound: 'KYC document not found',
  ownDocument: 'You cannot review your own documents',
  notKycImage: 'That image was not uploaded for KYC',
  body: 'Send documentType, frontImageUrl and backImageUrl',
  panNumber: 'Enter the PAN as printed on the card, like ABCDE1234F',
  panOnlyOnPan: 'Only a PAN card carries a PAN number',
  panInUse: 'This PAN is already verified on another account: one PAN can be verified on one account at a time',
} as const;

/** A PAN as the Income Tax Department issues it: five letters, four digits, one letter (AAAAA9999A). */
export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;

const ImageUrl = v.pipe(
  v.optional(v.string(refusal('kyc.imageMissing')), ''),
  v.trim(),
  v.minLength(1, refusal('kyc.imageMissing')),
  v.maxLength(300, refusal('api.uploadFirst')),
);

/** `POST /api/kyc/documents`: the `objectURL`s of two images uploaded with purpose `kyc`. */
export const KycDocumentRequest = v.object(
  {
    documentType: v.picklist(KYC_DOCUMENT_TYPES, refusal('kyc.documentType')),
    frontImageUrl: ImageUrl,
    backImageUrl: ImageUrl,
    /** The PAN card's number, kept for the yearly report to the accountant (personal: sealed in the log). */
    panNumber: v.optional(v.pipe(v.string(refusal('kyc.panNumber')), v.trim(), v.toUpperCase(), v.regex(PAN_PATTERN, refusal('kyc.panNumber')))),
  },
  refusal('kyc.body'),
);
export type KycDocumentRequest = v.InferOutput<typeof KycDocumentRequest>;

export const KYC_DOCUMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const KycDocumentStatus = v.picklist(KYC_DOCUMENT_STATUSES);
export type KycDocumentStatus = v.InferOutput<typeof KycDocumentStatus>;

/** One document as `GET /api/kyc/documents` lists it. */
export const KycDocumentBody = v.object({
  id: v.string(),
  documentType: v.picklist(KYC_DOCUMENT_TYPES),
  frontImageUrl: v.string(),
  backImageUrl: v.string(),
  status: KycDocumentStatus,
  rejectionReason: v.nullable(v.string()),
  uploadedAt: v.string(),
  reviewedAt: v.nullable(v.string()),
  /** The PAN given with a PAN card, masked (`maskPan`); null when none was given. */
  panNumber: v.nullable(v.string()),
});
export type KycDocumentBody = v.InferOutput<typeof KycDocumentBody>;

/** `POST /api/kyc/complete`: the bonus credited and the balance after it (decimal strings). */
export const KycCompleteBody = v.object({ rupees: v.string(), balance: v.string() });
export type KycCompleteBody = v.InferOutput<typeof KycCompleteBody>;

/** `GET /api/admin/kyc?status=pending` (the default). */
export const KycQueueQuery = v.object({
  status: v.optional(v.picklist(KYC_DOCUMENT_STATUSES, refusal('api.documentStatus')), 'pending'),
});

/** One document in the reviewers' queue, and the answer of approve and reject. */
export const KycQueueItem = v.object({
  ...KycDocumentBody.entries,
  userId: v.string(),
  userName: v.string(),
  userMobile: v.string(),
  reviewedBy: v.nullable(v.string()),
  /** Other accounts that submitted an identical image (same SHA-256), masked: "+91 98xxxxxx21". */
  alsoSubmittedBy: v.array(v.string()),
});
export type KycQueueItem = v.InferOutput<typeof KycQueueItem>;

/** `POST /api/admin/kyc/:id/reject`: the same reason rule as a proof's rejection (1-500 characters). */
export const KycRejectRequest = RejectRequest;
export type KycRejectRequest = v.InferOutput<typeof KycRejectRequest>;

/** A PAN as it is shown back: only its last four characters, "XXXXXX234F". */
export function maskPan(pan: string): string {
  return `${'X'.repeat(Math.max(0, pan.length - 4))}${pan.slice(-4)}`;
}

/** A mobile number as reviewers see another account's: "+91 98xxxxxx21". */
export function maskMobile(mobile: string): string {
  if (mobile.length < 4) return '+91 xxxxxxxxxx';
  return `+91 ${mobile.slice(0, 2)}${'x'.repeat(mobile.length - 4)}${mobile.slice(-2)}`;
}

/** What a user's KYC is at: pending until both documents are approved, then verified, then bonus_claimed. */
export const KYC_STATUSES = ['pending', 'verified', 'bonus_claimed'] as const;
