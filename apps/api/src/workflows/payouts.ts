import { PAYOUT_MESSAGES, RESULT_REFUSALS, type ResultRefusal, type ResultsImportBody, type WorkflowStepPlan, streams } from '@kamai/contracts';
import { DomainError, type UserCommand, type WorkflowState, claimedItems, normaliseReference, payoutBatchDecider, userDecider } from '@kamai/domain';
import { handleCommand } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { withReservedReference } from '../finance/references.ts';
import { withdrawalAsFinanceSees } from '../finance/withdrawal-lookup.ts';
import { type StepHandler, type WorkflowDefinition, refusalOutcome, workflowSteps } from './run.ts';
import { erasureWorkflow } from './erasure.ts';
import { handPaymentWorkflow } from './handpay.ts';
import { proofSubmissionWorkflow } from './tasks.ts';
import { invitationBonusWorkflow } from '../invitations/award.ts';
import { panClaimWorkflow } from './pan-claim.ts';

/** Runs a command on a user's stream: `applied` when it appended (or a retry found its events), else the refusal. */
async function onUserStream(deps: AppDeps, userId: string, by: string, command: UserCommand): Promise<'applied' | 'unchanged' | DomainError> {
  try {
    const done = await handleCommand(deps.store, streams.user(userId), userDecider, command, { actor: by });
    return done.events.length > 0 ? 'applied' : 'unchanged';
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
}

/**
 * Creating a payout batch: each withdrawal is claimed on its own stream first (its decider lets a
 * withdrawal into one open batch only: `already_batched`), then the batch is recorded with exactly
 * the withdrawals claimed. A crash between claims leaves claims the record names, and the batch is
 * recorded when the workflow resumes, never a batch whose withdrawals are not in it.
 */
export const payoutBatchWorkflow: WorkflowDefinition<never> = {
  kind: 'payout_batch',
  step: workflowSteps(
    'a batch workflow',
    {
      async claim(deps, state, plan) {
        const claimed = await onUserStream(deps, plan.userId!, state.by, {
          type: 'MarkWithdrawalProcessing',
          data: { withdrawalId: plan.target, batchId: state.batchId, by: state.by },
          now: deps.now().toISOString(),
        });
        // Unchanged: already in this very batch (only this workflow names it).
        return claimed instanceof DomainError ? refusalOutcome(claimed) : 'applied';
      },
      async create_batch(deps, state) {
        const items = claimedItems(state);
        if (items.length === 0) return 'empty';
        await handleCommand(
          deps.store,
          streams.payoutBatch(state.batchId),
          payoutBatchDecider,
          { type: 'CreatePayoutBatch', data: { batchId: state.batchId, items, by: state.by, approvalThresholdPaise: state.approvalThresholdPaise }, now: deps.now().toISOString() },
          { actor: state.by },
        );
        return 'applied';
      },
    },
    // A claim records its refusal itself; the batch's own refusal is a fault, left for the sweep.
    { refusalsThrown: true },
  ),
};

/**
 * What only the request knows, kept out of the record: the bank's failure reasons by line (free text)
 * and, for rows naming no withdrawal of the batch, the reference as the file wrote it.
 */
export interface ResultsContext {
  reasons: Map<number, string>;
  references: Map<number, string>;
}

type Outcome = 'applied' | 'skipped' | ResultRefusal;

/** A refusal from the user stream, as a results row's outcome. */
function refusalOf(err: DomainError): ResultRefusal {
  return err.code === 'conflict_of_duties' ? 'conflict_of_duties' : 'wrong_state';
}

/**
 * Importing a bank's results file: one step per row (a row refused while reading the file is a step
 * whose outcome is its refusal), then the import recorded on the batch. The answer is counted from
 * the recorded outcomes, so a retry after a crash reports what happened, no more.
 */
export const payoutResultsWorkflow: WorkflowDefinition<ResultsContext> = {
  kind: 'payout_results',
  step: workflowSteps(
    'a results workflow',
    {
      async record_results(deps, state) {
        const answer = resultsAnswer(state);
        await handleCommand(
          deps.store,
          streams.payoutBatch(state.batchId),
          payoutBatchDecider,
          { type: 'RecordPayoutResults', data: { batchId: state.batchId, by: state.by, applied: answer.applied, skipped: answer.skipped, refused: answer.refused.length }, now: deps.now().toISOString() },
          { actor: state.by },
        );
        return 'applied';
      },
      SUCCESS: resultRow(async (deps, state, plan) => {
        const { target: withdrawalId, userId, utr } = plan;
        const by = state.by;
        const paidWithThis = async () => {
          const current = await withdrawalAsFinanceSees(deps, withdrawalId, userId!);
          return current?.status === 'paid' && current.reference !== null && normaliseReference(current.reference) === normaliseReference(utr);
        };
        try {
          return await withReservedReference(deps, { reference: utr, withdrawalId, by }, async (): Promise<Outcome> => {
            const done = await onUserStream(deps, userId!, by, {
              type: 'MarkWithdrawalPaid',
              data: { withdrawalId, reference: utr, by, notificationId: commandId(), batchId: state.batchId, ...(plan.valueDate !== undefined && { valueDate: plan.valueDate }) },
              now: deps.now().toISOString(),
            });
            if (!(done instanceof DomainError)) return 'applied';
            if (await paidWithThis()) return 'skipped';
            // Refused: the reservation is released (withReservedReference) and the row says why.
            throw new RowRefused(refusalOf(done));
          });
        } catch (err) {
          if (err instanceof RowRefused) return err.outcome;
          if (err instanceof ApiError && err.code === 'duplicate_reference') return 'utr_reused';
          throw err;
        }
      }),
      FAILED: resultRow(failOrReverse),
      REVERSED: resultRow(failOrReverse),
    },
    // Each row turns its user stream's refusal into its outcome itself; the batch's own refusal is a fault.
    { refusalsThrown: true },
  ),
};

/** A row step: a row refused while the file was read has that refusal as its outcome, fixed in the intent. */
function resultRow(run: StepHandler<ResultsContext>): StepHandler<ResultsContext> {
  return async (deps, state, plan, context) => (plan.refusal !== '' ? plan.refusal : run(deps, state, plan, context));
}

/** A FAILED or REVERSED row: the money goes back to the person's wallet. */
async function failOrReverse(deps: AppDeps, state: WorkflowState, plan: WorkflowStepPlan, context: ResultsContext | undefined): Promise<string> {
  const { target: withdrawalId, userId } = plan;
  const by = state.by;
  const failed = plan.action === 'FAILED';
  const reason = context?.reasons.get(plan.line) || PAYOUT_MESSAGES.failedAtBank;
  const data = { withdrawalId, reason, by, entryId: commandId(), notificationId: commandId(), batchId: state.batchId };
  const now = deps.now().toISOString();
  const done = await onUserStream(deps, userId!, by, failed ? { type: 'FailWithdrawal', data, now } : { type: 'ReverseWithdrawal', data, now });
  if (!(done instanceof DomainError)) return 'applied';
  const current = await withdrawalAsFinanceSees(deps, withdrawalId, userId!);
  if (current?.status === (failed ? 'failed' : 'reversed')) return 'skipped';
  return refusalOf(done);
}

/** Thrown inside a reserved reference's pay so that the reservation is released. */
class RowRefused extends Error {
  constructor(readonly outcome: Outcome) {
    super(outcome);
  }
}

/** The import's answer, counted from the recorded outcomes of its row steps. */
export function resultsAnswer(state: WorkflowState, context?: ResultsContext): ResultsImportBody {
  const answer: ResultsImportBody = { applied: 0, skipped: 0, refused: [] };
  state.steps.forEach((plan, i) => {
    const outcome = state.outcomes[i];
    if (plan.action === 'record_results' || outcome === undefined) return;
    if (outcome === 'applied') answer.applied++;
    else if (outcome === 'skipped') answer.skipped++;
    else {
      const reason = (outcome in RESULT_REFUSALS ? outcome : 'wrong_state') as ResultRefusal;
      answer.refused.push({ line: plan.line, reference: context?.references.get(plan.line) ?? plan.target, reason, message: RESULT_REFUSALS[reason] });
    }
  });
  return answer;
}

export const WORKFLOW_DEFINITIONS = [payoutBatchWorkflow, payoutResultsWorkflow, erasureWorkflow, handPaymentWorkflow, proofSubmissionWorkflow, invitationBonusWorkflow, panClaimWorkflow] as const;
