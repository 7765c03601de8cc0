import type { MobileEvent, SessionEvent } from '@kamai/contracts';
import type { Evolver } from './decider.ts';
import { DomainError } from './errors.ts';

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
