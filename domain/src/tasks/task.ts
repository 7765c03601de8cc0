import { DEFAULT_LIMITS, type Paise, type TaskCatalogueEvent, type TaskType, msg } from '@kamai/contracts';
import type { Decider, Evolver } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

/** What the admin sets on a task (the reward in paise). */
export interface TaskFields {
  title: string;
  description: string;
  rewardPaise: Paise;
  estimatedTime: string;
  taskType: TaskType;
  taskUrl: string | null;
  isActive: boolean;
  iconColor: string;
  requiresProof: boolean;
  proofInstructions: string | null;
}

/** One `task-<id>` stream: absent, in the catalogue, or deleted from it (for good). */
export type TaskState =
  | { status: 'absent' }
  | { status: 'listed'; taskId: string; fields: TaskFields }
  | { status: 'deleted'; taskId: string; fields: TaskFields };

export const initialTaskState = (): TaskState => ({ status: 'absent' });

function fieldsOf(data: TaskFields): TaskFields {
  const { title, description, rewardPaise, estimatedTime, taskType, taskUrl, isActive, iconColor, requiresProof, proofInstructions } = data;
  return { title, description, rewardPaise, estimatedTime, taskType, taskUrl, isActive, iconColor, requiresProof, proofInstructions };
}

export function evolveTask(state: TaskState, event: TaskCatalogueEvent): TaskState {
  switch (event.type) {
    case 'TaskCreated':
    case 'TaskUpdated':
      return { status: 'listed', taskId: event.data.taskId, fields: fieldsOf(event.data) };
    case 'TaskDeleted':
      return state.status === 'absent' ? state : { status: 'deleted', taskId: state.taskId, fields: state.fields };
    default:
      return assertNever(event);
  }
}

export const taskEvolver: Evolver<TaskState, TaskCatalogueEvent> = { initialState: initialTaskState, evolve: evolveTask };

export type TaskCommand =
  | { type: 'CreateTask'; data: { taskId: string; fields: TaskFields; by: string; maxRewardPaise?: Paise }; now: string }
  | { type: 'UpdateTask'; data: { taskId: string; fields: TaskFields; by: string; maxRewardPaise?: Paise }; now: string }
  | { type: 'DeleteTask'; data: { taskId: string; by: string }; now: string };

/**
 * The admin's catalogue. A deleted task is gone for the catalogue: updating or deleting it again is
 * a 404, like a task that never existed. Users' submissions and credits live on their own streams and
 * are not touched.
 */
export function decideTask(command: TaskCommand, state: TaskState): TaskCatalogueEvent[] {
  switch (command.type) {
    case 'CreateTask': {
      if (state.status !== 'absent') throw new DomainError('conflict', msg('api.taskExists'));
      const { taskId, fields, by, maxRewardPaise } = command.data;
      assertReward(fields.rewardPaise, maxRewardPaise);
      return [{ type: 'TaskCreated', data: { taskId, ...fieldsOf(fields), createdBy: by, createdAt: command.now } }];
    }
    case 'UpdateTask': {
      if (state.status !== 'listed') throw new DomainError('not_found', msg('api.taskNotFound'));
      const { taskId, fields, by, maxRewardPaise } = command.data;
      assertReward(fields.rewardPaise, maxRewardPaise);
      // Saving the form unchanged records nothing.
      if (sameFields(state.fields, fields)) return [];
      return [{ type: 'TaskUpdated', data: { taskId, ...fieldsOf(fields), updatedBy: by, updatedAt: command.now } }];
    }
    case 'DeleteTask':
      if (state.status !== 'listed') throw new DomainError('not_found', msg('api.taskNotFound'));
      return [{ type: 'TaskDeleted', data: { taskId: command.data.taskId, deletedBy: command.data.by, deletedAt: command.now } }];
    default:
      return assertNever(command);
  }
}

/**
 * A reward is capped by the settings' limit (the default when the caller names none), so one admin
 * cannot mint a large reward and have it paid out.
 */
function assertReward(rewardPaise: Paise, maxRewardPaise: Paise = DEFAULT_LIMITS.maxTaskRewardPaise) {
  if (!Number.isSafeInteger(rewardPaise) || rewardPaise <= 0) {
    throw new DomainError('invalid', msg('task.reward'), { rupeeReward: msg('task.reward') });
  }
  if (rewardPaise > maxRewardPaise) {
    const message = msg('limit.rewardAbove', { maxPaise: maxRewardPaise });
    throw new DomainError('invalid', message, { rupeeReward: message });
  }
}

function sameFields(a: TaskFields, b: TaskFields): boolean {
  const x = fieldsOf(a);
  const y = fieldsOf(b);
  return (Object.keys(x) as (keyof TaskFields)[]).every((key) => x[key] === y[key]);
}

/** The decider of `task-<id>`. */
export const taskDecider: Decider<TaskState, TaskCommand, TaskCatalogueEvent> = { ...taskEvolver, decide: decideTask };
