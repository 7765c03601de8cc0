import type { UserEvent } from '@kamai/contracts';
import type { Evolver, SnapshotCodec } from '../decider.ts';
import type { Json } from '../event-store.ts';
import { assertNever } from '../errors.ts';
import { type AccountState, evolveAccount, initialAccountState } from './account.ts';
import { type DeletionState, evolveDeletion, initialDeletionState } from './deletion.ts';
import { type KycState, type KycSubmissionRecord, evolveKyc, initialKycState } from './kyc.ts';
import { type AdjustmentsState, type PendingAdjustment, type MemberAdjustments, evolveAdjustmentEntry, evolveAdjustments, initialAdjustmentsState } from './adjustments.ts';
import { type SubmissionRecord, type UserTaskRecord, type UserTasksState, evolveUserTasks, initialUserTasksState } from './tasks.ts';
import { type WalletState, evolveWallet, initialWalletState } from './wallet.ts';
import { type TaxYearsState, carryTaxYears, countCredit, countDebit, countWithheld, initialTaxYearsState } from './tax-years.ts';
import type { TaxYear } from '../tax/withholding.ts';
import { type WithdrawalRecord, type WithdrawalsState, evolveWithdrawals, initialWithdrawalsState } from './withdrawals.ts';

/**
 * The state of one `user-<id>` stream: each business area keeps its own part, evolved by its own
 * function. One stream per user serialises every decision about that user's money. A new area adds
 * one part here and one case in `evolve` (and its commands in ./decider.ts).
 */
export interface UserState {
  account: AccountState;
  wallet: WalletState;
  tasks: UserTasksState;
  withdrawals: WithdrawalsState;
  kyc: KycState;
  adjustments: AdjustmentsState;
  deletion: DeletionState;
  /** The year's credits the tax rules count and the tax withheld (docs/tax.md). */
  taxYears: TaxYearsState;
}

export const userEvolver: Evolver<UserState, UserEvent> = {
  initialState: () => ({
    account: initialAccountState(),
    wallet: initialWalletState(),
    tasks: initialUserTasksState(),
    withdrawals: initialWithdrawalsState(),
    kyc: initialKycState(),
    adjustments: initialAdjustmentsState(),
    deletion: initialDeletionState(),
    taxYears: initialTaxYearsState(),
  }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'UserRegistered':
      case 'ProfileUpdated':
      case 'RoleGranted':
      case 'RoleRevoked':
      case 'AccountSuspended':
      case 'AccountUnsuspended':
      case 'ConsentGiven':
        state.account = evolveAccount(state.account, event);
        return state;
      case 'WalletCredited':
      case 'WalletDebited':
        state.wallet = evolveWallet(state.wallet, event);
        state.adjustments = evolveAdjustmentEntry(state.adjustments, event);
        if (event.type === 'WalletCredited') {
          state.taxYears = countCredit(state.taxYears, event.data.kind, event.data.amountPaise, event.data.creditedAt, event.data.effectiveDate);
        } else {
          state.taxYears = countDebit(state.taxYears, event.data.kind, event.data.amountPaise, event.data.debitedAt, event.data.effectiveDate);
        }
        return state;
      case 'NotificationSent':
      case 'NotificationRead':
      case 'AllNotificationsRead':
      case 'NotificationDeleted':
        // Read, mark-all and delete are decided on the read model (./notifications.ts): nothing kept.
        return state;
      case 'TaskStarted':
      case 'ProofSubmitted':
      case 'ProofApproved':
      case 'ProofRejected':
      case 'ProofChangesRequested':
      case 'ProofResubmitted':
      case 'AppealOpened':
      case 'AppealDecided':
        state.tasks = evolveUserTasks(state.tasks, event);
        return state;
      case 'WithdrawalRequested':
        state.taxYears = countWithheld(state.taxYears, event.data.taxes ?? [], event.data.requestedAt, 1);
        state.withdrawals = evolveWithdrawals(state.withdrawals, event);
        return state;
      case 'WithdrawalRejected':
      case 'WithdrawalFailed':
      case 'WithdrawalReversed': {
        // Its tax is given back with it (the decider credits it in the same append): the year it was withheld in no longer counts it.
        const record = state.withdrawals.byId.get(event.data.withdrawalId);
        if (record?.taxes) state.taxYears = countWithheld(state.taxYears, record.taxes, record.requestedAt, -1);
        state.withdrawals = evolveWithdrawals(state.withdrawals, event);
        return state;
      }
      case 'WithdrawalPaid':
      case 'WithdrawalProcessing':
        state.withdrawals = evolveWithdrawals(state.withdrawals, event);
        return state;
      case 'KycDocumentApproved':
        // A PAN approval that claimed its payee starts from the year's totals paid under the PAN before.
        if (event.data.carried) state.taxYears = carryTaxYears(state.taxYears, event.data.carried);
        state.kyc = evolveKyc(state.kyc, event);
        return state;
      case 'KycDocumentSubmitted':
      case 'KycDocumentRejected':
      case 'KycBonusClaimed':
        state.kyc = evolveKyc(state.kyc, event);
        return state;
      case 'PasswordChanged':
        // The hash lives in the read model for sign-in; no decision here depends on it.
        return state;
      case 'AdjustmentRequested':
      case 'AdjustmentApproved':
      case 'AdjustmentRejected':
        state.adjustments = evolveAdjustments(state.adjustments, event);
        return state;
      case 'DeletionRequested':
      case 'DeletionCancelled':
      case 'UserErased':
        state.deletion = evolveDeletion(state.deletion, event);
        return state;
      case 'PushSubscribed':
      case 'PushUnsubscribed':
      case 'PushAlertsChosen':
        // Kept by the alert sender (apps/api/src/push); no decision here depends on them.
        return state;
      default:
        return assertNever(event);
    }
  },
};

type Entries<V> = [string, V][];

/**
 * The user state as JSON: Maps and Sets as arrays of entries. Version 8 (each finance member's recent
 * adjustments, for the money controls; suspension and task starts; the deletion request; no
 * notifications, only the withdrawals finance has not finished with and the newest paid ones, with
 * their payout states: the state is bounded whatever the history); bump it when the state's shape or
 * any area's evolve changes, so snapshots folded by the old logic are not trusted.
 */
export const userSnapshot: SnapshotCodec<UserState> = {
  // 9: the account's consentPolicyVersion (a consent record, or null: asked at the next sign-in).
  // 10: change requests, rejections' reviewer and time, appeals (issue 36).
  // 11: the tax years (credits the rules count, tax withheld), PAN numbers on KYC records, withdrawals' taxes (issue 38).
  // 12: adjustment debits lower the tax year's adjustment total; dated entries count in their effective day's year.
  // 13: the paid withdrawals kept, in the order paid, and the open ones' count and sum (issue 39).
  version: 13,
  save: (state) =>
    ({
      account: state.account,
      wallet: state.wallet,
      tasks: { byTask: [...state.tasks.byTask], submissions: [...state.tasks.submissions], started: [...state.tasks.started], appeals: [...state.tasks.appeals] },
      withdrawals: { byId: [...state.withdrawals.byId], paid: [...state.withdrawals.paid], open: { ...state.withdrawals.open }, lastDestination: state.withdrawals.lastDestination },
      kyc: { latest: state.kyc.latest, submissions: [...state.kyc.submissions], bonusClaimed: state.kyc.bonusClaimed },
      adjustments: { pending: [...state.adjustments.pending], decided: [...state.adjustments.decided], byMember: [...state.adjustments.byMember] },
      deletion: state.deletion,
      taxYears: [...state.taxYears.byYear],
    }) as unknown as Json,
  // Pending withdrawals have no bound (finance may leave many unpaid): they, and the task records,
  // are what can make a user's state large.
  records: (state) =>
    state.tasks.byTask.size +
    state.tasks.submissions.size +
    state.tasks.started.size +
    state.tasks.appeals.size +
    state.withdrawals.byId.size +
    state.kyc.submissions.size +
    state.adjustments.pending.size +
    state.adjustments.decided.size +
    state.adjustments.byMember.size,
  load: (json) => {
    const saved = json as unknown as {
      account: AccountState;
      wallet: WalletState;
      tasks: { byTask: Entries<UserTaskRecord>; submissions: Entries<SubmissionRecord>; started: Entries<string>; appeals: Entries<string> };
      withdrawals: { byId: Entries<WithdrawalRecord>; paid: string[]; open: WithdrawalsState['open']; lastDestination: WithdrawalsState['lastDestination'] };
      kyc: { latest: KycState['latest']; submissions: Entries<KycSubmissionRecord>; bonusClaimed: boolean };
      adjustments: { pending: Entries<PendingAdjustment>; decided: Entries<'approved' | 'rejected'>; byMember: Entries<MemberAdjustments> };
      deletion: DeletionState;
      taxYears: Entries<TaxYear>;
    };
    const { account, wallet, tasks, withdrawals, kyc, adjustments, deletion, taxYears } = saved;
    if (typeof account?.registered !== 'boolean' || typeof wallet?.balance !== 'number' || typeof deletion !== 'object') throw new Error('not a user snapshot');
    return {
      account,
      wallet,
      tasks: { byTask: new Map(tasks.byTask), submissions: new Map(tasks.submissions), started: new Map(tasks.started), appeals: new Map(tasks.appeals) },
      withdrawals: { byId: new Map(withdrawals.byId), paid: new Set(withdrawals.paid), open: { ...withdrawals.open }, lastDestination: withdrawals.lastDestination },
      kyc: { latest: { ...kyc.latest }, submissions: new Map(kyc.submissions), bonusClaimed: kyc.bonusClaimed },
      adjustments: { pending: new Map(adjustments.pending), decided: new Map(adjustments.decided), byMember: new Map(adjustments.byMember.map(([by, m]) => [by, { lastAt: m.lastAt, hours: m.hours.map(([h, p]) => [h, p]) }])) },
      deletion: { ...deletion },
      taxYears: { byYear: new Map(taxYears ?? []) },
    };
  },
};
