import { DEFAULT_LIMITS, type Paise, type TaskCatalogueEvent, type TaskHiTexts, type TaskType, minutesOf, msg } from '@kamai/contracts';
import type { Decider, Evolver } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

/** What the admin sets on a task (the reward in paise). */
export interface TaskFields {
  title: string;
  description: string;
  rewardPaise: Paise;
  estimatedTime: string;
  /** Null: the text names no single number of minutes. */
  estimatedMinutes: number | null;
  taskType: TaskType;
  taskUrl: string | null;
  isActive: boolean;
  iconColor: string;
  requiresProof: boolean;
  proofInstructions: string | null;
  /** The Hindi texts; null: English only. */
  hi: TaskHiTexts | null;
  /** Null: no limit. */
  maxCompletions: number | null;
  /** ISO instant from which the task takes no proof; null: no end. */
  expiresAt: string | null;
}

/**
 * One `task-<id>` stream: absent, in the catalogue, or deleted from it (for good). `held` is the
 * submissions holding a completion slot, with when each took it; changed in place, so an event costs O(1).
 */
export type TaskState =
  | { status: 'absent' }
  | { status: 'listed'; taskId: string; fields: TaskFields; held: Map<string, string> }
  | { status: 'deleted'; taskId: string; fields: TaskFields; held: Map<string, string> };

export const initialTaskState = (): TaskState => ({ status: 'absent' });

type OptionalFields = 'maxCompletions' | 'expiresAt' | 'estimatedMinutes' | 'hi';
/**
 * The fields as events carry them: a limit, end or Hindi text missing from an older event is none,
 * and its minutes are read from its estimated time.
 */
function fieldsOf(data: Omit<TaskFields, OptionalFields> & { [K in OptionalFields]?: TaskFields[K] | undefined }): TaskFields {
  const { title, description, rewardPaise, estimatedTime, taskType, taskUrl, isActive, iconColor, requiresProof, proofInstructions } = data;
  const hi = data.hi ?? null;
  return {
    title, description, rewardPaise, estimatedTime, taskType, taskUrl, isActive, iconColor, requiresProof, proofInstructions,
    estimatedMinutes: data.estimatedMinutes === undefined ? minutesOf(estimatedTime) : data.estimatedMinutes,
    hi: hi && { title: hi.title, description: hi.description, proofInstructions: hi.proofInstructions },
    maxCompletions: data.maxCompletions ?? null,
    expiresAt: data.expiresAt ?? null,
  };
}

export function evolveTask(state: TaskState, event: TaskCatalogueEvent): TaskState {
  switch (event.type) {
    case 'TaskCreated':
    case 'TaskUpdated':
      return { status: 'listed', taskId: event.data.taskId, fields: fieldsOf(event.data), held: state.status === 'absent' ? new Map() : state.held };
    case 'TaskDeleted':
      return state.status === 'absent' ? state : { status: 'deleted', taskId: state.taskId, fields: state.fields, held: state.held };
    case 'TaskSlotTaken':
      if (state.status !== 'absent') state.held.set(event.data.submissionId, event.data.takenAt);
      return state;
    case 'TaskSlotReleased':
      if (state.status !== 'absent') state.held.delete(event.data.submissionId);
      return state;
    default:
      return assertNever(event);
  }
}

export const taskEvolver: Evolver<TaskState, TaskCatalogueEvent> = { initialState: initialTaskState, evolve: evolveTask };

export type TaskCommand =
  | { type: 'CreateTask'; data: { taskId: string; fields: TaskFields; by: string; maxRewardPaise?: Paise }; now: string }
  | { type: 'UpdateTask'; data: { taskId: string; fields: TaskFields; by: string; maxRewardPaise?: Paise }; now: string }
  | { type: 'DeleteTask'; data: { taskId: string; by: string }; now: string }
  | { type: 'TakeSlot'; data: { taskId: string; submissionId: string; userId: string }; now: string }
  | { type: 'ReleaseSlot'; data: { taskId: string; submissionId: string; why: 'rejected' | 'not_submitted' }; now: string };

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
    case 'TakeSlot': {
      const { taskId, submissionId, userId } = command.data;
      if (state.status !== 'listed') throw new DomainError('not_found', msg('api.taskNotFound'));
      // Taking the same slot again (a retried request) records nothing.
      if (state.held.has(submissionId)) return [];
      assertOpen(state.fields, command.now);
      const max = state.fields.maxCompletions;
      if (max !== null && state.held.size >= max) throw new DomainError('conflict', msg('task.full'), undefined, 'task_full');
      return [{ type: 'TaskSlotTaken', data: { taskId, submissionId, userId, takenAt: command.now } }];
    }
    case 'ReleaseSlot': {
      const { taskId, submissionId, why } = command.data;
      // A deleted task still gives a slot back, so its figures stay true.
      if (state.status === 'absent' || !state.held.has(submissionId)) return [];
      return [{ type: 'TaskSlotReleased', data: { taskId, submissionId, why, releasedAt: command.now } }];
    }
    default:
      return assertNever(command);
  }
}

/** A task takes proof while active and before its end: 409 `task_expired` after it. */
export function assertOpen(fields: Pick<TaskFields, 'isActive' | 'expiresAt'>, now: string) {
  if (fields.expiresAt !== null && Date.parse(now) >= Date.parse(fields.expiresAt)) {
    throw new DomainError('conflict', msg('task.expired'), undefined, 'task_expired');
  }
  if (!fields.isActive) throw new DomainError('conflict', msg('task.notAvailable'));
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
  const sameHi = (x.hi === null && y.hi === null) || (x.hi !== null && y.hi !== null
    && x.hi.title === y.hi.title && x.hi.description === y.hi.description && x.hi.proofInstructions === y.hi.proofInstructions);
  return sameHi && (Object.keys(x) as (keyof TaskFields)[]).every((key) => key === 'hi' || x[key] === y[key]);
}

/** The decider of `task-<id>`. */
export const taskDecider: Decider<TaskState, TaskCommand, TaskCatalogueEvent> = { ...taskEvolver, decide: decideTask };
