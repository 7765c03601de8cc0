import type { UserEvent } from '@kamai/contracts';
import { deciderSpec } from '../testing/spec.ts';
import { userDecider, type UserCommand } from './decider.ts';
import { userEvolver, type UserState } from './state.ts';

/** What the user decider's specs share: the spec runner, and the registration of user u1 (Asha Rao). */
export const userSpec = deciderSpec<UserState, UserEvent, UserCommand>(userEvolver, userDecider.decide);

export const registeredAt = (registeredAt: string): UserEvent => ({
  type: 'UserRegistered',
  data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt },
});
