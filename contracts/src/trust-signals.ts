import * as v from 'valibot';

/** The window the task signals look back over. */
export const TASK_SIGNAL_DAYS = 30;

/**
 * How a task's proofs have been reviewed lately (GET /api/task-signals): what a worker weighs before
 * spending time on it. Only tasks with a decision in the window are listed.
 */
export const TaskSignalBody = v.object({
  taskId: v.string(),
  /** Proofs decided (approved or rejected) in the last TASK_SIGNAL_DAYS days. */
  decisions: v.number(),
  /** The median time from proof to decision over those, in whole minutes (at least 1). */
  medianReviewMinutes: v.number(),
  /** The share of those approved, as a whole percentage. */
  approvalPercent: v.number(),
});
export type TaskSignalBody = v.InferOutput<typeof TaskSignalBody>;
