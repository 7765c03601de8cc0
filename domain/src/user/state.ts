import type { UserEvent } from '@kamai/contracts';
import type { Evolver } from '../decider.ts';
import { assertNever } from '../errors.ts';
import { type AccountState, evolveAccount, initialAccountState } from './account.ts';
import { type NotificationsState, evolveNotifications, initialNotificationsState } from './notifications.ts';
import { type UserTasksState, evolveUserTasks, initialUserTasksState } from './tasks.ts';
import { type WalletState, evolveWallet, initialWalletState } from './wallet.ts';
import { type WithdrawalsState, evolveWithdrawals, initialWithdrawalsState } from './withdrawals.ts';

/**
 * The state of one `user-<id>` stream: each business area keeps its own part, evolved by its own
 * function. One stream per user serialises every decision about that user's money. A new area adds
 * one part here and one case in `evolve` (and its commands in ./decider.ts).
 */
export interface UserState {
  account: AccountState;
  wallet: WalletState;
  notifications: NotificationsState;
  tasks: UserTasksState;
  withdrawals: WithdrawalsState;
}

export const userEvolver: Evolver<UserState, UserEvent> = {
  initialState: () => ({
    account: initialAccountState(),
    wallet: initialWalletState(),
    notifications: initialNotificationsState(),
    tasks: initialUserTasksState(),
    withdrawals: initialWithdrawalsState(),
  }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'UserRegistered':
      case 'ProfileUpdated':
      case 'RoleGranted':
      case 'RoleRevoked':
        state.account = evolveAccount(state.account, event);
        return state;
      case 'WalletCredited':
      case 'WalletDebited':
        state.wallet = evolveWallet(state.wallet, event);
        return state;
      case 'NotificationSent':
      case 'NotificationRead':
      case 'AllNotificationsRead':
      case 'NotificationDeleted':
        state.notifications = evolveNotifications(state.notifications, event);
        return state;
      case 'ProofSubmitted':
      case 'ProofApproved':
      case 'ProofRejected':
        state.tasks = evolveUserTasks(state.tasks, event);
        return state;
      case 'WithdrawalRequested':
      case 'WithdrawalPaid':
      case 'WithdrawalRejected':
        state.withdrawals = evolveWithdrawals(state.withdrawals, event);
        return state;
      default:
        return assertNever(event);
    }
  },
};
