import { type BankStatementEvent, type StatementExceptionEvent, msg } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

type Data<T extends BankStatementEvent['type']> = Extract<BankStatementEvent, { type: T }>['data'];

/**
 * `bank-statement-<runId>`: one statement's run, recorded once: its reconciliation (the lists the
 * older runs kept) and its matching (how each line matched, the balance, the exceptions), together.
 */
export const statementRunDecider: Decider<
  { recorded: boolean },
  {
    type: 'RecordStatementRun';
    /** `fees`: the fee lines to book, those an earlier import already booked left out by the route. */
    data: { reconciled: Data<'BankStatementReconciled'>; matched: Data<'BankStatementMatched'>; fees: Data<'BankFeeBooked'>[] };
    now: string;
  },
  BankStatementEvent
> = {
  initialState: () => ({ recorded: false }),
  evolve: () => ({ recorded: true }),
  decide: (command, state) => {
    if (state.recorded) throw new DomainError('conflict', msg('payout.reconciliationExists'));
    return [
      { type: 'BankStatementReconciled', data: command.data.reconciled },
      { type: 'BankStatementMatched', data: command.data.matched },
      ...command.data.fees.map((data) => ({ type: 'BankFeeBooked' as const, data })),
    ];
  },
};

export interface StatementExceptionState {
  status: 'open' | 'write_off_pending' | 'matched' | 'written_off';
  requestedBy: string | null;
}

export type StatementExceptionCommand =
  | { type: 'MatchExceptionByHand'; data: { exceptionId: string; by: string; note: string }; now: string }
  | { type: 'RequestWriteOff'; data: { exceptionId: string; by: string; note: string }; now: string }
  | { type: 'ApproveWriteOff'; data: { exceptionId: string; by: string; booking: WriteOffBooking | null }; now: string };

/** What an approved write-off books (null for a payout no line shows: the ledger already has it right). */
export type WriteOffBooking = Omit<Extract<StatementExceptionEvent, { type: 'StatementDifferenceBooked' }>['data'], 'exceptionId' | 'approvedBy' | 'bookedAt'>;

const decided = () => new DomainError('conflict', msg('statement.decided'));

/**
 * `statement-exception-<id>`: an exception of the queue is resolved once, matched by hand (one
 * member, with a note) or written off (one member asks with a note, a different one approves, as
 * every money control takes two). The route checks the exception exists before asking here.
 */
export const statementExceptionDecider: Decider<StatementExceptionState, StatementExceptionCommand, StatementExceptionEvent> = {
  initialState: () => ({ status: 'open', requestedBy: null }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'StatementExceptionMatchedByHand':
        return { ...state, status: 'matched' };
      case 'StatementWriteOffRequested':
        return { status: 'write_off_pending', requestedBy: event.data.by };
      case 'StatementWrittenOff':
        return { ...state, status: 'written_off' };
      case 'StatementDifferenceBooked':
        return state;
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    const { exceptionId, by } = command.data;
    switch (command.type) {
      case 'MatchExceptionByHand':
        // A pending write-off may still be matched instead: the bank line was found after all.
        if (state.status === 'matched' || state.status === 'written_off') throw decided();
        return [{ type: 'StatementExceptionMatchedByHand', data: { exceptionId, by, note: command.data.note, matchedAt: command.now } }];
      case 'RequestWriteOff':
        if (state.status === 'matched' || state.status === 'written_off') throw decided();
        if (state.status === 'write_off_pending') throw new DomainError('conflict', msg('statement.writeOffPending'));
        return [{ type: 'StatementWriteOffRequested', data: { exceptionId, by, note: command.data.note, requestedAt: command.now } }];
      case 'ApproveWriteOff':
        if (state.status === 'matched' || state.status === 'written_off') throw decided();
        if (state.status === 'open' || state.requestedBy === null) throw new DomainError('not_found', msg('statement.noWriteOff'));
        if (state.requestedBy === by) throw new DomainError('forbidden', msg('statement.ownWriteOff'));
        return [
          { type: 'StatementWrittenOff', data: { exceptionId, requestedBy: state.requestedBy, approvedBy: by, writtenOffAt: command.now } },
          ...(command.data.booking ? [{ type: 'StatementDifferenceBooked' as const, data: { ...command.data.booking, exceptionId, approvedBy: by, bookedAt: command.now } }] : []),
        ];
      default:
        return assertNever(command);
    }
  },
};
