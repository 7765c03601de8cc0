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
  taskType: 'rating',
  taskUrl: 'https://play.google.com/store/apps/details?id=com.phonepe.app',
  isActive: true,
  iconColor: '#3B82F6',
  requiresProof: true,
  proofInstructions: 'Screenshot of your published review',
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
