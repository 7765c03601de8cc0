import type { WorkflowEvent } from '@kamai/contracts';
import { type WorkflowState, workflowDecider } from '@kamai/domain';
import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps.ts';
import { erasurePlan, erasureRefusal, erasureWorkflow } from './erasure.ts';

const now = '2026-11-29T04:00:00.000Z';
const request = { id: 'req-1', userId: 'user-1' };

/** The record as its events leave it. */
function given(events: WorkflowEvent[]): WorkflowState {
  return events.reduce(workflowDecider.evolve, workflowDecider.initialState());
}

const started: WorkflowEvent = {
  type: 'WorkflowStarted',
  data: { workflowId: 'w-1', kind: 'erasure', batchId: '', by: 'admin-1', steps: erasurePlan(request), approvalThresholdPaise: 0, startedAt: now },
};
const outcome = (step: number, value: string): WorkflowEvent => ({ type: 'WorkflowStepRecorded', data: { workflowId: 'w-1', step, outcome: value, recordedAt: now } });

describe('the erasure workflow', () => {
  it('plans seven steps naming only the request and the person, the data key after everything read with it', () => {
    const plan = erasurePlan(request);
    expect(plan.map((s) => [s.action, s.target])).toEqual([
      ['erase_user', 'req-1'],
      ['release_mobile', 'user-1'],
      ['release_payee', 'user-1'],
      ['end_sessions', 'user-1'],
      ['delete_images', 'user-1'],
      ['delete_key', 'user-1'],
      ['checkpoint_read_db', 'user-1'],
    ]);
  });

  it('does nothing after the person’s stream refused the erasure (a withdrawal won the race), and answers that refusal', async () => {
    const state = given([started, outcome(0, 'balance_not_settled')]);
    // No step touches anything: the deps are never used.
    const untouched = {} as AppDeps;
    for (let step = 1; step < 7; step++) expect(await erasureWorkflow.step(untouched, state, step, undefined)).toBe('not_erased');
    expect(erasureRefusal(state)).toMatchObject({ kind: 'conflict', code: 'balance_not_settled' });
    expect(erasureRefusal(given([started, outcome(0, 'deletion_cooling_off')]))).toMatchObject({ code: 'deletion_cooling_off' });
    expect(erasureRefusal(given([started, outcome(0, 'conflict')]))).toMatchObject({ kind: 'conflict', code: undefined });
  });

  it('answers no refusal once the person is erased (by this run or an earlier one of the same request)', () => {
    expect(erasureRefusal(given([started, outcome(0, 'applied')]))).toBeNull();
    expect(erasureRefusal(given([started, outcome(0, 'skipped')]))).toBeNull();
  });
});
