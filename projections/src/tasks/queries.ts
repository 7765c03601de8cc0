import { type TaskBody, type TaskFiguresBody, formatPaise } from '@kamai/contracts';
import type { Selectable } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import type { TasksTable } from './schema.ts';

export type TaskRow = Selectable<TasksTable>;

export function toTaskBody(row: TaskRow): TaskBody {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    rupeeReward: formatPaise(row.reward_paise),
    estimatedTime: row.estimated_time,
    estimatedMinutes: row.estimated_minutes,
    taskType: row.task_type,
    taskUrl: row.task_url,
    isActive: row.is_active === 1,
    iconColor: row.icon_color,
    requiresProof: row.requires_proof === 1,
    proofInstructions: row.proof_instructions,
    hi: row.title_hi === null && row.description_hi === null && row.proof_instructions_hi === null
      ? null
      : { title: row.title_hi, description: row.description_hi, proofInstructions: row.proof_instructions_hi },
    maxCompletions: row.max_completions,
    expiresAt: row.expires_at,
    slotsUsed: row.slots_used,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function listed(db: ReadDbHandle) {
  return db.selectFrom('tasks').selectAll().where('deleted_at', 'is', null);
}

/** The tasks users can do (`GET /api/tasks`) as of `now`, newest first: a full or ended task is not one. */
export async function listActiveTasks(db: ReadDbHandle, now: Date = new Date()): Promise<TaskBody[]> {
  const rows = await listed(db)
    .where('is_active', '=', 1)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
    .where((eb) => eb.or([eb('max_completions', 'is', null), eb('slots_used', '<', eb.ref('max_completions'))]))
    .orderBy('position', 'desc')
    .execute();
  return rows.map(toTaskBody);
}

/**
 * Per catalogue task: slots, money approved and under review, approval rate and expiry, from the
 * review queue (every submission) and the catalogue (`GET /api/admin/task-figures`).
 */
export async function listTaskFigures(db: ReadDbHandle, now: Date): Promise<TaskFiguresBody[]> {
  const tasks = await listed(db).orderBy('position', 'desc').execute();
  const counts = await db
    .selectFrom('proof_submissions')
    .select((eb) => [
      'task_id',
      'status',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('reward_paise').as('paise'),
    ])
    .groupBy(['task_id', 'status'])
    .execute();
  const byTask = new Map<string, { approved: [number, number]; rejected: [number, number]; submitted: [number, number] }>();
  for (const row of counts) {
    let figures = byTask.get(row.task_id);
    if (!figures) {
      figures = { approved: [0, 0], rejected: [0, 0], submitted: [0, 0] };
      byTask.set(row.task_id, figures);
    }
    // Sent back for changes still holds its slot and may yet be paid: counted as under review.
    const figure = figures[row.status === 'needs_changes' ? 'submitted' : row.status];
    figure[0] += Number(row.n);
    figure[1] += Number(row.paise);
  }
  const at = now.toISOString();
  return tasks.map((task) => {
    const f = byTask.get(task.id) ?? { approved: [0, 0], rejected: [0, 0], submitted: [0, 0] };
    const decided = f.approved[0] + f.rejected[0];
    return {
      taskId: task.id,
      slotsUsed: task.slots_used,
      slotsLeft: task.max_completions === null ? null : Math.max(0, task.max_completions - task.slots_used),
      approvedCount: f.approved[0],
      rejectedCount: f.rejected[0],
      underReviewCount: f.submitted[0],
      approvedRupees: formatPaise(f.approved[1]),
      underReviewRupees: formatPaise(f.submitted[1]),
      approvalRate: decided === 0 ? null : f.approved[0] / decided,
      expiresAt: task.expires_at,
      expired: task.expires_at !== null && task.expires_at <= at,
    };
  });
}

/** The whole catalogue, active or not, without deleted tasks (`GET /api/admin/tasks`), newest first. */
export async function listCatalogueTasks(db: ReadDbHandle): Promise<TaskBody[]> {
  const rows = await listed(db).orderBy('position', 'desc').execute();
  return rows.map(toTaskBody);
}

/** A task of the catalogue, or undefined when it does not exist or was deleted. */
export function findTask(db: ReadDbHandle, id: string): Promise<TaskRow | undefined> {
  return listed(db).where('id', '=', id).executeTakeFirst();
}
