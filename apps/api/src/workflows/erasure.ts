import { type WorkflowAction, type WorkflowStepPlan, msg } from '@kamai/contracts';
import { DomainError, type WorkflowState } from '@kamai/domain';
import type { AppDeps } from '../deps.ts';
import { checkpointAfterErasure, deleteImagesOf, deleteKeyOf, endSessionsOf, eraseOnUserStream, releaseMobileOf } from '../privacy/erasure.ts';
import { releasePayeesOf } from './pan-claim.ts';
import { type StepHandler, type WorkflowDefinition, workflowSteps } from './run.ts';

/** The steps of an erasure, in order: the person's data key goes after everything read with it. */
const ERASURE_STEPS = ['erase_user', 'release_mobile', 'release_payee', 'end_sessions', 'delete_images', 'delete_key', 'checkpoint_read_db'] as const satisfies readonly WorkflowAction[];

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
  step: workflowSteps(
    'an erasure workflow',
    {
      erase_user: (deps, state, plan) => eraseOnUserStream(deps, { id: plan.target, userId: plan.userId! }, state.by),
      release_mobile: onceErased((deps, state, userId) => releaseMobileOf(deps, userId, state.by)),
      // The PANs they proved, with the year's totals paid under each (docs/tax.md).
      release_payee: onceErased((deps, state, userId) => releasePayeesOf(deps, userId, state.by)),
      end_sessions: onceErased((deps, state, userId) => endSessionsOf(deps, userId, state.by)),
      delete_images: onceErased((deps, _state, userId) => deleteImagesOf(deps, objectsOf(deps), userId)),
      // The request's id is the first step's target (the later steps target the user).
      delete_key: onceErased((deps, state, userId) => deleteKeyOf(deps, { id: state.steps[0]!.target, userId }, state.by)),
      checkpoint_read_db: onceErased((deps) => checkpointAfterErasure(deps)),
    },
    // `erase_user` records its refusal itself; a refusal after it is a fault, left for the sweep.
    { refusalsThrown: true },
  ),
};

/** A step after `erase_user`: done only when the person was erased, else it records that nothing was done. */
function onceErased(run: (deps: AppDeps, state: WorkflowState, userId: string) => Promise<string>): StepHandler<never> {
  return async (deps, state, plan) => {
    const erased = state.outcomes[0];
    if (erased !== 'applied' && erased !== 'skipped') return NOT_ERASED;
    return run(deps, state, plan.userId!);
  };
}

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
