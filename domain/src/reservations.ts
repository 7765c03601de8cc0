import type { MobileEvent, SessionEvent } from '@kamai/contracts';
import type { Decider, Evolver } from './decider.ts';
import { DomainError, assertNever } from './errors.ts';

/** `mobile-<digits>`: who holds this mobile number, if anyone. */
export interface MobileState {
  userId: string | null;
}

export const mobileEvolver: Evolver<MobileState, MobileEvent> = {
  initialState: () => ({ userId: null }),
  evolve: (_state, event) => ({ userId: event.data.userId }),
};

export function decideReserveMobile(
  command: { mobile: string; userId: string; now: string },
  state: MobileState,
): MobileEvent[] {
  if (state.userId !== null) throw new DomainError('conflict', 'This mobile number is already registered', { mobile: 'This mobile number is already registered' });
  return [{ type: 'MobileReserved', data: { mobile: command.mobile, userId: command.userId, reservedAt: command.now } }];
}

/** `session-<id>`: one signed-in session. */
export interface SessionState {
  userId: string | null;
  expiresAt: string | null;
  ended: boolean;
}

export const sessionEvolver: Evolver<SessionState, SessionEvent> = {
  initialState: () => ({ userId: null, expiresAt: null, ended: false }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'SessionStarted':
        return { userId: event.data.userId, expiresAt: event.data.expiresAt, ended: false };
      case 'SessionEnded':
        return { ...state, ended: true };
      default:
        return state;
    }
  },
};

export function decideStartSession(
  command: { sessionId: string; userId: string; now: string; expiresAt: string },
  state: SessionState,
): SessionEvent[] {
  if (state.userId !== null) throw new DomainError('conflict', 'Session already exists');
  return [
    {
      type: 'SessionStarted',
      data: { sessionId: command.sessionId, userId: command.userId, startedAt: command.now, expiresAt: command.expiresAt },
    },
  ];
}

export function decideEndSession(command: { sessionId: string; now: string }, state: SessionState): SessionEvent[] {
  if (state.userId === null || state.ended) return [];
  return [{ type: 'SessionEnded', data: { sessionId: command.sessionId, endedAt: command.now } }];
}

/** The decider of `mobile-<digits>`. */
export const mobileDecider: Decider<MobileState, { type: 'ReserveMobile'; mobile: string; userId: string; now: string }, MobileEvent> = {
  ...mobileEvolver,
  decide: (command, state) => decideReserveMobile(command, state),
};

export type SessionCommand =
  | { type: 'StartSession'; sessionId: string; userId: string; now: string; expiresAt: string }
  | { type: 'EndSession'; sessionId: string; now: string };

/** The decider of `session-<id>`. */
export const sessionDecider: Decider<SessionState, SessionCommand, SessionEvent> = {
  ...sessionEvolver,
  decide: (command, state) => {
    switch (command.type) {
      case 'StartSession':
        return decideStartSession(command, state);
      case 'EndSession':
        return decideEndSession(command, state);
      default:
        return assertNever(command);
    }
  },
};
