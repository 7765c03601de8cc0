import type { TaskType } from '@kamai/contracts';

/** The three task categories of Home and /tasks/categories (spec sections 2 and 9). */
export interface TaskCategory {
  type: TaskType;
  title: string;
  blurb: string;
  rewardRange: string;
  time: string;
  to: '/tasks/rating' | '/tasks/website' | '/tasks/games';
  /** The static count of /tasks/categories. */
  staticCount: string;
}

export const TASK_CATEGORIES: readonly TaskCategory[] = [
  {
    type: 'rating',
    title: 'Rating Tasks',
    blurb: 'Rate apps and services',
    rewardRange: '₹10-25',
    time: '2-5 min',
    to: '/tasks/rating',
    staticCount: '5+ tasks',
  },
  {
    type: 'website',
    title: 'Website Visit Tasks',
    blurb: 'Visit websites and complete simple actions',
    rewardRange: '₹5-15',
    time: '1-3 min',
    to: '/tasks/website',
    staticCount: '8+ tasks',
  },
  {
    type: 'game',
    title: 'Gaming Tasks',
    blurb: 'Download and play games',
    rewardRange: '₹15-50',
    time: '5-15 min',
    to: '/tasks/games',
    staticCount: '10+ tasks',
  },
];

/** "1 task", "3 tasks". */
export const taskCount = (count: number) => `${count} ${count === 1 ? 'task' : 'tasks'}`;
