import { describe, expect, it } from 'vitest';
import type { TaskType } from '@kamai/contracts';
import { canSubmitProof, countActiveByType, isGamingTask, isRatingTask, isWebsiteTask, statusOf, tasksForList } from './filters.ts';

const task = (taskType: TaskType, title: string, description = 'Earn rupees') => ({ taskType, title, description });

describe('the Rating Tasks list', () => {
  it('takes every rating task, whatever its words', () => {
    expect(isRatingTask(task('rating', 'Play our new game'))).toBe(true);
  });

  it('takes other tasks that mention rate or review in the title or description', () => {
    expect(isRatingTask(task('website', 'Rate our shop'))).toBe(true);
    expect(isRatingTask(task('website', 'Shop', 'Leave a 5-star rating'))).toBe(true);
    expect(isRatingTask(task('website', 'Shop', 'Write a REVIEW of the checkout'))).toBe(true);
    expect(isRatingTask(task('website', 'Reviews wanted'))).toBe(true);
  });

  it('leaves out tasks that mention a game, and words that only contain "rate"', () => {
    expect(isRatingTask(task('game', 'Rate this game'))).toBe(false);
    expect(isRatingTask(task('website', 'Review the site', 'It is about gaming'))).toBe(false);
    expect(isRatingTask(task('website', 'Separate the accurate answers'))).toBe(false);
    expect(isRatingTask(task('website', 'Visit our website'))).toBe(false);
  });
});

describe('the Website Visit Tasks list', () => {
  it('takes every website task, even one that mentions a game', () => {
    expect(isWebsiteTask(task('website', 'Read about our game'))).toBe(true);
  });

  it('takes other tasks that mention visit, website or browse', () => {
    expect(isWebsiteTask(task('rating', 'Our website needs you'))).toBe(true);
    expect(isWebsiteTask(task('rating', 'Shop', 'Browse three pages'))).toBe(true);
    expect(isWebsiteTask(task('rating', 'Visit the store'))).toBe(true);
    expect(isWebsiteTask(task('rating', 'Store', 'Visiting takes a minute'))).toBe(true);
  });

  it('leaves out any that mention a game', () => {
    expect(isWebsiteTask(task('game', 'Visit the game website'))).toBe(false);
    expect(isWebsiteTask(task('rating', 'Browse games', 'Pick one'))).toBe(false);
  });

  it('does not count "visit" when the task also mentions rate, but still counts website and browse', () => {
    expect(isWebsiteTask(task('rating', 'Visit and rate the app'))).toBe(false);
    expect(isWebsiteTask(task('rating', 'Visit the store', 'Then rate it'))).toBe(false);
    expect(isWebsiteTask(task('rating', 'Rate our website'))).toBe(true);
    expect(isWebsiteTask(task('rating', 'Browse, then rate'))).toBe(true);
  });

  it('leaves out a plain rating task', () => {
    expect(isWebsiteTask(task('rating', 'Rate our app on the Play Store'))).toBe(false);
  });
});

describe('the Gaming Tasks list', () => {
  it('takes game tasks only, by type', () => {
    expect(isGamingTask(task('game', 'Reach level 5'))).toBe(true);
    expect(isGamingTask(task('website', 'Play a game in the browser'))).toBe(false);
    expect(isGamingTask(task('rating', 'Rate this game'))).toBe(false);
  });
});

describe('tasksForList', () => {
  const tasks = [
    { id: 'a', ...task('rating', 'Rate our app') },
    { id: 'b', ...task('website', 'Visit our site') },
    { id: 'c', ...task('game', 'Play Ludo') },
    { id: 'd', ...task('website', 'Write a review of our website') },
  ];

  it('keeps the API order and lets a task sit in two lists', () => {
    expect(tasksForList(tasks, 'rating').map((t) => t.id)).toEqual(['a', 'd']);
    expect(tasksForList(tasks, 'website').map((t) => t.id)).toEqual(['b', 'd']);
    expect(tasksForList(tasks, 'games').map((t) => t.id)).toEqual(['c']);
  });
});

describe('countActiveByType', () => {
  it('counts the active tasks of each type', () => {
    expect(
      countActiveByType([
        { taskType: 'rating', isActive: true },
        { taskType: 'rating', isActive: true },
        { taskType: 'game', isActive: true },
        { taskType: 'website', isActive: false },
      ]),
    ).toEqual({ rating: 2, website: 0, game: 1 });
  });
});

describe('a user’s status for a task', () => {
  it('is the record’s status, or pending when there is no record', () => {
    const records = [{ taskId: 't1', status: 'approved' as const }];
    expect(statusOf('t1', records)).toBe('approved');
    expect(statusOf('t2', records)).toBe('pending');
    expect(statusOf('t1', undefined)).toBe('pending');
  });

  it('allows a proof when the task requires one and is pending or rejected', () => {
    expect(canSubmitProof({ requiresProof: true }, 'pending')).toBe(true);
    expect(canSubmitProof({ requiresProof: true }, 'rejected')).toBe(true);
    expect(canSubmitProof({ requiresProof: true }, 'submitted')).toBe(false);
    expect(canSubmitProof({ requiresProof: true }, 'approved')).toBe(false);
    expect(canSubmitProof({ requiresProof: false }, 'pending')).toBe(false);
  });
});
