import type { UserEvent, WithdrawalDestination } from '@kamai/contracts';
import type { Evolver, SnapshotCodec } from '../decider.ts';
import type { Json } from '../event-store.ts';
import { assertNever } from '../errors.ts';
import { type AccountState, evolveAccount, initialAccountState } from './account.ts';
import { type DeletionState, evolveDeletion, initialDeletionState } from './deletion.ts';
import { type KycState, type KycSubmissionRecord, evolveKyc, initialKycState } from './kyc.ts';
import { type AdjustmentsState, type PendingAdjustment, type MemberAdjustments, evolveAdjustmentEntry, evolveAdjustments, initialAdjustmentsState } from './adjustments.ts';
import { type SubmissionRecord, type UserTaskRecord, type UserTasksState, evolveUserTasks, initialUserTasksState } from './tasks.ts';
import { type WalletState, evolveWallet, initialWalletState } from './wallet.ts';
import { type TaxYearsState, type WithheldTax, carryTaxYears, countCredit, countDebit, countWithheld, initialTaxYearsState } from './tax-years.ts';
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
 * A withdrawal record as a snapshot keeps it: a tuple (no property names), its destination an index
 * into the snapshot's list of destinations (a user's requests mostly go to one or two), and the
 * trailing fields left out while they hold their defaults (status pending, the rest null). Pending
 * requests have no bound, so this is what a large state's snapshot is made of: a pending UPI request
 * takes about 80 bytes where the record as JSON took 240 (issue 39).
 */
type SavedWithdrawal = [
  id: string,
  amountPaise: number,
  requestedAt: string,
  destination: number,
  status?: WithdrawalRecord['status'],
  processedAt?: string | null,
  reference?: string | null,
  reason?: string | null,
  batchId?: string | null,
  taxes?: WithheldTax[] | null,
];

interface SavedWithdrawals {
  records: SavedWithdrawal[];
  destinations: WithdrawalDestination[];
  paid: string[];
  open: WithdrawalsState['open'];
  lastDestination: WithdrawalDestination | null;
}

/** Same destination, same key: its fields joined by a character none of them holds. */
const destinationKey = (d: WithdrawalDestination): string => (d.kind === 'upi' ? `u\0${d.upiId}` : `b\0${d.accountNumber}\0${d.ifsc}\0${d.holderName}`);

function saveWithdrawals(state: WithdrawalsState): SavedWithdrawals {
  const destinations: WithdrawalDestination[] = [];
  const indexOf = new Map<string, number>();
  const records: SavedWithdrawal[] = [];
  for (const [id, r] of state.byId) {
    const key = destinationKey(r.destination);
    let index = indexOf.get(key);
    if (index === undefined) {
      index = destinations.push(r.destination) - 1;
      indexOf.set(key, index);
    }
    const taxes = r.taxes && r.taxes.length > 0 ? r.taxes : null;
    const row: SavedWithdrawal = [id, r.amountPaise, r.requestedAt, index, r.status, r.processedAt, r.reference, r.reason, r.batchId ?? null, taxes];
    // Trailing defaults are left out: a pending request is its first four fields.
    let end = row.length;
    while (end > 4 && row[end - 1] === (end === 5 ? 'pending' : null)) end--;
    records.push(end === row.length ? row : (row.slice(0, end) as SavedWithdrawal));
  }
  return { records, destinations, paid: [...state.paid], open: { ...state.open }, lastDestination: state.lastDestination };
}

function loadWithdrawals(saved: SavedWithdrawals): WithdrawalsState {
  const byId = new Map<string, WithdrawalRecord>();
  for (const [id, amountPaise, requestedAt, index, status, processedAt, reference, reason, batchId, taxes] of saved.records) {
    const destination = saved.destinations[index];
    if (!destination) throw new Error('not a user snapshot: a withdrawal without its destination');
    byId.set(id, {
      amountPaise,
      status: status ?? 'pending',
      destination,
      requestedAt,
      processedAt: processedAt ?? null,
      reference: reference ?? null,
      reason: reason ?? null,
      batchId: batchId ?? null,
      ...(taxes && { taxes }),
    });
  }
  return { byId, paid: new Set(saved.paid), open: { ...saved.open }, lastDestination: saved.lastDestination };
}

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
  // 14: withdrawal records as tuples with their destinations listed once (SavedWithdrawal, issue 39).
  version: 14,
  save: (state) =>
    ({
      account: state.account,
      wallet: state.wallet,
      tasks: { byTask: [...state.tasks.byTask], submissions: [...state.tasks.submissions], started: [...state.tasks.started], appeals: [...state.tasks.appeals] },
      withdrawals: saveWithdrawals(state.withdrawals),
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
      withdrawals: SavedWithdrawals;
      kyc: { latest: KycState['latest']; submissions: Entries<KycSubmissionRecord>; bonusClaimed: boolean };
      adjustments: { pending: Entries<PendingAdjustment>; decided: Entries<'approved' | 'rejected'>; byMember: Entries<MemberAdjustments> };
      deletion: DeletionState;
      taxYears: Entries<TaxYear>;
    };
    const { account, wallet, tasks, withdrawals, kyc, adjustments, deletion, taxYears } = saved;
    if (typeof account?.registered !== 'boolean' || typeof wallet?.balance !== 'number' || typeof deletion !== 'object' || !Array.isArray(withdrawals?.records)) throw new Error('not a user snapshot');
    return {
      account,
      wallet,
      tasks: { byTask: new Map(tasks.byTask), submissions: new Map(tasks.submissions), started: new Map(tasks.started), appeals: new Map(tasks.appeals) },
      withdrawals: loadWithdrawals(withdrawals),
      kyc: { latest: { ...kyc.latest }, submissions: new Map(kyc.submissions), bonusClaimed: kyc.bonusClaimed },
      adjustments: { pending: new Map(adjustments.pending), decided: new Map(adjustments.decided), byMember: new Map(adjustments.byMember.map(([by, m]) => [by, { lastAt: m.lastAt, hours: m.hours.map(([h, p]) => [h, p]) }])) },
      deletion: { ...deletion },
      taxYears: { byYear: new Map(taxYears ?? []) },
    };
  },
};
