import { type LedgerPeriodEvent, monthOf, msg } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

/** `ledger-period-<YYYY-MM>`: whether one month of the books is open, waiting for a second member, or closed. */
export interface LedgerPeriodState {
  status: 'open' | 'pending' | 'closed';
  requestedBy: string | null;
  requestedAt: string | null;
  closedBy: string | null;
  closedAt: string | null;
}

export type LedgerPeriodCommand =
  | { type: 'RequestPeriodClose'; data: { month: string; by: string }; now: string }
  | { type: 'ApprovePeriodClose'; data: { month: string; by: string }; now: string };

const closedError = (month: string) => new DomainError('conflict', msg('period.closed', { month }), undefined, 'period_closed');

/**
 * Closing a month takes two finance members, as every control does: one asks (only for a month
 * that is over, in India time), a different one approves. Asking again while it waits changes
 * nothing; a closed month stays closed (a correction goes into an open month).
 */
export const ledgerPeriodDecider: Decider<LedgerPeriodState, LedgerPeriodCommand, LedgerPeriodEvent> = {
  initialState: () => ({ status: 'open', requestedBy: null, requestedAt: null, closedBy: null, closedAt: null }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'LedgerPeriodCloseRequested':
        return { ...state, status: 'pending', requestedBy: event.data.requestedBy, requestedAt: event.data.requestedAt };
      case 'LedgerPeriodClosed':
        return { ...state, status: 'closed', closedBy: event.data.closedBy, closedAt: event.data.closedAt };
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    const { month, by } = command.data;
    switch (command.type) {
      case 'RequestPeriodClose':
        if (state.status === 'closed') throw closedError(month);
        if (state.status === 'pending') return [];
        // Months compare as text (YYYY-MM); the current month is still being posted to.
        if (month >= monthOf(command.now)) throw new DomainError('conflict', msg('period.notOver', { month }), undefined, 'period_not_over');
        return [{ type: 'LedgerPeriodCloseRequested', data: { month, requestedBy: by, requestedAt: command.now } }];
      case 'ApprovePeriodClose':
        if (state.status === 'closed') throw closedError(month);
        if (state.status === 'open' || state.requestedBy === null) throw new DomainError('not_found', msg('period.noRequest', { month }));
        if (state.requestedBy === by) throw new DomainError('forbidden', msg('period.ownClose'));
        return [{ type: 'LedgerPeriodClosed', data: { month, requestedBy: state.requestedBy, closedBy: by, closedAt: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

/** Refuses a posting whose effective day falls in a closed month (409 `period_closed`). */
export function assertPeriodOpen(state: LedgerPeriodState, month: string): void {
  if (state.status === 'closed') throw closedError(month);
}
