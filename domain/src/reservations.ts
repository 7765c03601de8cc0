import { msg } from '@kamai/contracts';
import type { MobileEvent, SESSION_END_REASONS, SessionEvent } from '@kamai/contracts';
import type { Decider, Evolver } from './decider.ts';
import { DomainError, assertNever } from './errors.ts';

/** `mobile-<keyed hash>`: who holds this mobile number, if anyone, and under which reservation. */
export interface MobileState {
  userId: string | null;
  /** The holding's id, whose key seals the number and the holder ('' for reservations from before it). */
  reservationId: string;
}

export const mobileEvolver: Evolver<MobileState, MobileEvent> = {
  initialState: () => ({ userId: null, reservationId: '' }),
  evolve: (_state, event) =>
    event.type === 'MobileReserved' ? { userId: event.data.userId, reservationId: event.data.reservationId } : { userId: null, reservationId: '' },
};

export function decideReserveMobile(
  command: { mobile: string; userId: string; reservationId: string; now: string },
  state: MobileState,
): MobileEvent[] {
  if (state.userId !== null) throw new DomainError('conflict', msg('api.mobileTaken'), { mobile: msg('api.mobileTaken') });
  const { mobile, userId, reservationId, now } = command;
  return [{ type: 'MobileReserved', data: { mobile, userId, reservedAt: now, reservationId } }];
}

/** `session-<id>`: one signed-in session. */
export interface SessionState {
  userId: string | null;
  expiresAt: string | null;
  lastSeenAt: string | null;
  ended: boolean;
}

export const sessionEvolver: Evolver<SessionState, SessionEvent> = {
  initialState: () => ({ userId: null, expiresAt: null, lastSeenAt: null, ended: false }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'SessionStarted':
        return { userId: event.data.userId, expiresAt: event.data.expiresAt, lastSeenAt: event.data.startedAt, ended: false };
      case 'SessionSeen':
        return { ...state, lastSeenAt: event.data.seenAt };
      case 'SessionEnded':
        return { ...state, ended: true };
      default:
        return state;
    }
  },
};

export function decideStartSession(
  command: { sessionId: string; userId: string; now: string; expiresAt: string; device?: string },
  state: SessionState,
): SessionEvent[] {
  if (state.userId !== null) throw new DomainError('conflict', msg('api.sessionExists'));
  const { sessionId, userId, now, expiresAt, device } = command;
  return [{ type: 'SessionStarted', data: { sessionId, userId, startedAt: now, expiresAt, ...(device !== undefined && { device }) } }];
}

export function decideEndSession(
  command: { sessionId: string; now: string; reason?: (typeof SESSION_END_REASONS)[number] },
  state: SessionState,
): SessionEvent[] {
  if (state.userId === null || state.ended) return [];
  const { sessionId, now, reason } = command;
  return [{ type: 'SessionEnded', data: { sessionId, endedAt: now, ...(reason !== undefined && { reason }) } }];
}

/** How often "last seen" is recorded at most: a request does not append an event each time. */
export const SESSION_SEEN_EVERY_MS = 5 * 60_000;

/** Records that a live session was used, unless that was recorded less than SESSION_SEEN_EVERY_MS ago. */
export function decideSeeSession(command: { sessionId: string; now: string }, state: SessionState): SessionEvent[] {
  if (state.userId === null || state.ended) return [];
  if (state.lastSeenAt && Date.parse(command.now) - Date.parse(state.lastSeenAt) < SESSION_SEEN_EVERY_MS) return [];
  return [{ type: 'SessionSeen', data: { sessionId: command.sessionId, seenAt: command.now } }];
}

/** Frees the number of an erased holder; releasing a number someone else now holds changes nothing. */
export function decideReleaseMobile(command: { userId: string; now: string }, state: MobileState): MobileEvent[] {
  if (state.userId !== command.userId) return [];
  return [{ type: 'MobileReleased', data: { userId: command.userId, releasedAt: command.now, reservationId: state.reservationId } }];
}

export type MobileCommand =
  | { type: 'ReserveMobile'; mobile: string; userId: string; reservationId: string; now: string }
  | { type: 'ReleaseMobile'; userId: string; now: string };

/** The decider of `mobile-<keyed hash>`. */
export const mobileDecider: Decider<MobileState, MobileCommand, MobileEvent> = {
  ...mobileEvolver,
  decide: (command, state) => (command.type === 'ReserveMobile' ? decideReserveMobile(command, state) : decideReleaseMobile(command, state)),
};

export type SessionCommand =
  | { type: 'StartSession'; sessionId: string; userId: string; now: string; expiresAt: string; device?: string }
  | { type: 'EndSession'; sessionId: string; now: string; reason?: (typeof SESSION_END_REASONS)[number] }
  | { type: 'SeeSession'; sessionId: string; now: string };

/** The decider of `session-<id>`. */
export const sessionDecider: Decider<SessionState, SessionCommand, SessionEvent> = {
  ...sessionEvolver,
  decide: (command, state) => {
    switch (command.type) {
      case 'StartSession':
        return decideStartSession(command, state);
      case 'EndSession':
        return decideEndSession(command, state);
      case 'SeeSession':
        return decideSeeSession(command, state);
      default:
        return assertNever(command);
    }
  },
};
