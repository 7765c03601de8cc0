import { describe, expect, it } from 'vitest';
import { TASK_LISTS, countTasksByList } from '@kamai/contracts';
import type { TaskType } from '@kamai/contracts';
import { canSubmitProof, statusOf, tasksForList } from './filters.ts';

const task = (taskType: TaskType, title: string, description = 'Earn rupees') => ({ taskType, title, description });

describe('tasksForList', () => {
  const tasks = [
    { id: 'a', ...task('rating', 'Rate our app') },
    { id: 'b', ...task('website', 'Visit our site') },
    { id: 'c', ...task('game', 'Play Ludo') },
    { id: 'd', ...task('website', 'Write a review of our website') },
    { id: 'e', ...task('rating', 'Rate this game') },
  ];

  it('keeps the API order and puts each task in the one list of its type, whatever its words', () => {
    expect(tasksForList(tasks, 'rating').map((t) => t.id)).toEqual(['a', 'e']);
    expect(tasksForList(tasks, 'website').map((t) => t.id)).toEqual(['b', 'd']);
    expect(tasksForList(tasks, 'games').map((t) => t.id)).toEqual(['c']);
  });

  it('lists as many tasks as the cards count', () => {
    const active = tasks.map((one) => ({ ...one, isActive: true }));
    const counts = countTasksByList(active);
    for (const list of TASK_LISTS) expect(tasksForList(active, list)).toHaveLength(counts[list]);
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
