import { type WorkflowAction, type WorkflowStepPlan, msg } from '@kamai/contracts';
import { DomainError, type WorkflowState } from '@kamai/domain';
import type { AppDeps } from '../deps.ts';
import { checkpointAfterErasure, deleteImagesOf, deleteKeyOf, endSessionsOf, eraseOnUserStream, releaseMobileOf } from '../privacy/erasure.ts';
import type { WorkflowDefinition } from './run.ts';

/** The steps of an erasure, in order: the person's data key goes after everything read with it. */
const ERASURE_STEPS = ['erase_user', 'release_mobile', 'end_sessions', 'delete_images', 'delete_key', 'checkpoint_read_db'] as const satisfies readonly WorkflowAction[];

/** An erasure's intent: ids only (the request, the person); the number and image keys are read at their step. */
export function erasurePlan(request: { id: string; userId: string }): WorkflowStepPlan[] {
  return ERASURE_STEPS.map((action) => ({
    action,
    target: action === 'erase_user' ? request.id : request.userId,
    userId: request.userId,
    amountPaise: 0,
    utr: '',
    line: 0,
    refusal: '',
  }));
}

/** What a step after a refused `erase_user` records: nothing was done. */
const NOT_ERASED = 'not_erased';

/**
 * Erasing a person (`POST /api/admin/deletions/:id/erase`): `UserErased` decided on their stream
 * first, then the traces outside it, each step safe to run again; the sweep finishes one a crash left
 * half-done. When the person's stream refuses the erasure (a withdrawal won the race), every later
 * step records that nothing was done.
 */
export const erasureWorkflow: WorkflowDefinition<never> = {
  kind: 'erasure',
  async step(deps, state, step) {
    const plan = state.steps[step]!;
    const userId = plan.userId!;
    if (plan.action === 'erase_user') return eraseOnUserStream(deps, { id: plan.target, userId }, state.by);
    const erased = state.outcomes[0];
    if (erased !== 'applied' && erased !== 'skipped') return NOT_ERASED;
    switch (plan.action) {
      case 'release_mobile':
        return releaseMobileOf(deps, userId, state.by);
      case 'end_sessions':
        return endSessionsOf(deps, userId, state.by);
      case 'delete_images':
        return deleteImagesOf(deps, objectsOf(deps), userId);
      case 'delete_key':
        // The request's id is the first step's target (the later steps target the user).
        return deleteKeyOf(deps, { id: state.steps[0]!.target, userId }, state.by);
      case 'checkpoint_read_db':
        return checkpointAfterErasure(deps);
      default:
        throw new Error(`an erasure workflow has no ${plan.action} step`);
    }
  },
};

function objectsOf(deps: AppDeps) {
  if (!deps.objects) throw new Error('an erasure deletes images: the object storage is missing from the app');
  return deps.objects;
}

/** The refusal an erasure's record holds (its person's stream refused `UserErased`), as the API answers it; null once erased. */
export function erasureRefusal(state: WorkflowState): DomainError | null {
  const outcome = state.outcomes[0];
  if (outcome === undefined || outcome === 'applied' || outcome === 'skipped') return null;
  if (outcome === 'balance_not_settled') return new DomainError('conflict', msg('deletion.balanceNotSettled'), undefined, outcome);
  if (outcome === 'deletion_cooling_off') return new DomainError('conflict', msg('deletion.coolingOff'), undefined, outcome);
  return new DomainError('conflict', msg('deletion.notPending'));
}
