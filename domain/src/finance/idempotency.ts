import { IDEMPOTENCY_RETENTION_HOURS, type IdempotencyEvent } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import type { Json } from '../event-store.ts';
import { DomainError, assertNever } from '../errors.ts';

/** `idempotency-<hash>`: the latest reservation of a caller's key and how its command ended. */
export interface IdempotencyState {
  requestHash: string | null;
  reservedAt: string | null;
  /** Tags the events the reserved command appends; '' for a reservation from before tokens. */
  token: string;
  completed: { status: number; error: Json | null } | null;
  /** A whole response recorded by the older shape (IdempotentResponseRecorded). */
  legacyResponse: { status: number; body: Json } | null;
}

export type IdempotencyCommand =
  | { type: 'ReserveIdempotencyKey'; data: { caller: string; requestHash: string; method: string; path: string; token: string }; now: string }
  | { type: 'CompleteIdempotentCommand'; data: { token: string; status: number; error: Json | null }; now: string };

export const IDEMPOTENCY_KEY_REUSED = 'This Idempotency-Key was already used for a different request';

const RETENTION_MS = IDEMPOTENCY_RETENTION_HOURS * 3_600_000;

/** The reservation still holds: younger than the retention, and made by this code (it has a token). */
export function isReservationLive(state: IdempotencyState, now: string): boolean {
  if (state.requestHash === null || state.reservedAt === null) return false;
  return Date.parse(now) - Date.parse(state.reservedAt) < RETENTION_MS;
}

/**
 * A key is reserved once per retention period. The same request again decides nothing (the caller
 * goes on with the recorded reservation's token: a retry); another request under a live key is
 * refused. An expired key, or one reserved by older code without a token and never answered, is
 * reserved afresh.
 */
function decideReserve(command: Extract<IdempotencyCommand, { type: 'ReserveIdempotencyKey' }>, state: IdempotencyState): IdempotencyEvent[] {
  const live = isReservationLive(state, command.now);
  if (live && state.requestHash !== command.data.requestHash) {
    throw new DomainError('conflict', IDEMPOTENCY_KEY_REUSED, undefined, 'idempotency_key_reused');
  }
  if (live && (state.token !== '' || state.legacyResponse !== null)) return [];
  return [{ type: 'IdempotencyKeyReserved', data: { ...command.data, reservedAt: command.now } }];
}

/** Records how the reserved command ended, once; a token that is not the current reservation's changes nothing. */
function decideComplete(command: Extract<IdempotencyCommand, { type: 'CompleteIdempotentCommand' }>, state: IdempotencyState): IdempotencyEvent[] {
  if (state.token !== command.data.token || state.completed !== null) return [];
  return [{ type: 'IdempotentCommandCompleted', data: { ...command.data, completedAt: command.now } }];
}

export const idempotencyDecider: Decider<IdempotencyState, IdempotencyCommand, IdempotencyEvent> = {
  initialState: () => ({ requestHash: null, reservedAt: null, token: '', completed: null, legacyResponse: null }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'IdempotencyKeyReserved':
        return { requestHash: event.data.requestHash, reservedAt: event.data.reservedAt, token: event.data.token, completed: null, legacyResponse: null };
      case 'IdempotentCommandCompleted':
        return event.data.token === state.token ? { ...state, completed: { status: event.data.status, error: event.data.error } } : state;
      case 'IdempotentResponseRecorded':
        return { ...state, legacyResponse: { status: event.data.status, body: event.data.body } };
      case 'IdempotencyKeyReleased':
        return { requestHash: null, reservedAt: null, token: '', completed: null, legacyResponse: null };
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'ReserveIdempotencyKey':
        return decideReserve(command, state);
      case 'CompleteIdempotentCommand':
        return decideComplete(command, state);
      default:
        return assertNever(command);
    }
  },
};
