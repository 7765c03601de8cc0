import { commandId } from '../commands/keyed.ts';
import { SYSTEM_ACTOR, type UserEvent, streams } from '@kamai/contracts';
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

/** `expectedRevision`: the task's revision the admin edited (If-Match); a task that moved on throws WrongExpectedRevisionError. */
export function updateTask(store: EventStore, taskId: string, fields: TaskFields, by: string, now: Date, maxRewardPaise?: number, expectedRevision?: number) {
  const data = { taskId, fields, by, ...(maxRewardPaise !== undefined && { maxRewardPaise }) };
  return handleCommand(store, streams.task(taskId), taskDecider, { type: 'UpdateTask', data, now: now.toISOString() }, { actor: by }, { ...(expectedRevision !== undefined && { expectedRevision }) });
}

export function deleteTask(store: EventStore, taskId: string, by: string, now: Date, expectedRevision?: number) {
  return handleCommand(store, streams.task(taskId), taskDecider, { type: 'DeleteTask', data: { taskId, by }, now: now.toISOString() }, { actor: by }, { ...(expectedRevision !== undefined && { expectedRevision }) });
}

/**
 * The task as its own stream has it now, for a proof submission: read from the event store rather
 * than the read model, so a task deactivated a moment ago on another node is already refused.
 */
export async function loadTaskSnapshot(store: EventStore, taskId: string): Promise<TaskSnapshot | null> {
  const { state } = await loadStream(store, streams.task(taskId), taskDecider);
  if (state.status !== 'listed') return null;
  const { title, rewardPaise, isActive, requiresProof, expiresAt } = state.fields;
  return { taskId, title, rewardPaise, isActive, requiresProof, expiresAt };
}

/**
 * Commands of this process on one stream, one after another. The task stream is where every
 * submission to a task takes its slot; queued here, this process's takers do not collide with each
 * other, only with other processes, so a crowd on one task does not exhaust handleCommand's retries.
 */
const queues = new Map<string, Promise<unknown>>();
function inTurn<T>(key: string, run: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const mine = before.then(run, run);
  const tail = mine.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return mine;
}

/**
 * Takes one of the task's completion slots for a submission (409 task_full / task_expired when none):
 * the first step of a proof submission's workflow (workflows/tasks.ts), whose proof is recorded next
 * on the person's stream.
 */
export function takeSlot(store: EventStore, taskId: string, submissionId: string, userId: string, now: Date) {
  const command = { type: 'TakeSlot' as const, data: { taskId, submissionId, userId }, now: now.toISOString() };
  return inTurn(streams.task(taskId), () => handleCommand(store, streams.task(taskId), taskDecider, command, { actor: userId }));
}

/** Gives a submission's slot back; nothing when it holds none. */
export function releaseSlot(store: EventStore, taskId: string, submissionId: string, why: 'rejected' | 'not_submitted', actor: string, now: Date) {
  const command = { type: 'ReleaseSlot' as const, data: { taskId, submissionId, why }, now: now.toISOString() };
  return inTurn(streams.task(taskId), () => handleCommand(store, streams.task(taskId), taskDecider, command, { actor }));
}

/** The user taps Start on a task (idempotent: the first tap counts). */
export function startTask(store: EventStore, userId: string, task: TaskSnapshot, now: Date) {
  const command: UserTaskCommand = { type: 'StartTask', data: { taskId: task.taskId, task }, now: now.toISOString() };
  return handleCommand(store, streams.user(userId), userDecider, command, { actor: userId }, {
    view: (state) => state.tasks.started.get(task.taskId) ?? null,
  });
}

/** Approves or rejects a submission on its owner's stream; the reviewer is the actor. */
export async function reviewProof(
  store: EventStore,
  ownerId: string,
  review:
    | { decision: 'approve'; submissionId: string; reviewerId: string }
    | { decision: 'reject' | 'request_changes'; submissionId: string; reviewerId: string; reason: string; reasonCode?: string },
  now: Date,
) {
  const at = now.toISOString();
  const notificationId = commandId();
  const command: UserTaskCommand =
    review.decision === 'approve'
      ? { type: 'ApproveProof', data: { submissionId: review.submissionId, reviewerId: review.reviewerId, entryId: commandId(), notificationId }, now: at }
      : {
          type: review.decision === 'reject' ? 'RejectProof' : 'RequestChanges',
          data: {
            submissionId: review.submissionId,
            reviewerId: review.reviewerId,
            reason: review.reason,
            ...(review.reasonCode !== undefined && { reasonCode: review.reasonCode }),
            notificationId,
          },
          now: at,
        };
  const decided = await handleCommand(store, streams.user(ownerId), userDecider, command, { actor: review.reviewerId });
  await releaseRejectedSlots(store, decided.events, review.reviewerId, now);
  return decided;
}

/** The sweep's lapse of an unanswered change request into a rejection; its slot is given back like any rejection's. */
export async function lapseChangeRequest(store: EventStore, ownerId: string, submissionId: string, now: Date) {
  const command: UserTaskCommand = { type: 'LapseChangeRequest', data: { submissionId, notificationId: commandId() }, now: now.toISOString() };
  const decided = await handleCommand(store, streams.user(ownerId), userDecider, command, { actor: SYSTEM_ACTOR });
  await releaseRejectedSlots(store, decided.events, SYSTEM_ACTOR, now);
  return decided;
}

/** A rejection gives the submission's slot back to the task (an approval, or a change request, keeps it). */
async function releaseRejectedSlots(store: EventStore, events: readonly UserEvent[], actor: string, now: Date) {
  for (const event of events) {
    if (event.type === 'ProofRejected') await releaseSlot(store, event.data.taskId, event.data.submissionId, 'rejected', actor, now);
  }
}
