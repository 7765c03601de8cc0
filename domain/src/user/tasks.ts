import {
  type EventsOf,
  type Paise,
  type SubmissionStatus,
  type UserEvent,
  type userTaskEvents,
  PROOF_DESCRIPTION_MAX_LENGTH,
  REJECT_REASON_MAX_LENGTH,
  type MessageRef,
  msg,
  REASON_OTHER,
  CHANGES_RESUBMIT_HOURS,
  APPEAL_NOTE_MAX_LENGTH,
  APPEAL_WINDOW_DAYS,
  type AppealStatus,
} from '@kamai/contracts';
import type { AccountState } from './account.ts';
import { DomainError, assertNever } from '../errors.ts';
import { assertOpen } from '../tasks/task.ts';
import { assertNotSuspended } from './account.ts';
import { notify } from './notifications.ts';
import { type WalletState, credit } from './wallet.ts';

export type UserTaskEvent = EventsOf<typeof userTaskEvents>;

/** One proof submission; kept after review so an old one can still be named (and refused) by id. */
export interface SubmissionRecord {
  taskId: string;
  status: SubmissionStatus;
  /** The task's title and reward when the proof came in. */
  taskTitle: string;
  rewardPaise: Paise;
  /** While it needs changes: who asked, why (sealed text and plain code) and until when it may be sent again. */
  changes?: { reviewedBy: string; reason: string; reasonCode: string; resubmitBy: string };
  /** Once rejected: by whom and when (an appeal goes to someone else, within APPEAL_WINDOW_DAYS). */
  rejection?: { reviewedBy: string; rejectedAt: string };
  /** Its one appeal, if the person made it. */
  appeal?: { appealId: string; status: AppealStatus };
}

/** Where the user stands on one task: its latest submission. No record means pending (Not Started). */
export interface UserTaskRecord {
  status: SubmissionStatus;
  submissionId: string;
}

/**
 * The user's tasks on their own stream: proof submissions and their review. Maps updated in place,
 * so an event costs O(1); records are replaced, never changed, so one read earlier stays as it was.
 */
export interface UserTasksState {
  /** Keyed by task id. */
  byTask: Map<string, UserTaskRecord>;
  /** Keyed by submission id. */
  submissions: Map<string, SubmissionRecord>;
  /** Task id -> when the user last tapped Start; cleared by a rejection, so a new try starts anew. */
  started: Map<string, string>;
  /** Appeal id -> the submission it appeals. */
  appeals: Map<string, string>;
}

export const initialUserTasksState = (): UserTasksState => ({ byTask: new Map(), submissions: new Map(), started: new Map(), appeals: new Map() });

export function evolveUserTasks(state: UserTasksState, event: UserTaskEvent): UserTasksState {
  switch (event.type) {
    case 'TaskStarted':
      state.started.set(event.data.taskId, event.data.startedAt);
      return state;
    case 'ProofSubmitted': {
      const { submissionId, taskId, taskTitle, rewardPaise } = event.data;
      state.byTask.set(taskId, { status: 'submitted', submissionId });
      state.submissions.set(submissionId, { taskId, status: 'submitted', taskTitle, rewardPaise });
      return state;
    }
    case 'ProofApproved':
      return reviewed(state, event.data.submissionId, event.data.taskId, 'approved');
    case 'ProofRejected': {
      state.started.delete(event.data.taskId);
      reviewed(state, event.data.submissionId, event.data.taskId, 'rejected');
      const submission = state.submissions.get(event.data.submissionId);
      if (submission) state.submissions.set(event.data.submissionId, { ...submission, rejection: { reviewedBy: event.data.reviewedBy, rejectedAt: event.data.rejectedAt } });
      return state;
    }
    case 'AppealOpened':
    case 'AppealDecided': {
      const { appealId, submissionId } = event.data;
      const submission = state.submissions.get(submissionId);
      if (!submission) return state;
      const status: AppealStatus = event.type === 'AppealOpened' ? 'open' : event.data.decision === 'overturn' ? 'overturned' : 'upheld';
      state.appeals.set(appealId, submissionId);
      state.submissions.set(submissionId, { ...submission, appeal: { appealId, status } });
      return state;
    }
    case 'ProofChangesRequested': {
      const { submissionId, taskId, reviewedBy, reason, reasonCode, resubmitBy } = event.data;
      const submission = state.submissions.get(submissionId);
      if (!submission) return state;
      state.byTask.set(taskId, { status: 'needs_changes', submissionId });
      state.submissions.set(submissionId, { ...submission, status: 'needs_changes', changes: { reviewedBy, reason, reasonCode, resubmitBy } });
      return state;
    }
    case 'ProofResubmitted':
      return reviewed(state, event.data.submissionId, event.data.taskId, 'submitted');
    default:
      return assertNever(event);
  }
}

function reviewed(state: UserTasksState, submissionId: string, taskId: string, status: 'approved' | 'rejected' | 'submitted'): UserTasksState {
  const submission = state.submissions.get(submissionId);
  if (!submission) return state;
  state.byTask.set(taskId, { status, submissionId });
  const { changes: _done, ...rest } = submission;
  state.submissions.set(submissionId, { ...rest, status });
  return state;
}

/**
 * The task as the API read it from its `task-<id>` stream when the proof came in; null when that
 * stream does not exist or the task was deleted.
 */
export interface TaskSnapshot {
  taskId: string;
  title: string;
  rewardPaise: Paise;
  isActive: boolean;
  requiresProof: boolean;
  /** ISO instant from which the task takes no proof; null: no end. */
  expiresAt: string | null;
}

export type UserTaskCommand =
  | { type: 'StartTask'; data: { taskId: string; task: TaskSnapshot | null }; now: string }
  | {
      type: 'SubmitProof';
      data: {
        taskId: string;
        task: TaskSnapshot | null;
        submissionId: string;
        proofImageUrl: string;
        proofDescription: string;
        /** The picture's difference hash, taken by the API from the accepted image; null when none. */
        proofDhash?: string | null;
      };
      now: string;
    }
  | { type: 'ApproveProof'; data: { submissionId: string; reviewerId: string; entryId: string; notificationId: string }; now: string }
  | {
      type: 'RejectProof';
      /** `reasonCode`: the canned reason it is (reasonCodeOf), kept plain beside the sealed reason; absent: REASON_OTHER. */
      data: { submissionId: string; reviewerId: string; reason: string; reasonCode?: string; notificationId: string };
      now: string;
    }
  | {
      type: 'RequestChanges';
      data: { submissionId: string; reviewerId: string; reason: string; reasonCode?: string; notificationId: string };
      now: string;
    }
  | { type: 'AppealRejection'; data: { submissionId: string; appealId: string; note: string; proofImageUrl: string | null }; now: string }
  | {
      type: 'DecideAppeal';
      data: { appealId: string; reviewerId: string; decision: 'uphold' | 'overturn'; reason: string; entryId: string; notificationId: string };
      now: string;
    }
  /** The sweep: a change request not answered by its `resubmitBy` becomes the rejection of the reviewer who made it. */
  | { type: 'LapseChangeRequest'; data: { submissionId: string; notificationId: string }; now: string };

/**
 * Proof submission and review. Everything happens on the user's stream, so the approval, its credit
 * and its notification are one append: two reviewers racing on one submission cannot both credit it,
 * the loser's retry sees the approval and is refused with a conflict.
 */
export function decideUserTasks(command: UserTaskCommand, user: { account: AccountState; wallet: WalletState; tasks: UserTasksState }): UserEvent[] {
  const state = user.tasks;
  // Four eyes: staff never review their own proof (the owner of this stream).
  if (command.type === 'StartTask') return startTask(command.data, user, command.now);
  if (command.type === 'LapseChangeRequest') return lapseChangeRequest(command.data, state, command.now);
  if (command.type === 'AppealRejection') return appealRejection(command.data, state, command.now);
  if (command.type !== 'SubmitProof' && command.data.reviewerId === user.account.userId) {
    throw new DomainError('forbidden', msg('review.ownSubmission'));
  }
  switch (command.type) {
    case 'SubmitProof':
      assertNotSuspended(user.account);
      return submitProof(command.data, state, command.now);
    case 'ApproveProof': {
      const { submissionId, reviewerId, entryId, notificationId } = command.data;
      const submission = underReview(state, submissionId);
      // The reward is the one recorded with the submission, not the task's current one: an admin
      // lowering (or deleting) a task after the work was done does not shrink what the user earned.
      const reward = submission.rewardPaise;
      const title = submission.taskTitle;
      return [
        { type: 'ProofApproved', data: { submissionId, taskId: submission.taskId, reviewedBy: reviewerId, rewardPaise: reward, approvedAt: command.now } },
        credit({
          entryId,
          amountPaise: reward,
          kind: 'task_reward',
          params: { taskTitle: title },
          taskId: submission.taskId,
          reference: submissionId,
          by: reviewerId,
          now: command.now,
        }, user.wallet),
        notify({
          notificationId,
          key: 'task_approved',
          params: { amountPaise: reward, taskTitle: title, taskId: submission.taskId },
          kind: 'success',
          now: command.now,
        }),
      ];
    }
    case 'DecideAppeal':
      return decideAppeal(command.data, user, command.now);
    case 'RequestChanges': {
      const { submissionId, reviewerId, notificationId } = command.data;
      const submission = underReview(state, submissionId);
      const reason = reviewReason(command.data.reason);
      const resubmitBy = new Date(Date.parse(command.now) + CHANGES_RESUBMIT_HOURS * 3_600_000).toISOString();
      return [
        {
          type: 'ProofChangesRequested',
          data: { submissionId, taskId: submission.taskId, reviewedBy: reviewerId, reason, reasonCode: command.data.reasonCode ?? REASON_OTHER, requestedAt: command.now, resubmitBy },
        },
        notify({ notificationId, key: 'proof_needs_changes', params: { taskTitle: submission.taskTitle, taskId: submission.taskId, reason }, kind: 'warning', now: command.now }),
      ];
    }
    case 'RejectProof': {
      const { submissionId, reviewerId, notificationId } = command.data;
      const submission = underReview(state, submissionId);
      const reason = reviewReason(command.data.reason);
      return [
        {
          type: 'ProofRejected',
          data: { submissionId, taskId: submission.taskId, reviewedBy: reviewerId, reason, reasonCode: command.data.reasonCode ?? REASON_OTHER, rejectedAt: command.now },
        },
        notify({
          notificationId,
          key: 'proof_rejected',
          params: { taskTitle: submission.taskTitle, taskId: submission.taskId, reason },
          kind: 'warning',
          now: command.now,
        }),
      ];
    }
    default:
      return assertNever(command);
  }
}

/**
 * The user taps Start: the time to proof counts from the first tap. Tapping again, or on a task
 * already under review or done, records nothing.
 */
function startTask(data: Extract<UserTaskCommand, { type: 'StartTask' }>['data'], user: { account: AccountState; tasks: UserTasksState }, now: string): UserEvent[] {
  const { task } = data;
  if (!task || task.taskId !== data.taskId) throw new DomainError('not_found', msg('api.taskNotFound'));
  assertNotSuspended(user.account);
  const current = user.tasks.byTask.get(task.taskId);
  if (user.tasks.started.has(task.taskId) || current?.status === 'submitted' || current?.status === 'approved') return [];
  assertOpen(task, now);
  return [{ type: 'TaskStarted', data: { taskId: task.taskId, startedAt: now } }];
}

/** A reviewer's reason, trimmed: required and bounded. */
function reviewReason(text: string): string {
  const reason = text.trim();
  if (reason.length === 0 || reason.length > REJECT_REASON_MAX_LENGTH) {
    const message = msg(reason.length === 0 ? 'task.reason' : 'review.reasonTooLong');
    throw new DomainError('invalid', message, { reason: message });
  }
  return reason;
}

/**
 * A change request past its `resubmitBy` with no new proof: rejected in the name of the reviewer who
 * asked (so an appeal of it goes to someone else), for the reason they gave. Before the time, or once
 * answered, refused with a conflict (the sweep skips it).
 */
function lapseChangeRequest(data: { submissionId: string; notificationId: string }, state: UserTasksState, now: string): UserEvent[] {
  const submission = state.submissions.get(data.submissionId);
  if (!submission) throw new DomainError('not_found', msg('api.submissionNotFound'));
  const changes = submission.changes;
  if (submission.status !== 'needs_changes' || !changes || Date.parse(now) < Date.parse(changes.resubmitBy)) {
    throw new DomainError('conflict', msg('api.submissionReviewed'));
  }
  const { submissionId } = data;
  return [
    {
      type: 'ProofRejected',
      data: { submissionId, taskId: submission.taskId, reviewedBy: changes.reviewedBy, reason: changes.reason, reasonCode: changes.reasonCode, rejectedAt: now },
    },
    notify({ notificationId: data.notificationId, key: 'proof_rejected', params: { taskTitle: submission.taskTitle, taskId: submission.taskId, reason: changes.reason }, kind: 'warning', now }),
  ];
}

/**
 * The person appeals a rejection of their latest proof for a task: once, within APPEAL_WINDOW_DAYS.
 * While it is open no new proof is taken for the task, so an overturn cannot pay it twice.
 */
function appealRejection(data: Extract<UserTaskCommand, { type: 'AppealRejection' }>['data'], state: UserTasksState, now: string): UserEvent[] {
  const submission = state.submissions.get(data.submissionId);
  if (!submission) throw new DomainError('not_found', msg('api.submissionNotFound'));
  if (submission.appeal) throw new DomainError('conflict', msg('appeal.exists'), undefined, 'appeal_exists');
  const latest = state.byTask.get(submission.taskId);
  if (submission.status !== 'rejected' || !submission.rejection || latest?.submissionId !== data.submissionId) {
    throw new DomainError('conflict', msg('appeal.notRejected'));
  }
  if (Date.parse(now) > Date.parse(submission.rejection.rejectedAt) + APPEAL_WINDOW_DAYS * 86_400_000) {
    throw new DomainError('conflict', msg('appeal.windowClosed'), undefined, 'appeal_window_closed');
  }
  const note = data.note.trim();
  if (note.length === 0 || note.length > APPEAL_NOTE_MAX_LENGTH) {
    const message = msg(note.length === 0 ? 'appeal.note' : 'appeal.noteTooLong');
    throw new DomainError('invalid', message, { note: message });
  }
  return [
    {
      type: 'AppealOpened',
      data: { appealId: data.appealId, submissionId: data.submissionId, taskId: submission.taskId, rejectedBy: submission.rejection.reviewedBy, note, proofImageUrl: data.proofImageUrl, openedAt: now },
    },
  ];
}

/**
 * A reviewer other than the one who rejected decides an open appeal. Overturning approves the proof
 * and credits its reward in the same append on the person's stream, so a retry or a second reviewer
 * at once finds the appeal decided (409): credited once.
 */
function decideAppeal(
  data: Extract<UserTaskCommand, { type: 'DecideAppeal' }>['data'],
  user: { wallet: WalletState; tasks: UserTasksState },
  now: string,
): UserEvent[] {
  const submissionId = user.tasks.appeals.get(data.appealId);
  const submission = submissionId === undefined ? undefined : user.tasks.submissions.get(submissionId);
  if (!submissionId || !submission?.appeal || !submission.rejection) throw new DomainError('not_found', msg('appeal.notFound'));
  if (submission.rejection.reviewedBy === data.reviewerId) throw new DomainError('forbidden', msg('appeal.ownRejection'), undefined, 'own_rejection');
  if (submission.appeal.status !== 'open') throw new DomainError('conflict', msg('appeal.decided'));
  const reason = reviewReason(data.reason);
  const decided: UserEvent = {
    type: 'AppealDecided',
    data: { appealId: data.appealId, submissionId, decision: data.decision, decidedBy: data.reviewerId, reason, decidedAt: now },
  };
  const { taskTitle, rewardPaise, taskId } = submission;
  if (data.decision === 'uphold') {
    return [decided, notify({ notificationId: data.notificationId, key: 'appeal_upheld', params: { taskTitle, taskId, reason }, kind: 'warning', now })];
  }
  return [
    decided,
    { type: 'ProofApproved', data: { submissionId, taskId, reviewedBy: data.reviewerId, rewardPaise, approvedAt: now } },
    credit({ entryId: data.entryId, amountPaise: rewardPaise, kind: 'task_reward', params: { taskTitle }, taskId, reference: submissionId, by: data.reviewerId, now }, user.wallet),
    notify({ notificationId: data.notificationId, key: 'appeal_overturned', params: { taskTitle, taskId, amountPaise: rewardPaise }, kind: 'success', now }),
  ];
}

function underReview(state: UserTasksState, submissionId: string): SubmissionRecord {
  const submission = state.submissions.get(submissionId);
  if (!submission) throw new DomainError('not_found', msg('api.submissionNotFound'));
  if (submission.status !== 'submitted') throw new DomainError('conflict', msg('api.submissionReviewed'));
  return submission;
}

function submitProof(data: Extract<UserTaskCommand, { type: 'SubmitProof' }>['data'], state: UserTasksState, now: string): UserEvent[] {
  const { task, submissionId } = data;
  if (!task || task.taskId !== data.taskId) throw new DomainError('not_found', msg('api.taskNotFound'));
  assertOpen(task, now);
  if (!task.requiresProof) throw new DomainError('invalid', msg('api.noProofNeeded'));

  const proofImageUrl = data.proofImageUrl.trim();
  const proofDescription = data.proofDescription.trim();
  if (!proofImageUrl || !proofDescription) {
    const fields: Record<string, MessageRef> = {};
    if (!proofImageUrl) fields.proofImageUrl = msg('task.proofMissing');
    if (!proofDescription) fields.proofDescription = msg('task.proofMissing');
    throw new DomainError('invalid', msg('task.proofMissing'), fields);
  }
  if (proofDescription.length > PROOF_DESCRIPTION_MAX_LENGTH) {
    throw new DomainError('invalid', msg('task.proofTooLong'), { proofDescription: msg('task.proofTooLong') });
  }

  // Allowed from no record (pending) and after a rejection; refused while under review or once done.
  const current = state.byTask.get(task.taskId);
  if (current?.status === 'needs_changes') {
    // Sent back for changes: the same submission, whose slot is still held, is under review again.
    return [
      {
        type: 'ProofResubmitted',
        data: { submissionId: current.submissionId, taskId: task.taskId, proofImageUrl, proofDescription, ...(data.proofDhash && { proofDhash: data.proofDhash }), resubmittedAt: now },
      },
    ];
  }
  if (current?.status === 'submitted') throw new DomainError('conflict', msg('api.proofUnderReview'));
  if (current && state.submissions.get(current.submissionId)?.appeal?.status === 'open') throw new DomainError('conflict', msg('api.proofUnderReview'));
  if (current?.status === 'approved') throw new DomainError('conflict', msg('api.taskCompleted'));
  if (state.submissions.has(submissionId)) throw new DomainError('conflict', msg('api.submissionExists'));

  return [
    {
      type: 'ProofSubmitted',
      data: {
        submissionId,
        taskId: task.taskId,
        taskTitle: task.title,
        rewardPaise: task.rewardPaise,
        proofImageUrl,
        proofDescription,
        submittedAt: now,
        ...(data.proofDhash && { proofDhash: data.proofDhash }),
        startedAt: state.started.get(task.taskId) ?? null,
      },
    },
  ];
}
