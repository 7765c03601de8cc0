import { i18n } from '../../i18n/index.ts';
import type { TaskType } from '@kamai/contracts';

/**
 * The three task categories of Home and /tasks/categories. Their words (title, blurb, time, the
 * count) live in a namespace of their own, `categories`, so Home fetches these and not every task text.
 */
export interface TaskCategory {
  type: TaskType;
  rewardRange: string;
  to: '/tasks/rating' | '/tasks/website' | '/tasks/games';
}

export const TASK_CATEGORIES: readonly TaskCategory[] = [
  { type: 'rating', rewardRange: '₹10-25', to: '/tasks/rating' },
  { type: 'website', rewardRange: '₹5-15', to: '/tasks/website' },
  { type: 'game', rewardRange: '₹15-50', to: '/tasks/games' },
];

/** "1 task", "3 tasks", in the reader's language. */
export const taskCount = (count: number) => i18n.t('categories:count', { count });
