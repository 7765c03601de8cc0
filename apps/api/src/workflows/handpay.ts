import { type WorkflowStepPlan, msg, streams } from '@kamai/contracts';
import { type WorkflowState, normaliseReference, referenceDecider, userDecider } from '@kamai/domain';
import { handleCommand } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppDeps } from '../deps.ts';
import { duplicateReference } from '../finance/references.ts';
import { withdrawalAsFinanceSees } from '../finance/withdrawal-lookup.ts';
import { ApiError, conflict, notFound } from '../http/errors.ts';
import { type WorkflowDefinition, workflowSteps } from './run.ts';

const RESERVE = 0;
const PAY = 1;

/** The intent of paying `withdrawalId` (of `userId`) by hand with the transfer reference `reference`. */
export function handPaymentPlan(withdrawalId: string, userId: string, reference: string, valueDate?: string): WorkflowStepPlan[] {
  const step = (action: WorkflowStepPlan['action']): WorkflowStepPlan => ({
    action, target: withdrawalId, userId, amountPaise: 0, utr: reference, line: 0, refusal: '', ...(valueDate !== undefined && { valueDate }),
  });
  return [step('reserve_reference'), step('pay'), step('release_reference')];
}

/** Whether the reference is held for the withdrawal (by this workflow, or before it for the same withdrawal). */
const reserved = (state: WorkflowState) => state.outcomes[RESERVE] === 'applied' || state.outcomes[RESERVE] === 'skipped';

/**
 * Paying a withdrawal by hand (`POST /api/admin/withdrawals/:id/paid`): its UTR is reserved on the
 * `utr-<reference>` stream (one reference pays one withdrawal), then the withdrawal is paid on its
 * user's stream, then, only when the pay was refused, a reservation this workflow made is released.
 * A crash between any two leaves a record a retry or the sweep resumes: the pay never happens without
 * the reservation recorded first, and a reservation whose pay was refused is never left held.
 */
export const handPaymentWorkflow: WorkflowDefinition<never> = {
  kind: 'hand_payment',
  step: workflowSteps('a hand payment', {
    async reserve_reference(deps, state, plan) {
      const reference = normaliseReference(plan.utr);
      const done = await handleCommand(
        deps.store,
        streams.reference(reference),
        referenceDecider,
        { type: 'ReserveReference', data: { reference, withdrawalId: plan.target, by: state.by }, now: deps.now().toISOString() },
        { actor: state.by },
      );
      // Skipped: held for this very withdrawal already (a second click racing this one).
      return done.events.length > 0 ? 'applied' : 'skipped';
    },
    async pay(deps, state, plan) {
      if (!reserved(state)) return 'not_reserved';
      const by = state.by;
      await handleCommand(
        deps.store,
        streams.user(plan.userId!),
        userDecider,
        {
          type: 'MarkWithdrawalPaid',
          data: { withdrawalId: plan.target, reference: plan.utr, by, notificationId: commandId(), ...(plan.valueDate !== undefined && { valueDate: plan.valueDate }) },
          now: deps.now().toISOString(),
        },
        { actor: by },
      );
      return 'applied';
    },
    async release_reference(deps, state, plan) {
      if (state.outcomes[RESERVE] !== 'applied' || state.outcomes[PAY] === 'applied') return 'skipped';
      const withdrawalId = plan.target;
      const reference = normaliseReference(plan.utr);
      // Refused because another member paid it meanwhile with this same reference: the reference stays its.
      const current = await withdrawalAsFinanceSees(deps, withdrawalId, plan.userId!);
      if (current?.status === 'paid' && current.reference !== null && normaliseReference(current.reference) === reference) return 'skipped';
      await handleCommand(deps.store, streams.reference(reference), referenceDecider, { type: 'ReleaseReference', data: { reference, withdrawalId }, now: deps.now().toISOString() }, { actor: state.by });
      return 'applied';
    },
  }),
};

/**
 * The refusal a finished hand payment answers, from its record (null: it paid). A conflict without a
 * code of its own is said with the state the withdrawal is in now, as a refused settle says it.
 */
export async function handPaymentRefusal(deps: AppDeps, state: WorkflowState): Promise<ApiError | null> {
  const reserve = state.outcomes[RESERVE];
  const pay = state.outcomes[PAY];
  if (pay === 'applied') return null;
  if (reserve === 'duplicate_reference') return duplicateReference();
  const plan = state.steps[PAY]!;
  switch (pay) {
    case 'with_bank':
      return new ApiError(409, 'with_bank', msg('payout.withBank'));
    case 'conflict_of_duties':
      return new ApiError(403, 'conflict_of_duties', msg('controls.conflictOfDuties'));
    case 'not_found':
      return notFound(msg('api.withdrawalNotFound'));
    case 'forbidden':
      return new ApiError(403, 'forbidden', msg('api.ownWithdrawal'));
    default: {
      const current = await withdrawalAsFinanceSees(deps, plan.target, plan.userId ?? undefined);
      return conflict(current && current.status !== 'pending' ? msg(`withdrawalState.${current.status}`) : msg('api.stillProcessing'));
    }
  }
}
