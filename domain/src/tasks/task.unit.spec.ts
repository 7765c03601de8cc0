import { describe, it } from 'vitest';
import type { TaskCatalogueEvent } from '@kamai/contracts';
import { deciderSpec } from '../testing/spec.ts';
import { type TaskCommand, type TaskFields, type TaskState, decideTask, taskEvolver } from './task.ts';

const now = '2026-11-21T10:00:00.000Z';
const later = '2026-11-21T11:00:00.000Z';
const spec = deciderSpec<TaskState, TaskCatalogueEvent, TaskCommand>(taskEvolver, decideTask);

const fields: TaskFields = {
  title: 'Rate PhonePe on Google Play',
  description: 'Give an honest star rating and a one-line review.',
  rewardPaise: 1500,
  estimatedTime: '3 min',
  estimatedMinutes: 3,
  taskType: 'rating',
  taskUrl: 'https://play.google.com/store/apps/details?id=com.phonepe.app',
  isActive: true,
  iconColor: '#3B82F6',
  requiresProof: true,
  proofInstructions: 'Screenshot of your published review',
  hi: null,
  maxCompletions: null,
  expiresAt: null,
};
const created: TaskCatalogueEvent = { type: 'TaskCreated', data: { taskId: 't1', ...fields, createdBy: 'admin', createdAt: now } };
const deleted: TaskCatalogueEvent = { type: 'TaskDeleted', data: { taskId: 't1', deletedBy: 'admin', deletedAt: later } };

describe('task catalogue decider', () => {
  it('creates a task with every field', () => {
    spec.given([]).when({ type: 'CreateTask', data: { taskId: 't1', fields, by: 'admin' }, now }).then([created]);
  });

  it('refuses to create a task that already exists', () => {
    spec.given([created]).when({ type: 'CreateTask', data: { taskId: 't1', fields, by: 'admin' }, now }).thenFails('conflict');
  });

  it('refuses a reward that is not a positive whole number of paise', () => {
    for (const rewardPaise of [0, -100, 12.5]) {
      spec
        .given([])
        .when({ type: 'CreateTask', data: { taskId: 't1', fields: { ...fields, rewardPaise }, by: 'admin' }, now })
        .thenFails('invalid', /positive rupee amount/);
    }
  });

  it('refuses a reward above the limit in force (₹500 by default)', () => {
    const create = (rewardPaise: number, maxRewardPaise?: number) => ({
      type: 'CreateTask' as const,
      data: { taskId: 't1', fields: { ...fields, rewardPaise }, by: 'admin', ...(maxRewardPaise !== undefined && { maxRewardPaise }) },
      now,
    });
    spec.given([]).when(create(50_001)).thenFails('invalid', /at most ₹500.00/);
    spec.given([]).when(create(9_999_999_999)).thenFails('invalid', /at most ₹500.00/);
    spec.given([]).when(create(20_001, 20_000)).thenFails('invalid', /at most ₹200.00/);
    spec.given([created]).when({ type: 'UpdateTask', data: { taskId: 't1', fields: { ...fields, rewardPaise: 60_000 }, by: 'admin' }, now }).thenFails('invalid');
  });

  it('updates a task with the whole new set of fields', () => {
    const changed = { ...fields, rewardPaise: 2000, isActive: false };
    spec
      .given([created])
      .when({ type: 'UpdateTask', data: { taskId: 't1', fields: changed, by: 'admin2' }, now: later })
      .then([{ type: 'TaskUpdated', data: { taskId: 't1', ...changed, updatedBy: 'admin2', updatedAt: later } }]);
  });

  it('records nothing when the form is saved unchanged', () => {
    spec.given([created]).when({ type: 'UpdateTask', data: { taskId: 't1', fields: { ...fields }, by: 'admin' }, now: later }).then([]);
  });

  it('an edit of only the Hindi texts is recorded; saving the same Hindi again is not', () => {
    const hi = { title: 'PhonePe को रेटिंग दें', description: null, proofInstructions: null };
    const withHi = { ...fields, hi };
    spec
      .given([created])
      .when({ type: 'UpdateTask', data: { taskId: 't1', fields: withHi, by: 'admin' }, now: later })
      .then([{ type: 'TaskUpdated', data: { taskId: 't1', ...withHi, updatedBy: 'admin', updatedAt: later } }]);
    const updated: TaskCatalogueEvent = { type: 'TaskUpdated', data: { taskId: 't1', ...withHi, updatedBy: 'admin', updatedAt: later } };
    spec.given([created, updated]).when({ type: 'UpdateTask', data: { taskId: 't1', fields: { ...fields, hi: { ...hi } }, by: 'admin' }, now: later }).then([]);
  });

  it('an older event without minutes or Hindi reads its minutes from its estimated time', () => {
    const { estimatedMinutes: _minutes, hi: _hi, ...older } = fields;
    const old: TaskCatalogueEvent = { type: 'TaskCreated', data: { taskId: 't1', ...older, estimatedTime: '10 min', createdBy: 'admin', createdAt: now } };
    spec.given([old]).when({ type: 'UpdateTask', data: { taskId: 't1', fields: { ...fields, estimatedTime: '10 min', estimatedMinutes: 10 }, by: 'admin' }, now: later }).then([]);
  });

  it('refuses to update a task that does not exist or was deleted (404)', () => {
    spec.given([]).when({ type: 'UpdateTask', data: { taskId: 't1', fields, by: 'admin' }, now }).thenFails('not_found', /Task not found/);
    spec.given([created, deleted]).when({ type: 'UpdateTask', data: { taskId: 't1', fields, by: 'admin' }, now }).thenFails('not_found');
  });

  it('deletes a task once', () => {
    spec.given([created]).when({ type: 'DeleteTask', data: { taskId: 't1', by: 'admin' }, now: later }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteTask', data: { taskId: 't1', by: 'admin' }, now: later }).thenFails('not_found');
    spec.given([]).when({ type: 'DeleteTask', data: { taskId: 't1', by: 'admin' }, now }).thenFails('not_found');
  });

  it('does not let a deleted task be created again under the same id', () => {
    spec.given([created, deleted]).when({ type: 'CreateTask', data: { taskId: 't1', fields, by: 'admin' }, now }).thenFails('conflict');
  });
});

describe('task completion slots', () => {
  const limited = (maxCompletions: number, expiresAt: string | null = null): TaskCatalogueEvent => ({
    type: 'TaskCreated',
    data: { taskId: 't1', ...fields, maxCompletions, expiresAt, createdBy: 'admin', createdAt: now },
  });
  const take = (submissionId: string, at = now): TaskCommand => ({ type: 'TakeSlot', data: { taskId: 't1', submissionId, userId: `u-${submissionId}` }, now: at });
  const taken = (submissionId: string): TaskCatalogueEvent => ({
    type: 'TaskSlotTaken',
    data: { taskId: 't1', submissionId, userId: `u-${submissionId}`, takenAt: now },
  });
  const released = (submissionId: string): TaskCatalogueEvent => ({
    type: 'TaskSlotReleased',
    data: { taskId: 't1', submissionId, why: 'rejected', releasedAt: now },
  });

  it('a submission takes a free slot', () => {
    spec.given([limited(2), taken('s1')]).when(take('s2')).then([taken('s2')]);
  });

  it('a task without a limit always has a slot', () => {
    spec.given([created, taken('s1'), taken('s2')]).when(take('s3')).then([taken('s3')]);
  });

  it('refuses a submission once every slot is taken (task_full)', () => {
    spec.given([limited(2), taken('s1'), taken('s2')]).when(take('s3')).thenFails('conflict', /no places left/);
  });

  it('a rejection gives its slot back, an approval keeps it', () => {
    spec.given([limited(2), taken('s1'), taken('s2'), released('s1')]).when(take('s3')).then([taken('s3')]);
  });

  it('taking the same slot twice records nothing', () => {
    spec.given([limited(1), taken('s1')]).when(take('s1')).then([]);
  });

  it('refuses a submission from the task\'s end on (task_expired)', () => {
    spec.given([limited(5, later)]).when(take('s1', later)).thenFails('conflict', /ended/);
    spec.given([limited(5, later)]).when(take('s1', now)).then([taken('s1')]);
  });

  it('refuses a slot of an inactive or deleted task', () => {
    spec.given([{ type: 'TaskCreated', data: { taskId: 't1', ...fields, isActive: false, createdBy: 'admin', createdAt: now } }]).when(take('s1')).thenFails('conflict');
    spec.given([created, deleted]).when(take('s1')).thenFails('not_found');
  });

  it('releases a held slot once, and nothing for a slot it does not hold', () => {
    const release = (submissionId: string): TaskCommand => ({ type: 'ReleaseSlot', data: { taskId: 't1', submissionId, why: 'rejected' }, now });
    spec.given([limited(2), taken('s1')]).when(release('s1')).then([released('s1')]);
    spec.given([limited(2), taken('s1'), released('s1')]).when(release('s1')).then([]);
    spec.given([limited(2)]).when(release('s9')).then([]);
  });
});
