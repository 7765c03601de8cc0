import {
  type AppealBody,
  APPEAL_WINDOW_DAYS,
  type AppealStatus,
  CHANGES_RESUBMIT_HOURS,
  PROOF_SIMILARITY_MAX_LISTED,
  type SimilarProof,
  type SubmissionBody,
  type SubmissionStatus,
  type UserTaskAppeal,
  type UserTaskBody,
  estimatedSeconds,
  formatPaise,
  isFastWork,
  maskMobile,
  workerApprovalRate,
} from '@kamai/contracts';
import type { Selectable } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import type { AppealsTable, UserTasksTable } from '../tasks/schema.ts';
import { closestFirst } from './similar.ts';
import { rejectionDaysOverCap } from '../reviewer-stats/queries.ts';

export type UserTaskRow = Selectable<UserTasksTable>;

export function toUserTaskBody(row: UserTaskRow): UserTaskBody {
  if (row.status === 'needs_changes') {
    // The reviewer's reason is kept where a rejection's is; it may be sent again until the deadline.
    const resubmitBy = new Date(Date.parse(row.reviewed_at ?? row.submitted_at) + CHANGES_RESUBMIT_HOURS * 3_600_000).toISOString();
    return { ...decidedBody(row), rejectionReason: null, changesReason: row.rejection_reason, resubmitBy };
  }
  return decidedBody(row);
}

function decidedBody(row: UserTaskRow): UserTaskBody {
  return {
    id: row.id,
    userId: row.user_id,
    taskId: row.task_id,
    status: row.status,
    submissionId: row.submission_id,
    taskTitle: row.task_title,
    rupeeReward: formatPaise(row.reward_paise),
    proofImageUrl: row.proof_image_url,
    proofDescription: row.proof_description,
    submittedAt: row.submitted_at,
    completedAt: row.completed_at,
    rupeesEarned: row.rupees_earned_paise === null ? null : formatPaise(row.rupees_earned_paise),
    rejectionReason: row.rejection_reason,
    reviewedAt: row.reviewed_at,
  };
}

/**
 * The user's task statuses (`GET /api/user-tasks`), latest submission first; deleted tasks included.
 * Each carries its latest submission's appeal, and while that stands rejected and unappealed, until
 * when it may be appealed (by `now`, the command clock: the decider refuses later ones).
 */
export async function listUserTasks(db: ReadDbHandle, userId: string, now: Date = new Date()): Promise<UserTaskBody[]> {
  const rows = await db.selectFrom('user_tasks').selectAll().where('user_id', '=', userId).orderBy('position', 'desc').execute();
  const appeals = await db
    .selectFrom('appeals')
    .select(['id', 'status', 'submission_id', 'opened_at', 'decision_reason', 'decided_at'])
    .where('user_id', '=', userId)
    .execute();
  const appealOf = new Map(appeals.map((a): [string, UserTaskAppeal] => [a.submission_id, { id: a.id, status: a.status, openedAt: a.opened_at, decisionReason: a.decision_reason, decidedAt: a.decided_at }]));
  return rows.map((row) => {
    const body = toUserTaskBody(row);
    const appeal = appealOf.get(row.submission_id) ?? null;
    if (appeal) return { ...body, appeal };
    if (row.status !== 'rejected' || row.reviewed_at === null) return body;
    const appealBy = Date.parse(row.reviewed_at) + APPEAL_WINDOW_DAYS * 86_400_000;
    return appealBy > now.getTime() ? { ...body, appeal: null, appealBy: new Date(appealBy).toISOString() } : body;
  });
}

export function findUserTask(db: ReadDbHandle, userId: string, taskId: string): Promise<UserTaskRow | undefined> {
  return db.selectFrom('user_tasks').selectAll().where('user_id', '=', userId).where('task_id', '=', taskId).executeTakeFirst();
}

function selectSubmissions(db: ReadDbHandle) {
  return db
    .selectFrom('proof_submissions as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('tasks as t', (join) => join.onRef('t.id', '=', 's.task_id').on('t.deleted_at', 'is', null))
    .leftJoin('task_workers as w', 'w.user_id', 's.user_id')
    .selectAll('s')
    .select([
      'u.first_name',
      'u.last_name',
      'u.mobile',
      'u.created_at as user_created_at',
      'u.kyc_status',
      't.task_type',
      't.estimated_time',
      't.title as current_title',
      't.title_hi',
      'w.approved_count',
      'w.rejected_count',
      'w.suspended',
    ]);
}

type SubmissionRow = Awaited<ReturnType<ReturnType<typeof selectSubmissions>['executeTakeFirstOrThrow']>>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The worker line and the time to proof, from the row and the worker's days of rejections over the rate's cap. */
function flagsOf(row: SubmissionRow, similar: SimilarProof[], overCap: readonly number[], now: Date): Pick<SubmissionBody, 'similarProofs' | 'secondsToProof' | 'fast' | 'worker'> {
  const secondsToProof = row.started_at === null ? null : Math.max(0, Math.round((Date.parse(row.submitted_at) - Date.parse(row.started_at)) / 1000));
  const approved = row.approved_count ?? 0;
  const rejected = row.rejected_count ?? 0;
  const registered = row.user_created_at === null ? Number.NaN : Date.parse(row.user_created_at);
  return {
    similarProofs: similar,
    secondsToProof,
    fast: isFastWork(secondsToProof, row.estimated_time === null ? null : estimatedSeconds(row.estimated_time)),
    worker: {
      approvalRate: workerApprovalRate(approved, rejected, overCap),
      approvedCount: approved,
      rejectedCount: rejected,
      accountAgeDays: Number.isNaN(registered) ? 0 : Math.max(0, Math.floor((now.getTime() - registered) / DAY_MS)),
      kycStatus: row.kyc_status ?? 'pending',
      suspended: row.suspended === 1,
    },
  };
}

/**
 * For each of these proofs, the other proofs whose pictures are near-duplicates: the pairs the
 * projection found when each proof came in (see similar.ts), read by submission id.
 */
async function similarProofsOf(db: ReadDbHandle, rows: readonly SubmissionRow[]): Promise<Map<string, SimilarProof[]>> {
  const answer = new Map<string, SimilarProof[]>();
  if (rows.length === 0) return answer;
  const pairs = await db
    .selectFrom('similar_proofs as p')
    .leftJoin('users as u', 'u.id', 'p.other_user_id')
    .select(['p.submission_id', 'p.other_id', 'p.distance', 'u.mobile'])
    .where('p.submission_id', 'in', rows.map((row) => row.id))
    .execute();
  const near = new Map<string, { id: string; distance: number; mobile: string | null }[]>();
  for (const pair of pairs) {
    const list = near.get(pair.submission_id) ?? [];
    list.push({ id: pair.other_id, distance: pair.distance, mobile: pair.mobile });
    near.set(pair.submission_id, list);
  }
  for (const [id, list] of near) {
    list.sort(closestFirst);
    answer.set(
      id,
      list.slice(0, PROOF_SIMILARITY_MAX_LISTED).map((other) => ({ submissionId: other.id, mobileMasked: other.mobile === null ? '' : maskMobile(other.mobile), distance: other.distance })),
    );
  }
  return answer;
}

function toSubmissionBody(row: SubmissionRow, similar: Map<string, SimilarProof[]>, overCap: Map<string, number[]>, now: Date): SubmissionBody {
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    status: row.status,
    taskId: row.task_id,
    taskTitle: row.task_title,
    // The catalogue's Hindi title names the same task only while its English title is the submitted one.
    taskTitleHi: row.current_title === row.task_title ? (row.title_hi ?? null) : null,
    taskType: row.task_type ?? null,
    rupeeReward: formatPaise(row.reward_paise),
    userId: row.user_id,
    userName: name || (row.mobile ?? ''),
    userMobile: row.mobile ?? '',
    proofImageUrl: row.proof_image_url,
    proofDescription: row.proof_description,
    submittedAt: row.submitted_at,
    reviewedAt: row.reviewed_at,
    reviewedBy: row.reviewed_by,
    rejectionReason: row.rejection_reason,
    ...flagsOf(row, similar.get(row.id) ?? [], overCap.get(row.user_id) ?? [], now),
  };
}

/**
 * The review queue (`GET /api/admin/submissions?status=`): submissions waiting for review oldest
 * first, so none is left behind; reviewed ones newest first.
 */
export async function listSubmissions(
  db: ReadDbHandle,
  options: { status: SubmissionStatus; limit?: number; now?: Date },
): Promise<SubmissionBody[]> {
  const rows = await selectSubmissions(db)
    .where('s.status', '=', options.status)
    .orderBy('s.position', options.status === 'submitted' ? 'asc' : 'desc')
    .limit(options.limit ?? 200)
    .execute();
  const similar = await similarProofsOf(db, rows);
  const overCap = await rejectionDaysOverCap(db, rows.map((row) => row.user_id));
  const now = options.now ?? new Date();
  return rows.map((row) => toSubmissionBody(row, similar, overCap, now));
}

/** Whose proof a submission is, without the queue's flags: what a decision needs to find its stream. */
export async function submissionOwner(db: ReadDbHandle, id: string): Promise<string | undefined> {
  return (await db.selectFrom('proof_submissions').select('user_id').where('id', '=', id).executeTakeFirst())?.user_id;
}

export async function findSubmission(db: ReadDbHandle, id: string, now: Date = new Date()): Promise<SubmissionBody | undefined> {
  const row = await selectSubmissions(db).where('s.id', '=', id).executeTakeFirst();
  return row && toSubmissionBody(row, await similarProofsOf(db, [row]), await rejectionDaysOverCap(db, [row.user_id]), now);
}

/** The reviewers' appeal queue (`GET /api/admin/appeals?status=`), oldest first. */
export async function listAppeals(db: ReadDbHandle, status: AppealStatus): Promise<AppealBody[]> {
  const rows = await db.selectFrom('appeals').selectAll().where('status', '=', status).orderBy('position').execute();
  return rows.map(toAppealBody);
}

export async function findAppeal(db: ReadDbHandle, appealId: string): Promise<AppealBody | undefined> {
  const row = await db.selectFrom('appeals').selectAll().where('id', '=', appealId).executeTakeFirst();
  return row && toAppealBody(row);
}

/** Whose stream an appeal is on. */
export async function appealOwner(db: ReadDbHandle, appealId: string): Promise<string | undefined> {
  return (await db.selectFrom('appeals').select('user_id').where('id', '=', appealId).executeTakeFirst())?.user_id;
}

function toAppealBody(row: Selectable<AppealsTable>): AppealBody {
  return {
    id: row.id,
    status: row.status,
    submissionId: row.submission_id,
    userId: row.user_id,
    taskId: row.task_id,
    taskTitle: row.task_title,
    rupeeReward: formatPaise(row.reward_paise),
    note: row.note,
    proofImageUrl: row.proof_image_url,
    rejectedBy: row.rejected_by,
    rejectionReason: row.rejection_reason,
    openedAt: row.opened_at,
    decidedBy: row.decided_by,
    decisionReason: row.decision_reason,
    decidedAt: row.decided_at,
  };
}
