import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { RejectRequest, SubmitProofRequest, TASK_MESSAGES, TaskInput, countTasksByList, minutesOf, taskListOf } from './tasks.ts';
import { refusalText } from './catalogue.ts';

const fieldsOf = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  if (result.success) return {};
  return Object.fromEntries(result.issues.map((issue) => [v.getDotPath(issue) ?? '_', refusalText(issue.message)]));
};

describe('TaskInput', () => {
  it('fills in the form defaults and carries the reward in paise', () => {
    expect(v.parse(TaskInput, { title: ' Visit MyGov ', description: 'Vote in a poll' })).toEqual({
      title: 'Visit MyGov',
      description: 'Vote in a poll',
      rewardPaise: 1000,
      estimatedTime: '5 min',
      estimatedMinutes: 5,
      hi: null,
      taskType: 'website',
      taskUrl: null,
      isActive: true,
      iconColor: '#3B82F6',
      requiresProof: true,
      proofInstructions: null,
      maxCompletions: null,
      expiresAt: null,
    });
  });

  it('reads rupees from strings and numbers without float arithmetic', () => {
    for (const [input, paise] of [['25', 2500], ['25.5', 2550], ['0.01', 1], [19.99, 1999], ['99999999.99', 9_999_999_999]] as const) {
      expect(v.parse(TaskInput, { title: 't', description: 'd', rupeeReward: input }).rewardPaise).toBe(paise);
    }
  });

  it('refuses a reward that is empty, zero, negative, over two decimals or too large', () => {
    expect(fieldsOf(TaskInput, { title: 't', description: 'd', rupeeReward: '' })).toEqual({ rupeeReward: TASK_MESSAGES.rewardRequired });
    for (const rupeeReward of ['0', 0, '-1', '1.001', '1e2', 'abc', '100000000', null, true]) {
      expect(fieldsOf(TaskInput, { title: 't', description: 'd', rupeeReward })).toEqual({ rupeeReward: TASK_MESSAGES.reward });
    }
  });

  it('requires title and description, and accepts only web URLs', () => {
    expect(fieldsOf(TaskInput, {})).toEqual({ title: TASK_MESSAGES.title, description: TASK_MESSAGES.description });
    for (const taskUrl of ['nope', 'javascript:alert(1)', 'data:text/html,x', 'ftp://x.in']) {
      expect(fieldsOf(TaskInput, { title: 't', description: 'd', taskUrl })).toEqual({ taskUrl: TASK_MESSAGES.taskUrl });
    }
    expect(v.parse(TaskInput, { title: 't', description: 'd', taskUrl: ' https://www.irctc.co.in ' }).taskUrl).toBe('https://www.irctc.co.in');
  });
});

describe('SubmitProofRequest and RejectRequest', () => {
  it('requires an image and a trimmed description of at most 500 characters', () => {
    expect(fieldsOf(SubmitProofRequest, {})).toEqual({ proofImageUrl: TASK_MESSAGES.proofMissing, proofDescription: TASK_MESSAGES.proofMissing });
    expect(fieldsOf(SubmitProofRequest, { proofImageUrl: '/objects/x', proofDescription: 'a'.repeat(501) })).toEqual({ proofDescription: TASK_MESSAGES.proofTooLong });
    expect(v.parse(SubmitProofRequest, { proofImageUrl: '/objects/x', proofDescription: '  done  ' }).proofDescription).toBe('done');
  });

  it('requires a reason to reject', () => {
    expect(fieldsOf(RejectRequest, { reason: '  ' })).toEqual({ reason: TASK_MESSAGES.reason });
    expect(v.parse(RejectRequest, { reason: ' blurry ' })).toEqual({ reason: 'blurry' });
  });
});

describe('the task lists', () => {
  it('puts each task in the one list of its type', () => {
    expect(taskListOf({ taskType: 'rating' })).toBe('rating');
    expect(taskListOf({ taskType: 'website' })).toBe('website');
    expect(taskListOf({ taskType: 'game' })).toBe('games');
  });

  it('counts the active tasks of each list', () => {
    expect(
      countTasksByList([
        { taskType: 'rating', isActive: true },
        { taskType: 'rating', isActive: true },
        { taskType: 'game', isActive: true },
        { taskType: 'website', isActive: false },
      ]),
    ).toEqual({ rating: 2, website: 0, games: 1 });
  });
});

describe('minutesOf', () => {
  it('reads the minutes of the times admins wrote before minutes existed; none for a range or words', () => {
    expect(['5 min', '10 minutes', '3m', '1 hour', '2 hrs', ' 7 '].map(minutesOf)).toEqual([5, 10, 3, 60, 120, 7]);
    expect(['2-5 min', 'a short while', '0 min', '5000 min', ''].map(minutesOf)).toEqual([null, null, null, null, null]);
  });
});
