import { describe, it } from 'vitest';
import type { FundingEvent } from '@kamai/contracts';
import { deciderSpec } from '../testing/spec.ts';
import { type FundingCommand, type FundingState, fundingDecider } from './funding.ts';

// 23:30 UTC on 20 November is already 21 November in India.
const now = '2026-11-20T23:30:00.000Z';
const spec = deciderSpec<FundingState, FundingEvent, FundingCommand>(fundingDecider, fundingDecider.decide);
const record = (amountPaise: number, valueDate = '2026-11-21'): FundingCommand => ({
  type: 'RecordBankFunding',
  data: { fundingId: 'f1', amountPaise, reference: 'NEFT-CO-1', valueDate, by: 'fin1', approvalThresholdPaise: 100_000 },
  now,
});
const recorded = (amountPaise: number, approvalRequired: boolean): FundingEvent => ({
  type: 'BankFundingRecorded',
  data: { fundingId: 'f1', amountPaise, reference: 'NEFT-CO-1', valueDate: '2026-11-21', recordedBy: 'fin1', recordedAt: now, approvalRequired },
});
const approve = (by: string): FundingCommand => ({ type: 'ApproveBankFunding', data: { fundingId: 'f1', by }, now });
const reject = (by: string): FundingCommand => ({ type: 'RejectBankFunding', data: { fundingId: 'f1', by }, now });
const approved: FundingEvent = {
  type: 'BankFundingApproved',
  data: { fundingId: 'f1', amountPaise: 500_000, reference: 'NEFT-CO-1', valueDate: '2026-11-21', approvedBy: 'fin2', approvedAt: now },
};

describe('funding the payout account', () => {
  it('is booked at once up to the threshold, and waits for a second finance member above it', () => {
    spec.given([]).when(record(100_000)).then([recorded(100_000, false)]);
    spec.given([]).when(record(500_000)).then([recorded(500_000, true)]);
    spec.given([recorded(100_000, false)]).when(record(100_000)).thenFails('conflict');
  });

  it('waits for a second member when the member’s fundings booked alone in 24 hours would pass the threshold', () => {
    const command = record(100_000);
    spec.given([]).when({ ...command, data: { ...command.data, memberLimitReached: true } } as FundingCommand).then([recorded(100_000, true)]);
  });

  it('takes the day the money arrived as an IST day, never a future one', () => {
    spec.given([]).when(record(100_000, '2026-11-22')).thenFails('invalid', /future/);
  });

  it('is approved by someone other than its recorder, once, carrying what it books', () => {
    spec.given([recorded(500_000, true)]).when(approve('fin1')).thenFails('forbidden');
    spec.given([recorded(500_000, true)]).when(approve('fin2')).then([approved]);
    spec.given([recorded(500_000, true), approved]).when(approve('fin3')).thenFails('conflict', /already approved/);
    spec.given([recorded(100_000, false)]).when(approve('fin2')).thenFails('conflict');
    spec.given([]).when(approve('fin2')).thenFails('not_found');
  });

  it('may be rejected while pending, by anyone in finance, and then moves nothing', () => {
    const rejected: FundingEvent = { type: 'BankFundingRejected', data: { fundingId: 'f1', rejectedBy: 'fin1', rejectedAt: now } };
    spec.given([recorded(500_000, true)]).when(reject('fin1')).then([rejected]);
    spec.given([recorded(500_000, true), rejected]).when(approve('fin2')).thenFails('conflict', /already rejected/);
  });
});
