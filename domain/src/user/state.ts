import type { UserEvent } from '@kamai/contracts';
import type { Evolver } from '../decider.ts';
import { type AccountState, evolveAccount, initialAccountState } from './account.ts';

/**
 * The state of one `user-<id>` stream: each business area keeps its own part, evolved by its own
 * function. One stream per user serialises every decision about that user's money.
 */
export interface UserState {
  account: AccountState;
}

export const userEvolver: Evolver<UserState, UserEvent> = {
  initialState: () => ({ account: initialAccountState() }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'UserRegistered':
      case 'ProfileUpdated':
      case 'RoleGranted':
      case 'RoleRevoked':
        return { ...state, account: evolveAccount(state.account, event) };
      default:
        return state;
    }
  },
};
