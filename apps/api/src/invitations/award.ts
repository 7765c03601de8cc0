import { createHmac } from 'node:crypto';
import {
  type InvitationBeneficiary,
  type InvitationRefusal,
  type WithdrawalDestination,
  type WorkflowStepPlan,
  isInvitationRefusal,
  streams,
} from '@kamai/contracts';
import {
  type UserState,
  type WorkflowState,
  invitationDecider,
  invitationProgrammeDecider,
  userDecider,
} from '@kamai/domain';
import { dueInvitations, unfinishedWorkflows } from '@kamai/projections';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppDeps } from '../deps.ts';
import { onOwnAppendsOf } from '../own-appends.ts';
import { loadLimits } from '../settings/limits.ts';
import { type WorkflowDefinition, driveWorkflow, startWorkflow, workflowSteps } from '../workflows/run.ts';

const COUNT = 0;
const RECORD = 1;

/** The workflow of one bonus: one per invitation and beneficiary, so starting it again resumes it. */
export const bonusWorkflowId = (inviteeId: string, beneficiary: InvitationBeneficiary) => `invitation-${inviteeId}-${beneficiary}`;

/** Whose bonus a plan pays: the invited person's own, or their inviter's. */
const beneficiaryOf = (plan: WorkflowStepPlan): InvitationBeneficiary => (plan.userId === plan.target ? 'invitee' : 'inviter');

/**
 * An invitation bonus (`invitation_bonus`): counted on `invitation-programme` against the budget and
 * the inviter's monthly cap, its outcome recorded on `invitation-<inviteeId>`, then, when awarded,
 * credited to the person's wallet. A refusal found before the start (a shared device, UPI ID or bank
 * account; a suspended invitee) is fixed in the intent: nothing is counted and it is recorded as the
 * outcome. Each step is keyed (workflows.md), so a crash anywhere is resumed without a second count,
 * record or credit.
 */
export const invitationBonusWorkflow: WorkflowDefinition<never> = {
  kind: 'invitation_bonus',
  step: workflowSteps('an invitation bonus', {
    async count_bonus(deps, _state, plan) {
      if (plan.refusal !== '') return plan.refusal;
      const inviteeId = plan.target;
      const limits = await loadLimits(deps.store);
      const inviterId = (await loadStream(deps.store, streams.invitation(inviteeId), invitationDecider)).state.inviterId;
      const done = await handleCommand(
        deps.store,
        streams.invitationProgramme(),
        invitationProgrammeDecider,
        {
          type: 'CountInvitationBonus',
          data: { inviteeId, beneficiary: beneficiaryOf(plan), inviterId, amountPaise: plan.amountPaise, budgetPaise: limits.invitationBudgetPaise, monthlyCapPaise: limits.inviterMonthlyCapPaise },
          now: deps.now().toISOString(),
        },
        { actor: 'system' },
      );
      return done.events.length > 0 ? 'applied' : 'skipped';
    },
    async record_bonus(deps, state, plan) {
      const counted = state.outcomes[COUNT];
      const refusal: InvitationRefusal | null = counted === 'applied' || counted === 'skipped' ? null : isInvitationRefusal(counted ?? '') ? (counted as InvitationRefusal) : null;
      if (refusal === null && counted !== 'applied' && counted !== 'skipped') throw new Error(`invitation bonus ${state.workflowId}: count step answered ${counted}`);
      const inviteeId = plan.target;
      const done = await handleCommand(
        deps.store,
        streams.invitation(inviteeId),
        invitationDecider,
        {
          type: 'RecordInvitationBonus',
          data: { inviteeId, beneficiary: beneficiaryOf(plan), userId: plan.userId!, amountPaise: plan.amountPaise, entryId: commandId(), refusal },
          now: deps.now().toISOString(),
        },
        { actor: 'system' },
      );
      return done.events.length > 0 ? 'applied' : 'skipped';
    },
    async credit_bonus(deps, state, plan) {
      if (state.outcomes[RECORD] !== 'applied' && state.outcomes[RECORD] !== 'skipped') return 'skipped';
      const inviteeId = plan.target;
      const beneficiary = beneficiaryOf(plan);
      const bonus = (await loadStream(deps.store, streams.invitation(inviteeId), invitationDecider)).state.bonuses[beneficiary];
      if (bonus.status !== 'paid') return 'skipped';
      await handleCommand(
        deps.store,
        streams.user(plan.userId!),
        userDecider,
        { type: 'CreditReferralBonus', data: { entryId: bonus.entryId, notificationId: commandId(), amountPaise: bonus.amountPaise, inviteeId, beneficiary }, now: deps.now().toISOString() },
        { actor: 'system' },
      );
      return 'applied';
    },
  }),
};

/** A keyed hash of a payout destination: two people's are compared by these, never in plain. */
function destinationDigests(secret: Uint8Array, state: UserState): { upi: Set<string>; bank: Set<string> } {
  const upi = new Set<string>();
  const bank = new Set<string>();
  const hash = (text: string) => createHmac('sha256', secret).update(`invitation-destination:${text}`).digest('base64url');
  const add = (d: WithdrawalDestination | null) => {
    if (!d) return;
    if (d.kind === 'upi') upi.add(hash(`upi:${d.upiId.trim().toLowerCase()}`));
    else bank.add(hash(`bank:${d.ifsc.trim().toUpperCase().slice(0, 4)}:${d.accountNumber.replace(/\s/g, '')}`));
  };
  for (const w of state.withdrawals.byId.values()) add(w.destination);
  add(state.withdrawals.lastDestination);
  return { upi, bank };
}

const shares = (a: Set<string>, b: Set<string>) => [...a].some((x) => b.has(x));

/** Why the pair gets no bonus (farming), or null. */
export function farmingRefusal(secret: Uint8Array, sharedDevice: boolean, invitee: UserState, inviter: UserState): InvitationRefusal | null {
  if (sharedDevice) return 'shared_device';
  const mine = destinationDigests(secret, invitee);
  const theirs = destinationDigests(secret, inviter);
  if (shares(mine.upi, theirs.upi)) return 'shared_upi';
  if (shares(mine.bank, theirs.bank)) return 'shared_bank';
  if (invitee.account.suspended) return 'suspended';
  return null;
}

/** Starts (or resumes) the workflow of one bonus and drives it to its end. */
async function award(deps: AppDeps, inviteeId: string, beneficiary: InvitationBeneficiary): Promise<WorkflowState> {
  const invitation = (await loadStream(deps.store, streams.invitation(inviteeId), invitationDecider)).state;
  const [invitee, inviter] = await Promise.all([
    loadStream(deps.store, streams.user(inviteeId), userDecider),
    loadStream(deps.store, streams.user(invitation.inviterId), userDecider),
  ]);
  const limits = await loadLimits(deps.store);
  const refusal = farmingRefusal(deps.secret, invitation.sharedDevice, invitee.state, inviter.state) ?? '';
  const userId = beneficiary === 'invitee' ? inviteeId : invitation.inviterId;
  const amountPaise = beneficiary === 'invitee' ? limits.inviteeBonusPaise : limits.inviterBonusPaise;
  const step = (action: WorkflowStepPlan['action']): WorkflowStepPlan => ({ action, target: inviteeId, userId, amountPaise, utr: '', line: 0, refusal: action === 'count_bonus' ? refusal : '' });
  const workflowId = bonusWorkflowId(inviteeId, beneficiary);
  await startWorkflow(deps, {
    workflowId,
    kind: 'invitation_bonus',
    batchId: '',
    by: 'system',
    steps: [step('count_bonus'), step('record_bonus'), step('credit_bonus')],
    approvalThresholdPaise: 0,
  });
  return driveWorkflow(deps, workflowId, invitationBonusWorkflow);
}

/**
 * Decides every bonus whose moment came: the invited person's after their first approved task, the
 * inviter's after the invited person's first paid withdrawal. The `invitations` read model records
 * when each milestone was reached, so only the invitations with a bonus due are read, however many
 * wait. Run every minute by each process (and at start); any number may run at once, since each bonus
 * is a workflow of its own id. Answers how many bonuses it decided; one that fails is logged and left
 * for the next run.
 */
export async function sweepInvitations(deps: AppDeps, log: (line: string) => void = () => {}): Promise<number> {
  let decided = 0;
  // First the bonuses a crash left half-done. No request waits to retry them, so they are resumed at
  // once rather than after the general sweep's minute (their steps are keyed; two drivers are safe).
  for (const row of await unfinishedWorkflows(deps.db, deps.now().toISOString())) {
    if (row.kind !== invitationBonusWorkflow.kind) continue;
    try {
      await driveWorkflow(deps, row.id, invitationBonusWorkflow);
      decided++;
    } catch (err) {
      log(`[invitations] ${row.id}: not finished yet: ${String(err)}`);
    }
  }
  // What is due is read from the read model: it must hold every milestone already in the log (an
  // approval answered a moment ago), or a sweep run right after it would find nothing due.
  await deps.runner.waitFor(await deps.store.headPosition());
  for (const row of await dueInvitations(deps.db)) {
    try {
      if (row.invitee_status === 'pending' && row.approved_at !== null) {
        await award(deps, row.invitee_id, 'invitee');
        decided++;
      }
      if (row.inviter_status === 'pending' && row.paid_at !== null) {
        await award(deps, row.invitee_id, 'inviter');
        decided++;
      }
    } catch (err) {
      log(`[invitations] ${row.invitee_id}: not decided yet: ${String(err)}`);
    }
  }
  return decided;
}

/** The events after which a bonus may be due: an approval (an overturned appeal too), a paid withdrawal. */
const MILESTONES = ['ProofApproved', 'AppealDecided', 'WithdrawalPaid'] as const;

/**
 * Runs the sweep soon after this process appends a milestone (read by header only: nothing personal
 * is opened), so a bonus follows its approval or payout within moments rather than at the next
 * minute's sweep, which still catches what other processes appended. A store without change
 * signals and synchronous reads (PostgreSQL, KurrentDB) relies on the minute's sweep alone.
 */
export function followInvitationMilestones(deps: AppDeps, log: (line: string) => void): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        // The sweep waits for the read model to hold this milestone before it reads what is due.
        await sweepInvitations(deps, log);
      } while (again);
    })()
      .catch((err) => log(`[invitations] sweep failed: ${String(err)}`))
      .finally(() => (running = null));
  };
  const unhook = onOwnAppendsOf(deps.store, MILESTONES, run);
  return {
    async stop() {
      unhook();
      await running;
    },
  };
}
