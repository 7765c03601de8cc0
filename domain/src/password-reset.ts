import { PASSWORD_RESET_CODE_INVALID, type PasswordResetEvent } from '@kamai/contracts';
import type { Decider } from './decider.ts';
import { DomainError, assertNever } from './errors.ts';

/** `password-reset-<userId>`: the latest code sent to reset the user's password. */
export interface PasswordResetState {
  codeHash: string | null;
  expiresAt: string | null;
  used: boolean;
}

/** A new code (its HMAC) replaces any earlier one, used or not. */
export interface IssuePasswordResetCode {
  type: 'IssuePasswordResetCode';
  userId: string;
  codeHash: string;
  expiresAt: string;
  now: string;
}

/** The code typed, as its HMAC: accepted once, before it expires, and only the latest one. */
export interface UsePasswordResetCode {
  type: 'UsePasswordResetCode';
  userId: string;
  codeHash: string;
  now: string;
}

export type PasswordResetCommand = IssuePasswordResetCode | UsePasswordResetCode;

export const passwordResetDecider: Decider<PasswordResetState, PasswordResetCommand, PasswordResetEvent> = {
  initialState: () => ({ codeHash: null, expiresAt: null, used: false }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'PasswordResetCodeIssued':
        return { codeHash: event.data.codeHash, expiresAt: event.data.expiresAt, used: false };
      case 'PasswordResetCodeUsed':
        return { ...state, used: true };
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'IssuePasswordResetCode':
        return [
          { type: 'PasswordResetCodeIssued', data: { userId: command.userId, codeHash: command.codeHash, issuedAt: command.now, expiresAt: command.expiresAt } },
        ];
      case 'UsePasswordResetCode': {
        const valid =
          state.codeHash !== null && !state.used && state.expiresAt !== null && Date.parse(command.now) < Date.parse(state.expiresAt) && state.codeHash === command.codeHash;
        if (!valid) throw new DomainError('invalid', PASSWORD_RESET_CODE_INVALID, { code: PASSWORD_RESET_CODE_INVALID }, 'invalid_code');
        return [{ type: 'PasswordResetCodeUsed', data: { userId: command.userId, usedAt: command.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};
