import * as v from 'valibot';
import { CONTROL_CHARACTERS_MESSAGE, UUID_PATTERN, hasControlCharacters, noControlCharacters } from './text.ts';
import { TASK_TYPES, TaskHiTexts, TaskType } from './events/tasks.ts';
import { RupeeAmount } from './money.ts';
import { DAY_MESSAGE, isDay, istDayEnd } from './days.ts';
import { proofFlagFields } from './proof-flags.ts';
import { type FieldName, refusal } from './refusal.ts';

/** The longest proof description and rejection reason: one number for form, API and domain. */
export const PROOF_DESCRIPTION_MAX_LENGTH = 500;
export const REJECT_REASON_MAX_LENGTH = 500;

/** The longest estimated time a task may give, in minutes (a day). */
export const MAX_ESTIMATED_MINUTES = 1440;

/** Messages of the task, proof and review rules, shared by forms and API. */
export const TASK_MESSAGES = {
  title: 'Title is required',
  description: 'Description is required',
  rewardRequired: 'Reward is required',
  reward: 'Reward must be a positive rupee amount with at most two decimals',
  estimatedTime: 'Estimated time is required',
  estimatedMinutes: `Estimated time must be a whole number of minutes from 1 to ${MAX_ESTIMATED_MINUTES}`,
  taskType: 'Task type must be rating, website or game',
  taskUrl: 'Task URL must be a valid URL',
  iconColor: 'Icon colour must be a hex colour such as #3B82F6',
  boolean: 'Must be true or false',
  body: 'Send a JSON object',
  proofMissing: 'Please upload proof image and provide description',
  proofTooLong: `Description must be at most ${PROOF_DESCRIPTION_MAX_LENGTH} characters`,
  reason: 'Please give a reason for the rejection',
  /** 412 on an admin edit or delete made on an older revision of the task. */
  changedBySomeoneElse: 'This task was changed by someone else',
  /** 428: an admin edit or delete without If-Match. */
  ifMatchRequired: 'Send the If-Match header with the ETag of the task you edited',
  maxCompletions: 'Completions must be a whole number from 1 to 1000000',
  expiresOn: DAY_MESSAGE,
  /** 409 on submit proof: every completion slot is taken. */
  full: 'This task has no places left',
  /** 409 on submit proof: the task's last day has passed. */
  expired: 'This task has ended',
  notAvailable: 'This task is not available right now',
  /** 409 on a retried submit proof whose first attempt died and was given up: nothing was recorded. */
  proofNotRecorded: 'Your proof was not recorded. Please send it again',
} as const;

/** The largest completion limit a task may set. */
export const MAX_COMPLETIONS_LIMIT = 1_000_000;

/** The admin form's defaults. */
export const TASK_DEFAULTS = {
  rupeeReward: '10.00',
  estimatedTime: '5 min',
  estimatedMinutes: 5,
  taskType: 'website',
  isActive: true,
  iconColor: '#3B82F6',
  requiresProof: true,
} as const;


const tooLong = (what: string, max: number) => `${what} must be at most ${max} characters`;

/** Messages of the review rules. */
/** The most submissions one bulk decision takes. */
export const BULK_REVIEW_MAX = 100;

export const REVIEW_MESSAGES = {
  ownSubmission: 'You cannot review your own submission',
  reasonTooLong: tooLong('Reason', REJECT_REASON_MAX_LENGTH),
  bulkIds: `Choose 1 to ${BULK_REVIEW_MAX} submissions`,
  decision: 'Decision must be approve or reject',
} as const;

/** A required text: trimmed, not empty, bounded. A missing key reads as empty, so it gets the same message. */
const RequiredText = (message: string, max: number, what: FieldName) =>
  v.pipe(v.optional(v.string(message), ''), v.trim(), v.minLength(1, message), v.maxLength(max, refusal('api.textTooLong', { what, max })), noControlCharacters());

/** An optional text: trimmed, and empty or absent means null. */
const OptionalText = (message: string, max: number, what: FieldName) =>
  v.pipe(
    v.optional(v.nullable(v.string(message)), null),
    v.transform((text) => (text === null ? null : text.trim() || null)),
    v.check((text) => text === null || text.length <= max, refusal('api.textTooLong', { what, max })),
    v.check((text) => text === null || !hasControlCharacters(text), refusal('api.controlCharacters')),
  );

/**
 * The minutes an estimated time such as "5 min", "10 minutes" or "1 hour" names; null for a text that
 * names no single number of minutes ("2-5 min"), which readers then show as it is written.
 */
export function minutesOf(estimatedTime: string): number | null {
  const match = /^\s*(\d{1,4})\s*(m|mins?|minutes?|h|hrs?|hours?)?\s*$/i.exec(estimatedTime);
  if (!match) return null;
  const minutes = Number(match[1]) * (match[2]?.toLowerCase().startsWith('h') ? 60 : 1);
  return minutes >= 1 && minutes <= MAX_ESTIMATED_MINUTES ? minutes : null;
}

/** The English estimated time of a number of minutes, the spec's `estimatedTime` ("5 min"). */
export const estimatedTimeOf = (minutes: number) => `${minutes} min`;

/** A task's Hindi texts as the admin form sends them: each optional, empty means none. */
export const TaskHiEntries = v.object({
  title: OptionalText(refusal('task.title'), 120, 'title'),
  description: OptionalText(refusal('task.description'), 1000, 'description'),
  proofInstructions: OptionalText(refusal('api.proofInstructionsText'), 1000, 'proofInstructions'),
}, refusal('task.body'));

/** All Hindi texts empty: null, English only. */
const TaskHiInput = v.pipe(
  v.optional(v.nullable(TaskHiEntries), null),
  v.transform((hi): TaskHiTexts | null =>
    hi === null || (hi.title === null && hi.description === null && hi.proofInstructions === null) ? null : hi),
);

/** A whole number from 1 to `max`; absent or null: null. */
const OptionalWholeNumber = (max: number, message: string) =>
  v.optional(v.nullable(v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(max, message))), null);

/** A task's reward as the form sends it ("25", "25.50" or 25.5), in paise; zero is refused. */
export const TaskReward = v.pipe(
  RupeeAmount({ format: refusal('task.reward'), empty: refusal('task.rewardRequired') }),
  v.minValue(1, refusal('task.reward')),
);

/** Only web addresses: the client opens this in a new tab, so no `javascript:` or `data:` URLs. */
function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * The body of `POST /api/admin/tasks` and `PUT /api/admin/tasks/:id`. Missing fields
 * take the form's defaults; a field sent empty is an error where the spec requires it. The output
 * carries the reward as `rewardPaise`, the shape of the catalogue events.
 */
export const TaskInput = v.pipe(
  v.object({
    title: RequiredText(refusal('task.title'), 120, 'title'),
    description: RequiredText(refusal('task.description'), 1000, 'description'),
    rupeeReward: v.optional(TaskReward, TASK_DEFAULTS.rupeeReward),
    estimatedTime: v.optional(
      v.pipe(v.string(refusal('task.estimatedTime')), v.trim(), v.minLength(1, refusal('task.estimatedTime')), v.maxLength(30, refusal('api.textTooLong', { what: 'estimatedTime', max: 30 }))),
      TASK_DEFAULTS.estimatedTime,
    ),
    /** Wins over `estimatedTime`, which is then written from it ("5 min"). */
    estimatedMinutes: OptionalWholeNumber(MAX_ESTIMATED_MINUTES, refusal('task.estimatedMinutes')),
    /** The Hindi texts; absent or empty: English only. */
    hi: TaskHiInput,
    taskType: v.optional(v.picklist(TASK_TYPES, refusal('task.taskType')), TASK_DEFAULTS.taskType),
    taskUrl: v.pipe(
      OptionalText(refusal('task.taskUrl'), 2000, 'taskUrl'),
      v.check((url) => url === null || isWebUrl(url), refusal('task.taskUrl')),
    ),
    isActive: v.optional(v.boolean(refusal('task.boolean')), TASK_DEFAULTS.isActive),
    iconColor: v.optional(
      v.pipe(v.string(refusal('task.iconColor')), v.trim(), v.regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, refusal('task.iconColor'))),
      TASK_DEFAULTS.iconColor,
    ),
    requiresProof: v.optional(v.boolean(refusal('task.boolean')), TASK_DEFAULTS.requiresProof),
    proofInstructions: OptionalText(refusal('api.proofInstructionsText'), 1000, 'proofInstructions'),
    /** How many completions the task pays for; absent or null: no limit. */
    maxCompletions: OptionalWholeNumber(MAX_COMPLETIONS_LIMIT, refusal('task.maxCompletions')),
    /** The task's last day (IST, included); absent, null or empty: it does not end. */
    expiresOn: v.pipe(
      v.optional(v.nullable(v.string(refusal('task.expiresOn'))), null),
      v.transform((day) => (day === null ? null : day.trim() || null)),
      v.check((day) => day === null || isDay(day), refusal('task.expiresOn')),
    ),
  }, refusal('task.body')),
  v.transform(({ rupeeReward, expiresOn, estimatedMinutes, estimatedTime, ...rest }) => ({
    ...rest,
    estimatedTime: estimatedMinutes === null ? estimatedTime : estimatedTimeOf(estimatedMinutes),
    estimatedMinutes: estimatedMinutes ?? minutesOf(estimatedTime),
    rewardPaise: rupeeReward,
    expiresAt: expiresOn === null ? null : istDayEnd(expiresOn),
  })),
);
export type TaskInput = v.InferOutput<typeof TaskInput>;
/** What a client may send (before defaults), e.g. for typing the admin form. */
export type TaskInputRequest = v.InferInput<typeof TaskInput>;

/** One catalogue task, as `GET /api/tasks`, `GET /api/admin/tasks` and the admin commands answer. */
export const TaskBody = v.object({
  id: v.string(),
  title: v.string(),
  description: v.string(),
  /** Decimal string with two places, e.g. "25.00". */
  rupeeReward: v.string(),
  /** As the spec's clients read it: "5 min". */
  estimatedTime: v.string(),
  /** The same in whole minutes; null when the text names no single number ("2-5 min"). */
  estimatedMinutes: v.nullable(v.number()),
  taskType: TaskType,
  taskUrl: v.nullable(v.string()),
  isActive: v.boolean(),
  iconColor: v.string(),
  requiresProof: v.boolean(),
  proofInstructions: v.nullable(v.string()),
  /** The Hindi texts, each null where there is none (show the English); null: English only. */
  hi: v.nullable(TaskHiTexts),
  /** Null: no limit. */
  maxCompletions: v.nullable(v.number()),
  /** The first moment the task takes no proof (the end of its last IST day); null: no end. */
  expiresAt: v.nullable(v.string()),
  /** Proof submissions holding a slot (under review or approved). */
  slotsUsed: v.number(),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type TaskBody = v.InferOutput<typeof TaskBody>;

/** `POST /api/tasks/:id/start`: when the caller started the task (the first start; null only if none was recorded). */
export const TaskStartBody = v.strictObject({ taskId: v.string(), startedAt: v.nullable(v.string()) });
export type TaskStartBody = v.InferOutput<typeof TaskStartBody>;

/** `DELETE /api/admin/tasks/:id` answers this. */
export const DeletedTaskBody = v.object({ id: v.string(), deleted: v.literal(true) });
export type DeletedTaskBody = v.InferOutput<typeof DeletedTaskBody>;

/** The spec's user_tasks.status; `pending` is also what the client assumes when there is no record. */
export const USER_TASK_STATUSES = ['pending', 'submitted', 'approved', 'rejected', 'needs_changes'] as const;
export const UserTaskStatus = v.picklist(USER_TASK_STATUSES);
export type UserTaskStatus = v.InferOutput<typeof UserTaskStatus>;

/** How long after a rejection the person may appeal it. */
export const APPEAL_WINDOW_DAYS = 7;

export const APPEAL_STATUSES = ['open', 'upheld', 'overturned'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/** The appeal of a task's latest rejection, as its person sees it on the task. */
export const UserTaskAppeal = v.object({
  id: v.string(),
  status: v.picklist(APPEAL_STATUSES),
  openedAt: v.string(),
  /** The deciding reviewer's reason once upheld or overturned; null while open. */
  decisionReason: v.nullable(v.string()),
  decidedAt: v.nullable(v.string()),
});
export type UserTaskAppeal = v.InferOutput<typeof UserTaskAppeal>;

/**
 * One user's status for one task (`GET /api/user-tasks`, and the answer of submit-proof). A record
 * exists from the first submission on; no record means 'pending' (Not Started).
 */
export const UserTaskBody = v.object({
  /** Stable for this user and task: the id of the first submission. */
  id: v.string(),
  userId: v.string(),
  taskId: v.string(),
  status: UserTaskStatus,
  /** The latest submission, the one the review queue addresses. */
  submissionId: v.string(),
  /** The task's title and reward as they were at that submission (kept when the task is deleted). */
  taskTitle: v.string(),
  rupeeReward: v.string(),
  proofImageUrl: v.string(),
  proofDescription: v.string(),
  submittedAt: v.string(),
  /** When it was approved; null otherwise. */
  completedAt: v.nullable(v.string()),
  /** Decimal string with two places once approved; null otherwise. */
  rupeesEarned: v.nullable(v.string()),
  /** The reviewer's reason while the latest submission stands rejected; null otherwise. */
  rejectionReason: v.nullable(v.string()),
  /** When the latest submission was approved or rejected; null while under review. */
  reviewedAt: v.nullable(v.string()),
  /** While under review: when the system approves it if no reviewer has (null: auto-approval is off). */
  decideBy: v.optional(v.nullable(v.string())),
  /** While the latest submission needs changes: the reviewer's reason, and until when it may be sent again. */
  changesReason: v.optional(v.nullable(v.string())),
  resubmitBy: v.optional(v.nullable(v.string())),
  /** The latest submission's appeal, once one was made (it stays after the decision); null otherwise. */
  appeal: v.optional(v.nullable(UserTaskAppeal)),
  /** While the latest submission stands rejected and unappealed: until when it may be appealed (null once past). */
  appealBy: v.optional(v.nullable(v.string())),
});
export type UserTaskBody = v.InferOutput<typeof UserTaskBody>;

/** `POST /api/tasks/:id/submit-proof`. */
export const SubmitProofRequest = v.object({
  /** The `objectURL` answered by `POST /api/objects/upload`, after the PUT of the image. */
  proofImageUrl: v.pipe(
    v.optional(v.string(refusal('task.proofMissing')), ''),
    v.trim(),
    v.minLength(1, refusal('task.proofMissing')),
    v.maxLength(300, refusal('api.uploadFirst')),
  ),
  proofDescription: v.pipe(
    v.optional(v.string(refusal('task.proofMissing')), ''),
    v.trim(),
    v.minLength(1, refusal('task.proofMissing')),
    v.maxLength(PROOF_DESCRIPTION_MAX_LENGTH, refusal('task.proofTooLong')),
    noControlCharacters(),
  ),
}, refusal('task.body'));
export type SubmitProofRequest = v.InferOutput<typeof SubmitProofRequest>;

export const SUBMISSION_STATUSES = ['submitted', 'approved', 'rejected', 'needs_changes'] as const;
export const SubmissionStatus = v.picklist(SUBMISSION_STATUSES);
export type SubmissionStatus = v.InferOutput<typeof SubmissionStatus>;

/** `GET /api/admin/submissions?status=submitted` (the default). */
export const SubmissionsQuery = v.object({
  status: v.optional(v.picklist(SUBMISSION_STATUSES, refusal('api.submissionStatus')), 'submitted'),
});

/** One proof submission in the review queue, and the answer of approve and reject. */
export const SubmissionBody = v.object({
  id: v.string(),
  status: SubmissionStatus,
  taskId: v.string(),
  taskTitle: v.string(),
  /** The task's Hindi title; null when it has none, or its title changed since (show `taskTitle`). */
  taskTitleHi: v.nullable(v.string()),
  /** Null when the task has since been deleted. */
  taskType: v.nullable(TaskType),
  /** The reward this submission earns on approval (decimal string). */
  rupeeReward: v.string(),
  userId: v.string(),
  userName: v.string(),
  userMobile: v.string(),
  proofImageUrl: v.string(),
  proofDescription: v.string(),
  submittedAt: v.string(),
  reviewedAt: v.nullable(v.string()),
  reviewedBy: v.nullable(v.string()),
  rejectionReason: v.nullable(v.string()),
  ...proofFlagFields,
});
export type SubmissionBody = v.InferOutput<typeof SubmissionBody>;

/** `POST /api/admin/submissions/:id/reject`. */
export const RejectRequest = v.object({
  reason: v.pipe(v.optional(v.string(refusal('task.reason')), ''), v.trim(), v.minLength(1, refusal('task.reason')), v.maxLength(REJECT_REASON_MAX_LENGTH, refusal('review.reasonTooLong')), noControlCharacters()),
}, refusal('task.body'));
export type RejectRequest = v.InferOutput<typeof RejectRequest>;

/** `POST /api/admin/submissions/:id/request-changes`: a reason, canned or written, as a rejection's. */
export const RequestChangesRequest = RejectRequest;
export type RequestChangesRequest = RejectRequest;

/** How long a proof sent back for changes may be sent again before it lapses into a rejection. */
export const CHANGES_RESUBMIT_HOURS = 48;

/** The task list screens, and Home's and Categories' cards that lead to them. */
export const TASK_LISTS = ['rating', 'website', 'games'] as const;
export type TaskList = (typeof TASK_LISTS)[number];

const LIST_OF_TYPE: Record<TaskType, TaskList> = { rating: 'rating', website: 'website', game: 'games' };

/**
 * The one list a task shows in: the type its admin chose. Every task is in exactly one list, so the
 * counts on Home and Categories and the lists themselves agree.
 */
export function taskListOf(task: { taskType: TaskType }): TaskList {
  return LIST_OF_TYPE[task.taskType];
}

/** How many of these tasks each list shows: the active ones, by `taskListOf`. */
export function countTasksByList(tasks: readonly { taskType: TaskType; isActive: boolean }[]): Record<TaskList, number> {
  const counts: Record<TaskList, number> = { rating: 0, website: 0, games: 0 };
  for (const task of tasks) if (task.isActive) counts[taskListOf(task)] += 1;
  return counts;
}

/**
 * `POST /api/admin/submissions/bulk`: one decision for several submissions, each decided on its
 * own. An id given twice is decided once. A rejection needs its reason, as a single one does.
 */
export const BulkReviewRequest = v.pipe(
  v.object(
    {
      ids: v.pipe(
        v.array(v.pipe(v.string(refusal('review.bulkIds')), v.trim(), v.toLowerCase(), v.regex(UUID_PATTERN, refusal('review.bulkIds'))), refusal('review.bulkIds')),
        v.minLength(1, refusal('review.bulkIds')),
        v.maxLength(BULK_REVIEW_MAX, refusal('review.bulkIds')),
        v.transform((ids) => [...new Set(ids)]),
      ),
      decision: v.picklist(['approve', 'reject'], refusal('review.decision')),
      reason: v.pipe(
        v.optional(v.string(refusal('task.reason')), ''),
        v.trim(),
        v.maxLength(REJECT_REASON_MAX_LENGTH, refusal('review.reasonTooLong')),
        noControlCharacters(),
      ),
    },
    refusal('task.body'),
  ),
  v.forward(
    v.check((input) => input.decision !== 'reject' || input.reason.length > 0, refusal('task.reason')),
    ['reason'],
  ),
);
export type BulkReviewRequest = v.InferOutput<typeof BulkReviewRequest>;

/** What became of each submission of a bulk decision. */
export const BULK_REVIEW_RESULTS = ['approved', 'rejected', 'conflict', 'not_found', 'own_submission'] as const;
export type BulkReviewResult = (typeof BULK_REVIEW_RESULTS)[number];
export const BulkReviewBody = v.object({
  results: v.array(v.object({ id: v.string(), result: v.picklist(BULK_REVIEW_RESULTS) })),
});
export type BulkReviewBody = v.InferOutput<typeof BulkReviewBody>;

/** `GET /api/admin/task-figures`: per task, what its completions cost and how review goes. */
export const TaskFiguresBody = v.object({
  taskId: v.string(),
  slotsUsed: v.number(),
  /** Null: the task has no limit. */
  slotsLeft: v.nullable(v.number()),
  approvedCount: v.number(),
  rejectedCount: v.number(),
  underReviewCount: v.number(),
  /** Decimal strings: rewards credited, and rewards of proofs still under review. */
  approvedRupees: v.string(),
  underReviewRupees: v.string(),
  /** approved / (approved + rejected), 0..1; null before any decision. */
  approvalRate: v.nullable(v.number()),
  expiresAt: v.nullable(v.string()),
  expired: v.boolean(),
});
export type TaskFiguresBody = v.InferOutput<typeof TaskFiguresBody>;
