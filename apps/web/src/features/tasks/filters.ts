import type { TaskBody, TaskType, UserTaskBody, UserTaskStatus } from '@kamai/contracts';

/**
 * Which tasks each list screen shows. A list takes the tasks of
 * its type, and the rating and website lists also take tasks whose words say they belong there:
 *
 * - Rating: taskType rating, or the title or description mentions "rate" or "review" without the
 *   word "game".
 * - Website: taskType website, or the title or description mentions "visit", "website" or
 *   "browse", never when it mentions "game", and "visit" only counts when "rate" is not mentioned.
 * - Gaming: taskType game only.
 *
 * "Mentions" means the word, in any case and its usual forms, at the start of a word in the title
 * or the description: "Rate", "rated" and "rating" mention rate, "reviews" mentions review, "browsing"
 * mentions browse, "gaming" mentions game; "accurate" or "separate" do not mention rate. A task can be
 * in more than one list (e.g. a website task that asks for a review).
 */

export type TaskList = 'rating' | 'website' | 'games';

type ListedTask = Pick<TaskBody, 'taskType' | 'title' | 'description'>;

const WORDS = {
  rate: /\brat(?:e|es|ed|ing|ings)\b/i,
  review: /\breview/i,
  visit: /\bvisit/i,
  website: /\bwebsite/i,
  browse: /\bbrows(?:e|es|ed|ing)\b/i,
  game: /\bgam(?:e|es|ing|eplay)\b/i,
} as const;

type Word = keyof typeof WORDS;

function mentions(task: ListedTask, ...wanted: Word[]): boolean {
  return wanted.some((word) => WORDS[word].test(task.title) || WORDS[word].test(task.description));
}

export function isRatingTask(task: ListedTask): boolean {
  if (task.taskType === 'rating') return true;
  return mentions(task, 'rate', 'review') && !mentions(task, 'game');
}

export function isWebsiteTask(task: ListedTask): boolean {
  if (task.taskType === 'website') return true;
  if (mentions(task, 'game')) return false;
  return mentions(task, 'website', 'browse') || (mentions(task, 'visit') && !mentions(task, 'rate'));
}

export function isGamingTask(task: ListedTask): boolean {
  return task.taskType === 'game';
}

const belongsTo: Record<TaskList, (task: ListedTask) => boolean> = {
  rating: isRatingTask,
  website: isWebsiteTask,
  games: isGamingTask,
};

/** The tasks of one list screen, in the order the API gave them. */
export function tasksForList<T extends ListedTask>(tasks: readonly T[], list: TaskList): T[] {
  return tasks.filter(belongsTo[list]);
}

/** Home's live counts: the active tasks of each type (by taskType alone). */
export function countActiveByType(tasks: readonly Pick<TaskBody, 'taskType' | 'isActive'>[]): Record<TaskType, number> {
  const counts: Record<TaskType, number> = { rating: 0, website: 0, game: 0 };
  for (const task of tasks) {
    if (task.isActive) counts[task.taskType] += 1;
  }
  return counts;
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
} as const satisfies Record<UserTaskStatus, string>;

/** The upload form shows with no submission, or while the task is pending or rejected. */
export const canSubmitProof = (task: Pick<TaskBody, 'requiresProof'>, status: UserTaskStatus): boolean =>
  task.requiresProof && (status === 'pending' || status === 'rejected');
