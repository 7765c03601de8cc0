import { type WorkflowStepPlan, eventCodec, msg, streams } from '@kamai/contracts';
import { type WorkflowState, DomainError, carriedFor, taxPayeeDecider, taxYearTotals, userDecider } from '@kamai/domain';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppDeps } from '../deps.ts';
import { type WorkflowDefinition, workflowSteps } from './run.ts';

const CLAIM = 0;
const APPROVE = 1;

/** The intent of approving PAN document `documentId` of `userId`: ids only (the PAN is read from the person's stream at each step). */
export function panClaimPlan(documentId: string, userId: string): WorkflowStepPlan[] {
  const step = (action: WorkflowStepPlan['action']): WorkflowStepPlan => ({ action, target: documentId, userId, amountPaise: 0, utr: '', line: 0, refusal: '' });
  return [step('claim_payee'), step('approve_document'), step('release_payee')];
}

/** The PAN number a person's PAN document was submitted with, read from their stream (null: none, or erased). */
export async function panOfDocument(deps: Pick<AppDeps, 'store'>, userId: string, documentId: string): Promise<string | null> {
  for (const recorded of await deps.store.readStream(streams.user(userId))) {
    const event = eventCodec.decode(recorded);
    if (event?.type === 'KycDocumentSubmitted' && event.data.documentId === documentId) return event.data.panNumber ?? null;
  }
  return null;
}

/** Every PAN a person proved (their approved PAN documents' numbers), read while their events still decode. */
async function approvedPansOf(deps: Pick<AppDeps, 'store'>, userId: string): Promise<string[]> {
  const submitted = new Map<string, string>();
  const pans = new Set<string>();
  for (const recorded of await deps.store.readStream(streams.user(userId))) {
    const event = eventCodec.decode(recorded);
    if (event?.type === 'KycDocumentSubmitted' && event.data.panNumber !== undefined) submitted.set(event.data.documentId, event.data.panNumber);
    else if (event?.type === 'KycDocumentApproved' && submitted.has(event.data.documentId)) pans.add(submitted.get(event.data.documentId)!);
  }
  return [...pans];
}

async function payeeStreamOf(deps: AppDeps, plan: WorkflowStepPlan): Promise<string> {
  const pan = await panOfDocument(deps, plan.userId!, plan.target);
  // The route starts this workflow for a PAN document with its number only.
  if (pan === null) throw new Error(`document ${plan.target} carries no PAN`);
  return deps.personalData.panPayeeStreamId(pan);
}

const claimed = (state: WorkflowState) => state.outcomes[CLAIM] === 'applied' || state.outcomes[CLAIM] === 'skipped';

/**
 * Approving a PAN document with its number (`POST /api/admin/kyc/:id/approve`): the PAN's payee
 * stream is claimed for the account (refused `pan_in_use` while another live account holds it), then
 * the document is approved on the person's stream, carrying the year's totals paid under the PAN by
 * an earlier (erased) holder when this claim is new; then, only when the approval was refused, a
 * claim this workflow made is given back. A crash between any two leaves a record a retry or the
 * sweep resumes: no PAN is approved on two live accounts, and none is left held for a refused approval.
 */
export const panClaimWorkflow: WorkflowDefinition<never> = {
  kind: 'pan_claim',
  step: workflowSteps('a PAN claim', {
    async claim_payee(deps, state, plan) {
      const streamId = await payeeStreamOf(deps, plan);
      const done = await handleCommand(
        deps.store,
        streamId,
        taxPayeeDecider,
        { type: 'ClaimTaxPayee', data: { userId: plan.userId!, documentId: plan.target }, now: deps.now().toISOString() },
        { actor: state.by },
      );
      // Skipped: this account holds it already (an earlier PAN document of theirs).
      return done.events.length > 0 ? 'applied' : 'skipped';
    },
    async approve_document(deps, state, plan) {
      if (!claimed(state)) return 'not_claimed';
      // The payee's totals stand still while this account holds it.
      const payee = (await loadStream(deps.store, await payeeStreamOf(deps, plan), taxPayeeDecider)).state;
      const carried = carriedFor(payee, plan.userId!, plan.target);
      await handleCommand(
        deps.store,
        streams.user(plan.userId!),
        userDecider,
        { type: 'ApproveKycDocument', data: { documentId: plan.target, reviewerId: state.by, notificationId: commandId(), carried }, now: deps.now().toISOString() },
        { actor: state.by },
      );
      return 'applied';
    },
    async release_payee(deps, state, plan) {
      if (state.outcomes[CLAIM] !== 'applied' || state.outcomes[APPROVE] === 'applied') return 'skipped';
      // Refused because it was approved meanwhile (a retry without the key, racing this one): the claim stays.
      const person = (await loadStream(deps.store, streams.user(plan.userId!), userDecider)).state;
      if (person.kyc.submissions.get(plan.target)?.status === 'approved') return 'skipped';
      const streamId = await payeeStreamOf(deps, plan);
      // Given back as it was: the refused account paid nothing under the PAN.
      const { carried } = (await loadStream(deps.store, streamId, taxPayeeDecider)).state;
      await handleCommand(deps.store, streamId, taxPayeeDecider, { type: 'ReleaseTaxPayee', data: { userId: plan.userId!, years: carried }, now: deps.now().toISOString() }, { actor: state.by });
      return 'applied';
    },
  }),
};

/** The refusal a finished PAN approval answers, from its record (null: approved). */
export function panClaimRefusal(state: WorkflowState): DomainError | null {
  const claim = state.outcomes[CLAIM];
  const approve = state.outcomes[APPROVE];
  if (approve === 'applied') return null;
  if (claim === 'pan_in_use') return new DomainError('conflict', msg('kyc.panInUse'), undefined, 'pan_in_use');
  if (approve === 'forbidden') return new DomainError('forbidden', msg('kyc.ownDocument'));
  if (approve === 'not_found') return new DomainError('not_found', msg('kyc.notFound'));
  return new DomainError('conflict', msg('kyc.alreadyReviewed'));
}

/**
 * An erasure's step: every PAN the person proved is given back, with the year's totals paid under it
 * (theirs and what they carried), so a new account proving it starts from them. Before their key
 * goes: the PAN is read from their events. Releasing a payee someone else holds changes nothing.
 */
export async function releasePayeesOf(deps: AppDeps, userId: string, by: string): Promise<string> {
  const pans = await approvedPansOf(deps, userId);
  if (pans.length === 0) return 'skipped';
  const { state } = await loadStream(deps.store, streams.user(userId), userDecider);
  const years = taxYearTotals(state.taxYears.byYear.values());
  for (const pan of pans) {
    const streamId = deps.personalData.panPayeeStreamId(pan);
    await handleCommand(deps.store, streamId, taxPayeeDecider, { type: 'ReleaseTaxPayee', data: { userId, years }, now: deps.now().toISOString() }, { actor: by });
  }
  return 'applied';
}
