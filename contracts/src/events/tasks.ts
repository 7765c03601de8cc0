import * as v from 'valibot';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const PositivePaise = v.pipe(v.number(), v.integer(), v.minValue(1));

/** The spec's three task categories. */
export const TASK_TYPES = ['rating', 'website', 'game'] as const;
export const TaskType = v.picklist(TASK_TYPES);
export type TaskType = v.InferOutput<typeof TaskType>;

/**
 * A task's texts in Hindi; each null where the admin gave none (the reader then sees the English).
 * Optional on the events: a task created before Hindi texts existed has none, so no new schema version.
 */
export const TaskHiTexts = v.object({
  title: v.nullable(v.string()),
  description: v.nullable(v.string()),
  proofInstructions: v.nullable(v.string()),
});
export type TaskHiTexts = v.InferOutput<typeof TaskHiTexts>;

/** Every field of a catalogue task, as the admin sets it. Reward in paise. */
const taskFields = {
  title: v.string(),
  description: v.string(),
  rewardPaise: PositivePaise,
  estimatedTime: v.string(),
  /** The estimated time in whole minutes; absent on older events (then read from `estimatedTime`). */
  estimatedMinutes: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  /** Absent or null: English only. */
  hi: v.optional(v.nullable(TaskHiTexts)),
  taskType: TaskType,
  taskUrl: v.nullable(v.string()),
  isActive: v.boolean(),
  iconColor: v.string(),
  requiresProof: v.boolean(),
  proofInstructions: v.nullable(v.string()),
  /** How many completions the task pays for; absent or null: no limit (events before limits existed). */
  maxCompletions: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  /** From this moment the task takes no more proof; absent or null: it does not expire. */
  expiresAt: v.optional(v.nullable(IsoTime)),
};

/**
 * The admin's task catalogue, one `task-<id>` stream per task. Created and updated events carry the
 * whole task, so a reader never needs an earlier event to know the current fields.
 */
export const taskCatalogueEvents = {
  TaskCreated: v.object({ taskId: v.string(), ...taskFields, createdBy: v.string(), createdAt: IsoTime }),
  TaskUpdated: v.object({ taskId: v.string(), ...taskFields, updatedBy: v.string(), updatedAt: IsoTime }),
  /** The task leaves the catalogue; submissions, approvals and credits made for it stay as they are. */
  TaskDeleted: v.object({ taskId: v.string(), deletedBy: v.string(), deletedAt: IsoTime }),
  /**
   * A proof submission holds one of the task's completion slots. Taken on the task's own stream
   * before the proof is recorded on the user's, so the stream's revision serialises every taker and
   * a limited task never pays for more completions than it says.
   */
  TaskSlotTaken: v.object({ taskId: v.string(), submissionId: v.string(), userId: v.string(), takenAt: IsoTime }),
  /** The slot is free again: its proof was rejected, or it was never recorded. */
  TaskSlotReleased: v.object({
    taskId: v.string(),
    submissionId: v.string(),
    why: v.picklist(['rejected', 'not_submitted']),
    releasedAt: IsoTime,
  }),
};

/**
 * Proof submission and review, on the user's own `user-<id>` stream, so an approval and the credit it
 * causes are one atomic append guarded by that stream's revision.
 */
export const userTaskEvents = {
  /** The user tapped Start on a task: the time to proof is measured from here. */
  TaskStarted: v.object({ taskId: v.string(), startedAt: IsoTime }),
  ProofSubmitted: v.object({
    submissionId: v.string(),
    taskId: v.string(),
    /** The task as it was when the proof came in: the reward credited on approval is this one. */
    taskTitle: v.string(),
    rewardPaise: PositivePaise,
    /** The object address from `POST /api/objects/upload` (`/objects/uploads/<userId>/<uuid>`). */
    proofImageUrl: v.string(),
    proofDescription: v.string(),
    submittedAt: IsoTime,
    /**
     * The picture's 64-bit difference hash (16 hex digits), for the review queue's near-duplicate
     * flag; absent on proofs from before it was taken.
     */
    proofDhash: v.optional(v.string()),
    /** When the user tapped Start on the task, if they did: the review queue's time to proof. */
    startedAt: v.optional(v.nullable(IsoTime)),
  }),
  ProofApproved: v.object({
    submissionId: v.string(),
    taskId: v.string(),
    reviewedBy: v.string(),
    /** What the approval credited (the same amount is in the WalletCredited appended with it). */
    rewardPaise: PositivePaise,
    approvedAt: IsoTime,
  }),
  ProofRejected: v.object({
    submissionId: v.string(),
    taskId: v.string(),
    reviewedBy: v.string(),
    reason: v.string(),
    /** The canned reason it was (REASON_OTHER when written by hand), plain for statistics: the text itself is sealed. Absent on older events. */
    reasonCode: v.optional(v.string()),
    rejectedAt: IsoTime,
  }),
  /** A reviewer sent the proof back: it may be sent again (same submission, same slot) until `resubmitBy`, then it lapses into a rejection. */
  ProofChangesRequested: v.object({
    submissionId: v.string(),
    taskId: v.string(),
    reviewedBy: v.string(),
    reason: v.string(),
    reasonCode: v.string(),
    requestedAt: IsoTime,
    resubmitBy: IsoTime,
  }),
  /** The person sent a proof again after a change request: the same submission is under review anew. */
  ProofResubmitted: v.object({
    submissionId: v.string(),
    taskId: v.string(),
    proofImageUrl: v.string(),
    proofDescription: v.string(),
    proofDhash: v.optional(v.string()),
    resubmittedAt: IsoTime,
  }),
  /** The person appealed a rejection (once, within APPEAL_WINDOW_DAYS); `rejectedBy` may not decide it. */
  AppealOpened: v.object({
    appealId: v.string(),
    submissionId: v.string(),
    taskId: v.string(),
    rejectedBy: v.string(),
    note: v.string(),
    proofImageUrl: v.nullable(v.string()),
    openedAt: IsoTime,
  }),
  /** Another reviewer decided it; an overturn is followed by ProofApproved and its credit in the same append. */
  AppealDecided: v.object({
    appealId: v.string(),
    submissionId: v.string(),
    decision: v.picklist(['uphold', 'overturn']),
    decidedBy: v.string(),
    reason: v.string(),
    decidedAt: IsoTime,
  }),
};
