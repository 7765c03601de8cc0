import * as v from 'valibot';
import { UserBody } from './auth.ts';
import { KYC_STATUSES, KycDocumentBody } from './kyc.ts';
import { NotificationBody } from './notifications.ts';
import { DeletionRequestBody } from './privacy.ts';
import { UserTaskBody } from './tasks.ts';
import { TransactionBody } from './wallet.ts';
import { WithdrawalBody } from './withdrawals.ts';

/**
 * `GET /api/profile/export`: everything the read models hold about the caller (the right of
 * access), unmasked: their own copy of their data shows the PAN and the full payout destination.
 */
export const UserDataExportBody = v.strictObject({
  exportedAt: v.string(),
  currentPolicyVersion: v.string(),
  /** The consent given at registration; null for people registered before it was asked. */
  consent: v.nullable(v.strictObject({ policyVersion: v.string(), at: v.string(), confirmedAdult: v.literal(true) })),
  profile: v.object({
    ...UserBody.entries,
    language: v.nullable(v.string()),
    notificationsEnabled: v.boolean(),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  tasks: v.array(UserTaskBody),
  proofSubmissions: v.array(
    v.strictObject({
      id: v.string(),
      taskId: v.string(),
      taskTitle: v.string(),
      reward: v.string(),
      proofImageUrl: v.string(),
      proofDescription: v.string(),
      status: v.string(),
      submittedAt: v.string(),
      reviewedAt: v.nullable(v.string()),
      rejectionReason: v.nullable(v.string()),
    }),
  ),
  wallet: v.strictObject({ balance: v.string(), pendingPayout: v.string(), transactions: v.array(TransactionBody) }),
  /** `destination`: the bank account or UPI id as given, not masked. */
  withdrawals: v.array(v.object({ ...WithdrawalBody.entries, destination: v.unknown() })),
  kyc: v.strictObject({
    status: v.picklist(KYC_STATUSES),
    latest: v.array(KycDocumentBody),
    submissions: v.array(KycDocumentBody),
  }),
  sessions: v.array(v.strictObject({ device: v.nullable(v.string()), startedAt: v.string(), lastSeenAt: v.nullable(v.string()), expiresAt: v.string() })),
  notifications: v.array(NotificationBody),
  deletionRequests: v.array(DeletionRequestBody),
});
export type UserDataExportBody = v.InferOutput<typeof UserDataExportBody>;
