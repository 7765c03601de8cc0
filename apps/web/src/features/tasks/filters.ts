import type { TaskBody, UserTaskBody, UserTaskStatus } from '@kamai/contracts';

import { taskListOf } from '@kamai/contracts';
import type { TaskList } from '@kamai/contracts';

export type { TaskList };

/** The tasks of one list screen (by the contracts' rule, one list per task), in the order the API gave them. */
export function tasksForList<T extends Pick<TaskBody, 'taskType'>>(tasks: readonly T[], list: TaskList): T[] {
  return tasks.filter((task) => taskListOf(task) === list);
}

/** A user's status for a task: its record's status, or 'pending' (Not Started) when there is none. */
export function statusOf(taskId: string, userTasks: readonly Pick<UserTaskBody, 'taskId' | 'status'>[] | undefined): UserTaskStatus {
  return userTasks?.find((record) => record.taskId === taskId)?.status ?? 'pending';
}

/** The locale key (tasks namespace) of each status's badge text (Not Started, Under Review, Completed, Rejected). */
export const STATUS_LABEL_KEYS = {
  pending: 'status.pending',
  submitted: 'status.submitted',
  approved: 'status.approved',
  rejected: 'status.rejected',
  needs_changes: 'status.needs_changes',
} as const satisfies Record<UserTaskStatus, string>;

/**
 * The upload form shows with no submission, or while the task is pending, rejected or sent back for
 * changes; not while an appeal of its rejection is open (the server takes no new proof then).
 */
export const canSubmitProof = (task: Pick<TaskBody, 'requiresProof'>, status: UserTaskStatus, record?: Pick<UserTaskBody, 'appeal'>): boolean =>
  task.requiresProof && (status === 'pending' || status === 'rejected' || status === 'needs_changes') && record?.appeal?.status !== 'open';

/** A rejected proof may be appealed once, until `appealBy` (the server leaves it out once appealed or too late). */
export const canAppeal = (record: Pick<UserTaskBody, 'status' | 'appeal' | 'appealBy'> | undefined, now = Date.now()): boolean =>
  record?.status === 'rejected' && !record.appeal && Boolean(record.appealBy) && Date.parse(record.appealBy!) > now;
