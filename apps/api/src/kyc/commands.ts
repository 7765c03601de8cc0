import { randomUUID } from 'node:crypto';
import { type KycDocumentType, streams } from '@kamai/contracts';
import { type EventStore, type KycCommand, type KycImage, userDecider } from '@kamai/domain';
import { handleCommand } from '../commands/handle.ts';

/** The KYC commands, each one trip through handleCommand on the document owner's stream. */
export function submitKycDocument(
  store: EventStore,
  userId: string,
  data: { documentType: KycDocumentType; front: KycImage; back: KycImage; panNumber?: string | undefined },
  now: Date,
) {
  // Fixed outside the decide callback, so a retry after a conflict reuses the same id.
  const command: KycCommand = { type: 'SubmitKycDocument', data: { ...data, documentId: randomUUID() }, now: now.toISOString() };
  return handleCommand(store, streams.user(userId), userDecider, command, { actor: userId });
}

/** Approves or rejects a document on its owner's stream; the reviewer is the actor. */
export function reviewKycDocument(
  store: EventStore,
  ownerId: string,
  review: { decision: 'approve'; documentId: string; reviewerId: string } | { decision: 'reject'; documentId: string; reviewerId: string; reason: string },
  now: Date,
) {
  const at = now.toISOString();
  const notificationId = randomUUID();
  const command: KycCommand =
    review.decision === 'approve'
      ? { type: 'ApproveKycDocument', data: { documentId: review.documentId, reviewerId: review.reviewerId, notificationId }, now: at }
      : { type: 'RejectKycDocument', data: { documentId: review.documentId, reviewerId: review.reviewerId, reason: review.reason, notificationId }, now: at };
  return handleCommand(store, streams.user(ownerId), userDecider, command, { actor: review.reviewerId });
}

/** ClaimKycBonus: the claim, the ₹200 credit and a notification, one append; exactly once per user. */
export function claimKycBonus(store: EventStore, userId: string, now: Date) {
  const command: KycCommand = { type: 'ClaimKycBonus', data: { entryId: randomUUID(), notificationId: randomUUID() }, now: now.toISOString() };
  return handleCommand(store, streams.user(userId), userDecider, command, { actor: userId }, { view: (state) => state.wallet.balance });
}
