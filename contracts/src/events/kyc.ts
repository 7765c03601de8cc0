import * as v from 'valibot';
import { TaxYearTotals } from './tax.ts';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const Sha256Hex = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));

/** The spec's two KYC documents. */
export const KYC_DOCUMENT_TYPES = ['pan', 'voter_id'] as const;
export const KycDocumentType = v.picklist(KYC_DOCUMENT_TYPES);
export type KycDocumentType = v.InferOutput<typeof KycDocumentType>;

/**
 * Identity verification, on the user's own `user-<id>` stream, so the bonus claim, its credit and
 * its notification are one append guarded by that stream's revision (exactly once).
 */
export const kycEvents = {
  KycDocumentSubmitted: v.object({
    /** One submission of one document; a resubmission after a rejection gets a new id. */
    documentId: v.string(),
    documentType: KycDocumentType,
    /** Object addresses of the re-encoded images (`/objects/kyc/<userId>/<uuid>`). */
    frontImageUrl: v.string(),
    backImageUrl: v.string(),
    /** SHA-256 of the re-encoded bytes: the same picture sent by two accounts is a fraud signal. */
    frontImageSha256: Sha256Hex,
    backImageSha256: Sha256Hex,
    /** A PAN card's number (AAAAA9999A), when the user gave it; absent in older events. */
    panNumber: v.optional(v.string()),
    submittedAt: IsoTime,
  }),
  KycDocumentApproved: v.object({
    documentId: v.string(),
    documentType: KycDocumentType,
    reviewedBy: v.string(),
    /** True when this approval makes both documents approved (users.kycStatus becomes verified). */
    kycVerified: v.boolean(),
    approvedAt: IsoTime,
    /**
     * A PAN approval that claimed the PAN's payee: the year's totals paid under the PAN by an earlier
     * (erased) account, which this account's tax starts from (docs/tax.md). Absent when none.
     */
    carried: v.optional(v.array(TaxYearTotals)),
  }),
  KycDocumentRejected: v.object({
    documentId: v.string(),
    documentType: KycDocumentType,
    reviewedBy: v.string(),
    reason: v.string(),
    /** The canned reason it was (REASON_OTHER when written by hand), plain for statistics: the text itself is sealed. Absent on older events. */
    reasonCode: v.optional(v.string()),
    rejectedAt: IsoTime,
  }),
  /** Appended with the bonus's WalletCredited (kind kyc_bonus, same entryId) and a notification. */
  KycBonusClaimed: v.object({
    entryId: v.string(),
    amountPaise: v.pipe(v.number(), v.integer(), v.minValue(1)),
    claimedAt: IsoTime,
  }),
};
