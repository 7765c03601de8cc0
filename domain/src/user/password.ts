import { msg } from '@kamai/contracts';
import type { UserEvent } from '@kamai/contracts';
import { DomainError } from '../errors.ts';
import type { AccountState } from './account.ts';

/** A new password hash for the user; the API checks the current password before it asks. */
export interface ChangePassword {
  type: 'ChangePassword';
  data: { passwordHash: string };
  now: string;
}

export function decideChangePassword(command: ChangePassword, account: AccountState): UserEvent[] {
  if (!account.registered) throw new DomainError('not_found', msg('api.noSuchUser'));
  return [{ type: 'PasswordChanged', data: { passwordHash: command.data.passwordHash, changedAt: command.now } }];
}
