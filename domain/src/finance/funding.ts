import { DEFAULT_LIMITS, type FundingEvent, type Paise, istDayOf, msg } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

/** `funding-<id>`: one funding of the payout account, and where it stands. */
export interface FundingState {
  recorded: boolean;
  amountPaise: Paise;
  reference: string;
  valueDate: string;
  recordedBy: string | null;
  status: 'pending' | 'booked' | 'rejected' | 'reversed' | null;
  /** A reversal of the booked funding waiting for a second member. */
  reversal: { reason: string; requestedBy: string } | null;
}

export type FundingCommand =
  | {
      type: 'RecordBankFunding';
      data: {
        fundingId: string;
        amountPaise: Paise;
        reference: string;
        /** The IST day the money arrived. */
        valueDate: string;
        by: string;
        /** Above this a second finance member approves (the adjustment threshold; its default when absent). */
        approvalThresholdPaise?: Paise;
        /**
         * What the member booked alone in the last 24 hours would pass that threshold with this one
         * (decided on their staff-limits stream, ./staff-limits.ts): a second member approves it.
         */
        memberLimitReached?: boolean;
      };
      now: string;
    }
  | { type: 'ApproveBankFunding'; data: { fundingId: string; by: string }; now: string }
  | { type: 'RejectBankFunding'; data: { fundingId: string; by: string }; now: string }
  | { type: 'RequestFundingReversal'; data: { fundingId: string; by: string; reason: string }; now: string }
  | { type: 'ApproveFundingReversal'; data: { fundingId: string; by: string }; now: string };

function pending(state: FundingState): FundingState {
  if (!state.recorded) throw new DomainError('not_found', msg('funding.notFound'));
  if (state.status !== 'pending') {
    throw new DomainError('conflict', state.status === 'rejected' ? msg('funding.alreadyRejected') : msg('funding.alreadyApproved'));
  }
  return state;
}

/**
 * Records a funding: up to the threshold it is booked at once; above it, it waits for a different
 * finance member (four eyes, as for adjustments). Rejecting moves no money.
 */
export const fundingDecider: Decider<FundingState, FundingCommand, FundingEvent> = {
  initialState: () => ({ recorded: false, amountPaise: 0, reference: '', valueDate: '', recordedBy: null, status: null, reversal: null }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'BankFundingRecorded': {
        const d = event.data;
        return {
          recorded: true,
          amountPaise: d.amountPaise,
          reference: d.reference,
          valueDate: d.valueDate,
          recordedBy: d.recordedBy,
          status: d.approvalRequired ? 'pending' : 'booked',
          reversal: null,
        };
      }
      case 'BankFundingApproved':
        return { ...state, status: 'booked' };
      case 'BankFundingRejected':
        return { ...state, status: 'rejected' };
      case 'BankFundingReversalRequested':
        return { ...state, reversal: { reason: event.data.reason, requestedBy: event.data.requestedBy } };
      case 'BankFundingReversed':
        return { ...state, status: 'reversed', reversal: null };
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'RecordBankFunding': {
        const d = command.data;
        if (state.recorded) throw new DomainError('conflict', msg('funding.exists'));
        // The day is an IST day, compared with today's IST date at the command's time.
        if (d.valueDate > istDayOf(command.now)) throw new DomainError('invalid', msg('funding.futureDate'), { date: msg('funding.futureDate') });
        const threshold = d.approvalThresholdPaise ?? DEFAULT_LIMITS.adjustmentApprovalThresholdPaise;
        return [
          {
            type: 'BankFundingRecorded',
            data: {
              fundingId: d.fundingId,
              amountPaise: d.amountPaise,
              reference: d.reference,
              valueDate: d.valueDate,
              recordedBy: d.by,
              recordedAt: command.now,
              approvalRequired: d.memberLimitReached === true || d.amountPaise > threshold,
            },
          },
        ];
      }
      case 'ApproveBankFunding': {
        const { fundingId, by } = command.data;
        pending(state);
        if (by === state.recordedBy) throw new DomainError('forbidden', msg('funding.ownFunding'));
        return [
          {
            type: 'BankFundingApproved',
            data: { fundingId, amountPaise: state.amountPaise, reference: state.reference, valueDate: state.valueDate, approvedBy: by, approvedAt: command.now },
          },
        ];
      }
      case 'RejectBankFunding':
        pending(state);
        // The recorder may withdraw their own, as with adjustments.
        return [{ type: 'BankFundingRejected', data: { fundingId: command.data.fundingId, rejectedBy: command.data.by, rejectedAt: command.now } }];
      case 'RequestFundingReversal': {
        const { fundingId, by, reason } = command.data;
        if (!state.recorded) throw new DomainError('not_found', msg('funding.notFound'));
        if (state.status !== 'booked') throw new DomainError('conflict', msg('funding.notBooked'));
        if (state.reversal) throw new DomainError('conflict', msg('funding.reversalRequested'));
        return [{ type: 'BankFundingReversalRequested', data: { fundingId, reason, requestedBy: by, requestedAt: command.now } }];
      }
      case 'ApproveFundingReversal': {
        const { fundingId, by } = command.data;
        if (!state.recorded) throw new DomainError('not_found', msg('funding.notFound'));
        const reversal = state.reversal;
        if (!reversal || state.status !== 'booked') throw new DomainError('conflict', msg('funding.noReversal'));
        // Four eyes: whoever asked for it does not approve it.
        if (by === reversal.requestedBy) throw new DomainError('forbidden', msg('funding.ownReversal'));
        return [
          {
            type: 'BankFundingReversed',
            data: {
              fundingId,
              amountPaise: state.amountPaise,
              reference: state.reference,
              valueDate: state.valueDate,
              reason: reversal.reason,
              requestedBy: reversal.requestedBy,
              approvedBy: by,
              reversedAt: command.now,
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
