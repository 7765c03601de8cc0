import { type WorkflowStepPlan, msg, streams } from '@kamai/contracts';
import { DomainError, type TaskSnapshot, type WorkflowState, userDecider } from '@kamai/domain';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { nextStepDone } from '../commands/keyed.ts';
import { ApiError } from '../http/errors.ts';
import { releaseSlot, takeSlot } from '../tasks/commands.ts';
import { type WorkflowDefinition, workflowSteps } from './run.ts';

const TAKE = 0;
const SUBMIT = 1;

/**
 * What only the request holds, kept out of the record: the proof itself (an image address and the
 * person's own words), and the refusal a step met, so the live answer says it in full.
 */
export interface ProofContext {
  task: TaskSnapshot | null;
  proofImageUrl: string;
  proofDescription: string;
  proofDhash: string | null;
  refusal?: DomainError;
}

/** The intent of a proof submission: a slot on the task, the proof on the person's stream, the slot back when no proof was recorded. */
export function proofSubmissionPlan(taskId: string, userId: string): WorkflowStepPlan[] {
  const step = (action: WorkflowStepPlan['action']): WorkflowStepPlan => ({ action, target: taskId, userId, amountPaise: 0, utr: '', line: 0, refusal: '' });
  return [step('take_slot'), step('submit_proof'), step('release_slot')];
}

/**
 * A proof submission (`POST /api/tasks/:id/submit-proof`), whose workflow id is the submission's id:
 * a completion slot is taken on the task's stream (the one place all takers of a task meet, so a
 * limited task is never over-filled), then the proof is recorded on the person's stream, then, only
 * when no proof was recorded, the slot is given back. The proof is in the request only: the recovery
 * sweep, finishing a submission whose request died before its proof was recorded, cannot record it,
 * so it gives the slot back (`abandoned`); a retry with the key, which has the proof, records it.
 */
export const proofSubmissionWorkflow: WorkflowDefinition<ProofContext> = {
  kind: 'proof_submission',
  step: workflowSteps(
    'a proof submission',
    {
      async take_slot(deps, state, plan) {
        // Held already by this submission (a second copy of the request) records nothing: still its slot.
        await takeSlot(deps.store, plan.target, state.workflowId, plan.userId!, deps.now());
        return 'applied';
      },
      async submit_proof(deps, state, plan, context) {
        if (state.outcomes[TAKE] !== 'applied') return 'no_slot';
        const userId = plan.userId!;
        const streamId = streams.user(userId);
        if (!context) {
          // The sweep: recorded already when the process died after the append, else given up.
          const { revision } = await loadStream(deps.store, streamId, userDecider);
          return (await nextStepDone(deps.store, streamId, revision === 'no_stream' ? -1 : revision)) ? 'applied' : 'abandoned';
        }
        const { task, proofImageUrl, proofDescription, proofDhash } = context;
        await handleCommand(
          deps.store,
          streamId,
          userDecider,
          { type: 'SubmitProof', data: { taskId: plan.target, task, submissionId: state.workflowId, proofImageUrl, proofDescription, proofDhash }, now: deps.now().toISOString() },
          { actor: userId },
        );
        return 'applied';
      },
      async release_slot(deps, state, plan) {
        if (state.outcomes[TAKE] !== 'applied' || state.outcomes[SUBMIT] === 'applied') return 'skipped';
        await releaseSlot(deps.store, plan.target, state.workflowId, 'not_submitted', plan.userId!, deps.now());
        return 'applied';
      },
    },
    {
      onRefusal(err, context) {
        if (context) context.refusal = err;
      },
    },
  ),
};

/** Whether the proof step of a submission is still to run with the request's proof (its slot not refused). */
export function proofStepAhead(state: WorkflowState): boolean {
  return state.outcomes.length <= SUBMIT && (state.outcomes[TAKE] ?? 'applied') === 'applied';
}

export const PROOF_STEP = SUBMIT;

/**
 * The refusal a finished submission answers, from its record (null: the proof was recorded). The
 * live request says the refusal it met in full; a retry rebuilds it from the recorded code.
 */
export function proofSubmissionRefusal(state: WorkflowState, context?: ProofContext): Error | null {
  const take = state.outcomes[TAKE];
  const submit = state.outcomes[SUBMIT];
  if (submit === 'applied') return null;
  if (context?.refusal) return context.refusal;
  const outcome = take !== 'applied' ? take : submit;
  switch (outcome) {
    case 'task_full':
      return new DomainError('conflict', msg('task.full'), undefined, 'task_full');
    case 'task_expired':
      return new DomainError('conflict', msg('task.expired'), undefined, 'task_expired');
    case 'not_found':
      return new DomainError('not_found', msg('api.taskNotFound'));
    case 'invalid':
      return new DomainError('invalid', msg('task.proofMissing'));
    case 'abandoned':
      return new ApiError(409, 'conflict', msg('task.proofNotRecorded'));
    default:
      return new DomainError('conflict', take !== 'applied' ? msg('task.notAvailable') : msg('api.proofUnderReview'));
  }
}
