import type { UserEvent } from '@kamai/contracts';
import { DomainError } from '../errors.ts';
import type { UserState } from './state.ts';

/** A new password hash for the user; the API checks the current password before it asks. */
export interface ChangePassword {
  type: 'ChangePassword';
  data: { passwordHash: string };
  now: string;
}

export function decideChangePassword(command: ChangePassword, state: UserState): UserEvent[] {
  if (!state.account.registered) throw new DomainError('not_found', 'No such user');
  return [{ type: 'PasswordChanged', data: { passwordHash: command.data.passwordHash, changedAt: command.now } }];
}
