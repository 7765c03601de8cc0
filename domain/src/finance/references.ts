import type { ReferenceEvent } from '@kamai/contracts';
import type { Decider, Evolver } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

/** A transfer reference as it is compared: spaces removed, upper case ("utr 123a" = "UTR123A"). */
export function normaliseReference(reference: string): string {
  return reference.replace(/\s+/g, '').toUpperCase();
}

/** `utr-<reference>`: the withdrawal it is reserved for, or null when free (never used, or released). */
export interface ReferenceState {
  withdrawalId: string | null;
}

export type ReferenceCommand =
  | { type: 'ReserveReference'; data: { reference: string; withdrawalId: string; by: string }; now: string }
  | { type: 'ReleaseReference'; data: { reference: string; withdrawalId: string }; now: string };

export const DUPLICATE_REFERENCE = 'This transfer reference has already been used for another withdrawal';

/**
 * Reserves a reference for one withdrawal. The same withdrawal may reserve it again (a retry);
 * another is refused while it is held.
 */
function decideReserveReference(command: Extract<ReferenceCommand, { type: 'ReserveReference' }>, state: ReferenceState): ReferenceEvent[] {
  const { reference, withdrawalId, by } = command.data;
  if (state.withdrawalId === withdrawalId) return [];
  if (state.withdrawalId !== null) {
    throw new DomainError('conflict', DUPLICATE_REFERENCE, { reference: DUPLICATE_REFERENCE }, 'duplicate_reference');
  }
  return [{ type: 'ReferenceReserved', data: { reference, withdrawalId, by, reservedAt: command.now } }];
}

/** Frees a reference whose pay was refused, so it can pay the withdrawal it really belongs to. */
function decideReleaseReference(command: Extract<ReferenceCommand, { type: 'ReleaseReference' }>, state: ReferenceState): ReferenceEvent[] {
  const { reference, withdrawalId } = command.data;
  if (state.withdrawalId !== withdrawalId) return [];
  return [{ type: 'ReferenceReleased', data: { reference, withdrawalId, releasedAt: command.now } }];
}

/** The decider of `utr-<reference>`. */
export const referenceDecider: Decider<ReferenceState, ReferenceCommand, ReferenceEvent> = {
  initialState: () => ({ withdrawalId: null }),
  evolve: (_state, event) => ({ withdrawalId: event.type === 'ReferenceReserved' ? event.data.withdrawalId : null }),
  decide: (command, state) => {
    switch (command.type) {
      case 'ReserveReference':
        return decideReserveReference(command, state);
      case 'ReleaseReference':
        return decideReleaseReference(command, state);
      default:
        return assertNever(command);
    }
  },
};
