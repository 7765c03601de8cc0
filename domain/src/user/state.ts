import type { UserEvent } from '@kamai/contracts';
import type { Evolver } from '../decider.ts';
import { assertNever } from '../errors.ts';
import { type AccountState, evolveAccount, initialAccountState } from './account.ts';
import { type AdjustmentsState, evolveAdjustments, initialAdjustmentsState } from './adjustments.ts';
import { type NotificationsState, evolveNotifications, initialNotificationsState } from './notifications.ts';
import { type UserTasksState, evolveUserTasks, initialUserTasksState } from './tasks.ts';
import { type WalletState, evolveWallet, initialWalletState } from './wallet.ts';
import { type WithdrawalsState, evolveWithdrawals, initialWithdrawalsState } from './withdrawals.ts';

/**
 * The state of one `user-<id>` stream: each business area keeps its own part, evolved by its own
 * function. One stream per user serialises every decision about that user's money.
 */
export interface UserState {
  account: AccountState;
  wallet: WalletState;
  notifications: NotificationsState;
  tasks: UserTasksState;
  withdrawals: WithdrawalsState;
  adjustments: AdjustmentsState;
}

export const userEvolver: Evolver<UserState, UserEvent> = {
  initialState: () => ({
    account: initialAccountState(),
    wallet: initialWalletState(),
    notifications: initialNotificationsState(),
    tasks: initialUserTasksState(),
    withdrawals: initialWithdrawalsState(),
    adjustments: initialAdjustmentsState(),
  }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'UserRegistered':
      case 'ProfileUpdated':
      case 'RoleGranted':
      case 'RoleRevoked':
        return { ...state, account: evolveAccount(state.account, event) };
      case 'WalletCredited':
      case 'WalletDebited':
        return { ...state, wallet: evolveWallet(state.wallet, event) };
      case 'NotificationSent':
      case 'NotificationRead':
      case 'AllNotificationsRead':
      case 'NotificationDeleted':
        return { ...state, notifications: evolveNotifications(state.notifications, event) };
      case 'ProofSubmitted':
      case 'ProofApproved':
      case 'ProofRejected':
        return { ...state, tasks: evolveUserTasks(state.tasks, event) };
      case 'WithdrawalRequested':
      case 'WithdrawalPaid':
      case 'WithdrawalRejected':
        return { ...state, withdrawals: evolveWithdrawals(state.withdrawals, event) };
      case 'PasswordChanged':
        // The hash lives in the read model for sign-in; no decision here depends on it.
        return state;
      case 'AdjustmentRequested':
      case 'AdjustmentApproved':
      case 'AdjustmentRejected':
        return { ...state, adjustments: evolveAdjustments(state.adjustments, event) };
      default:
        return assertNever(event);
    }
  },
};
