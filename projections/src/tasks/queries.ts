import { type TaskBody, formatPaise } from '@kamai/contracts';
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
    taskType: row.task_type,
    taskUrl: row.task_url,
    isActive: row.is_active === 1,
    iconColor: row.icon_color,
    requiresProof: row.requires_proof === 1,
    proofInstructions: row.proof_instructions,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function listed(db: ReadDbHandle) {
  return db.selectFrom('tasks').selectAll().where('deleted_at', 'is', null);
}

/** The tasks users can do (`GET /api/tasks`), newest first. */
export async function listActiveTasks(db: ReadDbHandle): Promise<TaskBody[]> {
  const rows = await listed(db).where('is_active', '=', 1).orderBy('position', 'desc').execute();
  return rows.map(toTaskBody);
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
