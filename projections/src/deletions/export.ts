import { KYC_STATUSES, formatPaise } from '@kamai/contracts';
import type { ReadDbHandle } from '../db.ts';
import { type KycDocumentRow, listKycDocuments, toKycDocumentBody } from '../kyc/queries.ts';
import { listNotifications } from '../notifications/queries.ts';
import { listUserSessions } from '../sessions/queries.ts';
import { listUserTasks } from '../user-tasks/queries.ts';
import { findUserById, toUserBody } from '../users/queries.ts';
import { listTransactions } from '../wallet/queries.ts';
import { toWithdrawalBody } from '../withdrawals/queries.ts';

/** No history is cut short in an export: every row the person has. */
const ALL = Number.MAX_SAFE_INTEGER;

/** A KYC submission as the person gave it: the screens mask the PAN, their own copy of their data does not. */
const givenKycDocument = (row: KycDocumentRow) => ({ ...toKycDocumentBody(row), panNumber: row.pan_number });

/**
 * Everything the read models hold about one person, for the right of access: profile, tasks and
 * every proof they sent, wallet and its history, withdrawals with their full destinations, KYC
 * documents, sessions, notifications and deletion requests.
 */
export async function userDataExport(db: ReadDbHandle, userId: string, now: string) {
  const user = await findUserById(db, userId);
  if (!user) return null;
  const [tasks, proofs, transactions, withdrawals, kycLatest, kycAll, sessions, notifications, deletions] = await Promise.all([
    listUserTasks(db, userId),
    db.selectFrom('proof_submissions').selectAll().where('user_id', '=', userId).orderBy('position').execute(),
    listTransactions(db, userId, ALL),
    db.selectFrom('withdrawal_requests').selectAll().where('user_id', '=', userId).orderBy('position').execute(),
    listKycDocuments(db, userId),
    db.selectFrom('kyc_documents').selectAll().where('user_id', '=', userId).orderBy('position').execute(),
    listUserSessions(db, userId, now),
    listNotifications(db, userId, ALL),
    db.selectFrom('deletion_requests').selectAll().where('user_id', '=', userId).orderBy('position').execute(),
  ]);
  return {
    profile: {
      ...toUserBody(user),
      language: user.language,
      notificationsEnabled: user.notifications_enabled === 1,
      createdAt: user.created_at,
      updatedAt: user.updated_at,
    },
    tasks,
    proofSubmissions: proofs.map((p) => ({
      id: p.id,
      taskId: p.task_id,
      taskTitle: p.task_title,
      reward: formatPaise(p.reward_paise),
      proofImageUrl: p.proof_image_url,
      proofDescription: p.proof_description,
      status: p.status,
      submittedAt: p.submitted_at,
      reviewedAt: p.reviewed_at,
      rejectionReason: p.rejection_reason,
    })),
    wallet: { balance: formatPaise(user.balance_paise), pendingPayout: formatPaise(user.pending_payout_paise), transactions },
    withdrawals: withdrawals.map((row) => ({ ...toWithdrawalBody(row), destination: JSON.parse(row.destination) as unknown })),
    kyc: {
      status: KYC_STATUSES.includes(user.kyc_status) ? user.kyc_status : 'pending',
      latest: kycLatest.map((body) => ({ ...body, panNumber: kycAll.find((row) => row.id === body.id)?.pan_number ?? null })),
      submissions: kycAll.map(givenKycDocument),
    },
    sessions: sessions.map((s) => ({ device: s.device, startedAt: s.started_at, lastSeenAt: s.last_seen_at, expiresAt: s.expires_at })),
    notifications,
    deletionRequests: deletions.map((d) => ({ id: d.id, status: d.status, requestedAt: d.requested_at, coolingOffEndsAt: d.cooling_off_ends_at, cancelledAt: d.cancelled_at })),
  };
}
