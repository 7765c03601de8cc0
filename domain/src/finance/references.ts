import type { IdempotencyEvent, ReferenceEvent } from '@kamai/contracts';
import type { Evolver } from '../decider.ts';
import { DomainError } from '../errors.ts';

/** A transfer reference as it is compared: spaces removed, upper case ("utr 123a" = "UTR123A"). */
export function normaliseReference(reference: string): string {
  return reference.replace(/\s+/g, '').toUpperCase();
}

/** `utr-<reference>`: the withdrawal it is reserved for, or null when free (never used, or released). */
export interface ReferenceState {
  withdrawalId: string | null;
}

export const referenceEvolver: Evolver<ReferenceState, ReferenceEvent> = {
  initialState: () => ({ withdrawalId: null }),
  evolve: (_state, event) => ({ withdrawalId: event.type === 'ReferenceReserved' ? event.data.withdrawalId : null }),
};

export const DUPLICATE_REFERENCE = 'This transfer reference has already been used for another withdrawal';

/**
 * Reserves a reference for one withdrawal. The same withdrawal may reserve it again (a retry);
 * another is refused while it is held.
 */
export function decideReserveReference(
  command: { reference: string; withdrawalId: string; by: string; now: string },
  state: ReferenceState,
): ReferenceEvent[] {
  if (state.withdrawalId === command.withdrawalId) return [];
  if (state.withdrawalId !== null) {
    throw new DomainError('conflict', DUPLICATE_REFERENCE, { reference: DUPLICATE_REFERENCE }, 'duplicate_reference');
  }
  return [{ type: 'ReferenceReserved', data: { reference: command.reference, withdrawalId: command.withdrawalId, by: command.by, reservedAt: command.now } }];
}

/** Frees a reference whose pay was refused, so it can pay the withdrawal it really belongs to. */
export function decideReleaseReference(command: { reference: string; withdrawalId: string; now: string }, state: ReferenceState): ReferenceEvent[] {
  if (state.withdrawalId !== command.withdrawalId) return [];
  return [{ type: 'ReferenceReleased', data: { reference: command.reference, withdrawalId: command.withdrawalId, releasedAt: command.now } }];
}

/** `idempotency-<hash>`: a keyed command and, once it has one, its response. */
export interface IdempotencyState {
  requestHash: string | null;
  reservedAt: string | null;
  response: { status: number; body: unknown } | null;
}

export const idempotencyEvolver: Evolver<IdempotencyState, IdempotencyEvent> = {
  initialState: () => ({ requestHash: null, reservedAt: null, response: null }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'IdempotencyKeyReserved':
        return { requestHash: event.data.requestHash, reservedAt: event.data.reservedAt, response: null };
      case 'IdempotentResponseRecorded':
        return { ...state, response: { status: event.data.status, body: event.data.body } };
      case 'IdempotencyKeyReleased':
        return { requestHash: null, reservedAt: null, response: null };
      default:
        return state;
    }
  },
};
