import {
  type EventsOf,
  type KycDocumentType,
  type KycStatus,
  type NotificationKey,
  type TaxYearTotals,
  type UserEvent,
  type kycEvents,
  KYC_BONUS_PAISE,
  KYC_DOCUMENT_TYPES,
  PAN_PATTERN,
  REJECT_REASON_MAX_LENGTH,
  type MessageRef,
  msg,
  REASON_OTHER,
} from '@kamai/contracts';
import { DomainError, assertNever } from '../errors.ts';
import type { AccountState } from './account.ts';
import { notify } from './notifications.ts';
import { type WalletState, credit } from './wallet.ts';

export type KycEvent = EventsOf<typeof kycEvents>;
export type KycDocumentStatus = 'pending' | 'approved' | 'rejected';

/** One submission of one document; kept after review so an old one is refused by id, not lost. */
export interface KycSubmissionRecord {
  documentType: KycDocumentType;
  status: KycDocumentStatus;
  /** A PAN card submitted with its number: once approved, tax is withheld at the lower rate (docs/tax.md). */
  withNumber?: boolean;
}

/** The user's identity verification: the latest submission per document, and the bonus. */
export interface KycState {
  /** Document type -> id of its latest submission; absent when never submitted (Not uploaded). */
  latest: Readonly<Partial<Record<KycDocumentType, string>>>;
  /** Keyed by document id. Records are replaced, never changed (evolve is O(1), see ./state.ts). */
  submissions: Map<string, KycSubmissionRecord>;
  bonusClaimed: boolean;
}

export const initialKycState = (): KycState => ({ latest: {}, submissions: new Map(), bonusClaimed: false });

export function evolveKyc(state: KycState, event: KycEvent): KycState {
  switch (event.type) {
    case 'KycDocumentSubmitted': {
      const { documentId, documentType, panNumber } = event.data;
      state.submissions.set(documentId, { documentType, status: 'pending', ...(panNumber !== undefined && { withNumber: true }) });
      // Two document types at most: a copy of this small record is cheap.
      return { ...state, latest: { ...state.latest, [documentType]: documentId } };
    }
    case 'KycDocumentApproved':
      return reviewed(state, event.data.documentId, 'approved');
    case 'KycDocumentRejected':
      return reviewed(state, event.data.documentId, 'rejected');
    case 'KycBonusClaimed':
      state.bonusClaimed = true;
      return state;
    default:
      return assertNever(event);
  }
}

function reviewed(state: KycState, documentId: string, status: KycDocumentStatus): KycState {
  const record = state.submissions.get(documentId);
  if (record) state.submissions.set(documentId, { ...record, status });
  return state;
}

/** Where a document stands: its latest submission's status, or null when never submitted. */
export function kycDocumentStatus(state: KycState, documentType: KycDocumentType): KycDocumentStatus | null {
  const id = state.latest[documentType];
  return id ? (state.submissions.get(id)?.status ?? null) : null;
}

/** users.kycStatus: pending until every document is approved, then verified, then bonus_claimed. */
export function kycStatusOf(state: KycState): KycStatus {
  if (state.bonusClaimed) return 'bonus_claimed';
  return KYC_DOCUMENT_TYPES.every((type) => kycDocumentStatus(state, type) === 'approved') ? 'verified' : 'pending';
}

/** An image after the server re-encoded it: its lasting address and the SHA-256 of its bytes. */
export interface KycImage {
  url: string;
  sha256: string;
}

export type KycCommand =
  | {
      type: 'SubmitKycDocument';
      data: { documentId: string; documentType: KycDocumentType; front: KycImage; back: KycImage; panNumber?: string | undefined };
      now: string;
    }
  | {
      type: 'ApproveKycDocument';
      /** `carried`: the totals paid under the PAN before, when this approval claimed its payee (docs/tax.md). */
      data: { documentId: string; reviewerId: string; notificationId: string; carried?: TaxYearTotals[] | undefined };
      now: string;
    }
  | { type: 'RejectKycDocument'; data: { documentId: string; reviewerId: string; reason: string; notificationId: string }; now: string }
  | { type: 'ClaimKycBonus'; data: { entryId: string; notificationId: string }; now: string };

/**
 * Upload is allowed only when the document is not uploaded or rejected. Exported so
 * the API can refuse before it spends work on the images; the decider checks it again.
 */
export function assertKycDocumentOpen(state: KycState, documentType: KycDocumentType): void {
  const status = kycDocumentStatus(state, documentType);
  if (status === 'pending') throw new DomainError('conflict', msg('kyc.underReview'), undefined, 'kyc_document_locked');
  if (status === 'approved') throw new DomainError('conflict', msg('kyc.approved'), undefined, 'kyc_document_locked');
}

const APPROVED_KEYS: Record<KycDocumentType, NotificationKey> = { pan: 'kyc_pan_approved', voter_id: 'kyc_voter_id_approved' };
const REJECTED_KEYS: Record<KycDocumentType, NotificationKey> = { pan: 'kyc_pan_rejected', voter_id: 'kyc_voter_id_rejected' };

/**
 * KYC on the user's own stream: submission, review and the bonus claim. The claim's credit and its
 * notification are appended together with KycBonusClaimed, so however many claims race, the stream
 * revision lets one through and every retry sees the bonus already claimed.
 */
export function decideKyc(command: KycCommand, state: { account: AccountState; wallet: WalletState; kyc: KycState }): UserEvent[] {
  const kyc = state.kyc;
  switch (command.type) {
    case 'SubmitKycDocument': {
      const { documentId, documentType, front, back, panNumber } = command.data;
      if (!KYC_DOCUMENT_TYPES.includes(documentType)) {
        throw new DomainError('invalid', msg('kyc.documentType'), { documentType: msg('kyc.documentType') });
      }
      const fields: Record<string, MessageRef> = {};
      if (!front.url.trim()) fields.frontImageUrl = msg('kyc.imageMissing');
      if (!back.url.trim()) fields.backImageUrl = msg('kyc.imageMissing');
      if (Object.keys(fields).length > 0) throw new DomainError('invalid', msg('kyc.imageMissing'), fields);
      if (panNumber !== undefined && documentType !== 'pan') throw new DomainError('invalid', msg('kyc.panOnlyOnPan'), { panNumber: msg('kyc.panOnlyOnPan') });
      if (panNumber !== undefined && !PAN_PATTERN.test(panNumber)) throw new DomainError('invalid', msg('kyc.panNumber'), { panNumber: msg('kyc.panNumber') });
      assertKycDocumentOpen(kyc, documentType);
      if (kyc.submissions.has(documentId)) throw new DomainError('conflict', msg('api.documentExists'));
      return [
        {
          type: 'KycDocumentSubmitted',
          data: {
            documentId,
            documentType,
            frontImageUrl: front.url.trim(),
            backImageUrl: back.url.trim(),
            frontImageSha256: front.sha256,
            backImageSha256: back.sha256,
            ...(panNumber !== undefined && { panNumber }),
            submittedAt: command.now,
          },
        },
      ];
    }
    case 'ApproveKycDocument': {
      const { documentId, reviewerId, notificationId, carried } = command.data;
      const record = underReview(state, documentId, reviewerId);
      // Both approved after this one: the other document's latest submission is already approved.
      const kycVerified = KYC_DOCUMENT_TYPES.every(
        (type) => type === record.documentType || kycDocumentStatus(kyc, type) === 'approved',
      );
      return [
        {
          type: 'KycDocumentApproved',
          data: {
            documentId,
            documentType: record.documentType,
            reviewedBy: reviewerId,
            kycVerified,
            approvedAt: command.now,
            ...(carried !== undefined && carried.length > 0 && record.documentType === 'pan' && { carried }),
          },
        },
        notify({ notificationId, key: APPROVED_KEYS[record.documentType], params: {}, kind: 'success', now: command.now }),
      ];
    }
    case 'RejectKycDocument': {
      const { documentId, reviewerId, notificationId } = command.data;
      const record = underReview(state, documentId, reviewerId);
      const reason = command.data.reason.trim();
      if (reason.length === 0 || reason.length > REJECT_REASON_MAX_LENGTH) {
        const message = msg(reason.length === 0 ? 'task.reason' : 'review.reasonTooLong');
        throw new DomainError('invalid', message, { reason: message });
      }
      return [
        {
          type: 'KycDocumentRejected',
          data: { documentId, documentType: record.documentType, reviewedBy: reviewerId, reason, reasonCode: REASON_OTHER, rejectedAt: command.now },
        },
        notify({ notificationId, key: REJECTED_KEYS[record.documentType], params: { reason }, kind: 'warning', now: command.now }),
      ];
    }
    case 'ClaimKycBonus': {
      const { entryId, notificationId } = command.data;
      if (kyc.bonusClaimed) throw new DomainError('conflict', msg('kyc.alreadyClaimed'), undefined, 'kyc_bonus_already_claimed');
      if (kycStatusOf(kyc) !== 'verified') throw new DomainError('conflict', msg('kyc.incomplete'), undefined, 'kyc_incomplete');
      return [
        { type: 'KycBonusClaimed', data: { entryId, amountPaise: KYC_BONUS_PAISE, claimedAt: command.now } },
        credit({ entryId, amountPaise: KYC_BONUS_PAISE, kind: 'kyc_bonus', params: {}, reference: 'kyc', now: command.now }, state.wallet),
        notify({ notificationId, key: 'kyc_bonus', params: { amountPaise: KYC_BONUS_PAISE }, kind: 'success', now: command.now }),
      ];
    }
    default:
      return assertNever(command);
  }
}

function underReview(state: { account: AccountState; kyc: KycState }, documentId: string, reviewerId: string): KycSubmissionRecord {
  const record = state.kyc.submissions.get(documentId);
  if (!record) throw new DomainError('not_found', msg('kyc.notFound'));
  // Four eyes on identity: a reviewer never decides on their own documents.
  if (reviewerId === state.account.userId) throw new DomainError('forbidden', msg('kyc.ownDocument'));
  if (record.status !== 'pending') throw new DomainError('conflict', msg('kyc.alreadyReviewed'));
  return record;
}
