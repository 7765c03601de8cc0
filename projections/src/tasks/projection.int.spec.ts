import type { KamaiEvent } from '@kamai/contracts';
import { describe, it } from 'vitest';
import { projectionSpec } from '../testing.ts';
import { tasksProjection } from './projection.ts';
import { listActiveTasks, listCatalogueTasks } from './queries.ts';

const at = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`;
const fields = {
  title: 'Rate the Swiggy app', description: 'Give an honest rating', rewardPaise: 2500, estimatedTime: '2 min', taskType: 'rating' as const,
  taskUrl: 'https://play.google.com/store/apps/details?id=in.swiggy.android', isActive: true, iconColor: 'orange', requiresProof: true,
  proofInstructions: 'A screenshot of your rating',
};
const created = (taskId: string, minute: number, extra: Partial<typeof fields> = {}): { stream: string; event: KamaiEvent } => ({
  stream: `task-${taskId}`,
  event: { type: 'TaskCreated', data: { taskId, ...fields, ...extra, createdBy: 'admin', createdAt: at(minute) } },
});

const spec = projectionSpec(tasksProjection);

describe('tasks read model', () => {
  it('given a created task, then its catalogue row', () =>
    spec.given([created('t1', 0)]).then({
      tasks: [
        {
          id: 't1', title: 'Rate the Swiggy app', reward_paise: 2500, task_type: 'rating', is_active: 1, requires_proof: 1,
          icon_color: 'orange', proof_instructions: 'A screenshot of your rating', created_at: at(0), updated_at: at(0), deleted_at: null, position: 1,
        },
      ],
    }));

  it('given an update, then every catalogue column changes and the creation time and order stay', () =>
    spec
      .given([
        created('t1', 0),
        created('t2', 1),
        { stream: 'task-t1', event: { type: 'TaskUpdated', data: { taskId: 't1', ...fields, title: 'Rate Swiggy', rewardPaise: 3000, isActive: false, requiresProof: false, proofInstructions: null, updatedBy: 'admin', updatedAt: at(5) } } },
      ])
      .then({
        tasks: [
          { id: 't1', title: 'Rate Swiggy', reward_paise: 3000, is_active: 0, requires_proof: 0, proof_instructions: null, created_at: at(0), updated_at: at(5), position: 1 },
          { id: 't2', title: 'Rate the Swiggy app', is_active: 1, position: 2 },
        ],
      }));

  it('given Hindi texts and minutes, then their columns; an older event without them has minutes read from its text', async () => {
    const hi = { title: 'Swiggy को रेटिंग दें', description: null, proofInstructions: 'रेटिंग का स्क्रीनशॉट' };
    const given = spec.given([
      created('old', 0, { estimatedTime: '10 min' }),
      { stream: 'task-t1', event: { type: 'TaskCreated', data: { taskId: 't1', ...fields, estimatedMinutes: 2, hi, createdBy: 'admin', createdAt: at(1) } } },
    ]);
    await given.then({
      tasks: [
        { id: 'old', estimated_minutes: 10, title_hi: null, description_hi: null, proof_instructions_hi: null },
        { id: 't1', estimated_minutes: 2, title_hi: hi.title, description_hi: null, proof_instructions_hi: hi.proofInstructions },
      ],
    });
    await given.thenQuery(async (db) => (await listActiveTasks(db)).map((t) => [t.id, t.estimatedMinutes, t.hi]), [['t1', 2, hi], ['old', 10, null]]);
  });

  it('given a deletion, then the row stays marked, and users and admins no longer list it', async () => {
    const given = spec.given([
      created('t1', 0),
      created('t2', 1, { isActive: false }),
      created('t3', 2),
      { stream: 'task-t3', event: { type: 'TaskDeleted', data: { taskId: 't3', deletedBy: 'admin', deletedAt: at(9) } } },
    ]);
    await given.then({ tasks: [{ id: 't1', deleted_at: null }, { id: 't2', deleted_at: null }, { id: 't3', deleted_at: at(9), updated_at: at(9) }] });
    await given.thenQuery(async (db) => (await listActiveTasks(db)).map((t) => t.id), ['t1']);
    await given.thenQuery(async (db) => (await listCatalogueTasks(db)).map((t) => [t.id, t.isActive]), [['t2', false], ['t1', true]]);
  });
});
