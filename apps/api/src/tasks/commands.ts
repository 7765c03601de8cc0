import { commandId } from '../commands/keyed.ts';
import { streams } from '@kamai/contracts';
import {
  type EventStore,
  type TaskFields,
  type TaskSnapshot,
  type UserTaskCommand,
  taskDecider,
  userDecider,
} from '@kamai/domain';
import { handleCommand, loadStream } from '../commands/handle.ts';

/**
 * The task commands, each one trip through handleCommand. Routes and the demo seed both call these,
 * so demo data goes through the same rules as the API.
 */
/** `maxRewardPaise`: the settings' reward limit (the domain applies its default when absent). */
export function createTask(store: EventStore, taskId: string, fields: TaskFields, by: string, now: Date, maxRewardPaise?: number) {
  const data = { taskId, fields, by, ...(maxRewardPaise !== undefined && { maxRewardPaise }) };
  return handleCommand(store, streams.task(taskId), taskDecider, { type: 'CreateTask', data, now: now.toISOString() }, { actor: by });
}

export function updateTask(store: EventStore, taskId: string, fields: TaskFields, by: string, now: Date, maxRewardPaise?: number) {
  const data = { taskId, fields, by, ...(maxRewardPaise !== undefined && { maxRewardPaise }) };
  return handleCommand(store, streams.task(taskId), taskDecider, { type: 'UpdateTask', data, now: now.toISOString() }, { actor: by });
}

export function deleteTask(store: EventStore, taskId: string, by: string, now: Date) {
  return handleCommand(store, streams.task(taskId), taskDecider, { type: 'DeleteTask', data: { taskId, by }, now: now.toISOString() }, { actor: by });
}

/**
 * The task as its own stream has it now, for a proof submission: read from the event store rather
 * than the read model, so a task deactivated a moment ago on another node is already refused.
 */
export async function loadTaskSnapshot(store: EventStore, taskId: string): Promise<TaskSnapshot | null> {
  const { state } = await loadStream(store, streams.task(taskId), taskDecider);
  if (state.status !== 'listed') return null;
  const { title, rewardPaise, isActive, requiresProof } = state.fields;
  return { taskId, title, rewardPaise, isActive, requiresProof };
}

export function submitProof(
  store: EventStore,
  userId: string,
  data: { taskId: string; task: TaskSnapshot | null; proofImageUrl: string; proofDescription: string },
  now: Date,
) {
  // Fixed in the command, so a retry after a conflict reuses the same id.
  const submissionId = commandId();
  return handleCommand(
    store,
    streams.user(userId),
    userDecider,
    { type: 'SubmitProof', data: { ...data, submissionId }, now: now.toISOString() },
    { actor: userId },
  );
}

/** Approves or rejects a submission on its owner's stream; the reviewer is the actor. */
export function reviewProof(
  store: EventStore,
  ownerId: string,
  review:
    | { decision: 'approve'; submissionId: string; reviewerId: string }
    | { decision: 'reject'; submissionId: string; reviewerId: string; reason: string },
  now: Date,
) {
  const at = now.toISOString();
  const notificationId = commandId();
  const command: UserTaskCommand =
    review.decision === 'approve'
      ? { type: 'ApproveProof', data: { submissionId: review.submissionId, reviewerId: review.reviewerId, entryId: commandId(), notificationId }, now: at }
      : { type: 'RejectProof', data: { submissionId: review.submissionId, reviewerId: review.reviewerId, reason: review.reason, notificationId }, now: at };
  return handleCommand(store, streams.user(ownerId), userDecider, command, { actor: review.reviewerId });
}
