import { SUSPEND_REASON_MAX_LENGTH, type UserEvent, msg } from '@kamai/contracts';
import { DomainError } from '../errors.ts';
import { notify } from './notifications.ts';
import type { UserState } from './state.ts';

export type SuspensionCommand =
  | { type: 'SuspendUser'; data: { reason: string; by: string; notificationId: string }; now: string }
  | { type: 'UnsuspendUser'; data: { by: string; notificationId: string }; now: string };

/**
 * An admin suspends or restores an account. Each change tells the user why (a notification) and is
 * refused when it would change nothing, so the audit list shows only real changes. Nobody suspends
 * themselves: an admin locking their own account out is a mistake, never a decision.
 */
export function decideSuspension(command: SuspensionCommand, state: UserState): UserEvent[] {
  const account = state.account;
  if (!account.registered) throw new DomainError('not_found', msg('api.noSuchUser'));
  if (command.data.by === account.userId) throw new DomainError('forbidden', msg('suspension.own'));
  const { notificationId, by } = command.data;
  if (command.type === 'SuspendUser') {
    const reason = command.data.reason.trim();
    if (reason.length === 0 || reason.length > SUSPEND_REASON_MAX_LENGTH) {
      const message = reason.length === 0 ? msg('suspension.reason') : msg('suspension.reasonTooLong');
      throw new DomainError('invalid', message, { reason: message });
    }
    if (account.suspended) throw new DomainError('conflict', msg('suspension.alreadySuspended'));
    return [
      { type: 'AccountSuspended', data: { reason, suspendedBy: by, suspendedAt: command.now } },
      notify({ notificationId, key: 'account_suspended', params: { reason }, kind: 'warning', now: command.now }),
    ];
  }
  if (!account.suspended) throw new DomainError('conflict', msg('suspension.notSuspended'));
  return [
    { type: 'AccountUnsuspended', data: { unsuspendedBy: by, unsuspendedAt: command.now } },
    notify({ notificationId, key: 'account_unsuspended', params: {}, kind: 'success', now: command.now }),
  ];
}
