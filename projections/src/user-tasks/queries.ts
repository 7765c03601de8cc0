import { type SubmissionBody, type SubmissionStatus, type UserTaskBody, formatPaise } from '@kamai/contracts';
import type { Selectable } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import type { UserTasksTable } from '../tasks/schema.ts';

export type UserTaskRow = Selectable<UserTasksTable>;

export function toUserTaskBody(row: UserTaskRow): UserTaskBody {
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

/** The user's task statuses (`GET /api/user-tasks`), latest submission first; deleted tasks included. */
export async function listUserTasks(db: ReadDbHandle, userId: string): Promise<UserTaskBody[]> {
  const rows = await db.selectFrom('user_tasks').selectAll().where('user_id', '=', userId).orderBy('position', 'desc').execute();
  return rows.map(toUserTaskBody);
}

export function findUserTask(db: ReadDbHandle, userId: string, taskId: string): Promise<UserTaskRow | undefined> {
  return db.selectFrom('user_tasks').selectAll().where('user_id', '=', userId).where('task_id', '=', taskId).executeTakeFirst();
}

function selectSubmissions(db: ReadDbHandle) {
  return db
    .selectFrom('proof_submissions as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('tasks as t', (join) => join.onRef('t.id', '=', 's.task_id').on('t.deleted_at', 'is', null))
    .selectAll('s')
    .select(['u.first_name', 'u.last_name', 'u.mobile', 't.task_type']);
}

type SubmissionRow = Awaited<ReturnType<ReturnType<typeof selectSubmissions>['executeTakeFirstOrThrow']>>;

function toSubmissionBody(row: SubmissionRow): SubmissionBody {
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    status: row.status,
    taskId: row.task_id,
    taskTitle: row.task_title,
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
  };
}

/**
 * The review queue (`GET /api/admin/submissions?status=`): submissions waiting for review oldest
 * first, so none is left behind; reviewed ones newest first.
 */
export async function listSubmissions(
  db: ReadDbHandle,
  options: { status: SubmissionStatus; limit?: number },
): Promise<SubmissionBody[]> {
  const rows = await selectSubmissions(db)
    .where('s.status', '=', options.status)
    .orderBy('s.position', options.status === 'submitted' ? 'asc' : 'desc')
    .limit(options.limit ?? 200)
    .execute();
  return rows.map(toSubmissionBody);
}

export async function findSubmission(db: ReadDbHandle, id: string): Promise<SubmissionBody | undefined> {
  const row = await selectSubmissions(db).where('s.id', '=', id).executeTakeFirst();
  return row && toSubmissionBody(row);
}
