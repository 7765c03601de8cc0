import { TASK_SIGNAL_DAYS, type TaskSignalBody, medianOf } from '@kamai/contracts';
import type { ReadDbHandle } from '../db.ts';

/**
 * Each task's review signals from the proofs decided in the last TASK_SIGNAL_DAYS days (the
 * proof_submissions read model, fed by ProofSubmitted / ProofApproved / ProofRejected): the median
 * minutes from proof to decision and the share approved.
 */
export async function listTaskSignals(db: ReadDbHandle, now: Date): Promise<TaskSignalBody[]> {
  const since = new Date(now.getTime() - TASK_SIGNAL_DAYS * 86_400_000).toISOString();
  const rows = await db
    .selectFrom('proof_submissions')
    .select(['task_id', 'status', 'submitted_at', 'reviewed_at'])
    .where('status', 'in', ['approved', 'rejected'])
    .where('reviewed_at', '>=', since)
    .execute();
  const byTask = new Map<string, { minutes: number[]; approved: number }>();
  for (const row of rows) {
    if (row.reviewed_at === null) continue;
    const entry = byTask.get(row.task_id) ?? { minutes: [], approved: 0 };
    entry.minutes.push(Math.max(0, (Date.parse(row.reviewed_at) - Date.parse(row.submitted_at)) / 60_000));
    if (row.status === 'approved') entry.approved += 1;
    byTask.set(row.task_id, entry);
  }
  return [...byTask].map(([taskId, { minutes, approved }]) => ({
    taskId,
    decisions: minutes.length,
    medianReviewMinutes: Math.max(1, Math.round(medianOf(minutes) ?? 0)),
    approvalPercent: Math.round((approved / minutes.length) * 100),
  }));
}
