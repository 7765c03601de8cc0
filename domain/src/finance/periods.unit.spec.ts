import type { LedgerPeriodEvent } from '@kamai/contracts';
import { describe, it } from 'vitest';
import { deciderSpec } from '../testing/spec.ts';
import { type LedgerPeriodCommand, type LedgerPeriodState, ledgerPeriodDecider } from './periods.ts';

const spec = deciderSpec<LedgerPeriodState, LedgerPeriodEvent, LedgerPeriodCommand>(ledgerPeriodDecider, ledgerPeriodDecider.decide);
// 1 November 2026, 00:10 IST: October is over, November is not.
const now = '2026-10-31T18:40:00.000Z';
const ask = (month: string, by = 'fin-1', at = now): LedgerPeriodCommand => ({ type: 'RequestPeriodClose', data: { month, by }, now: at });
const approve = (month: string, by = 'fin-2'): LedgerPeriodCommand => ({ type: 'ApprovePeriodClose', data: { month, by }, now });
const requested: LedgerPeriodEvent = { type: 'LedgerPeriodCloseRequested', data: { month: '2026-10', requestedBy: 'fin-1', requestedAt: now } };
const closed: LedgerPeriodEvent = { type: 'LedgerPeriodClosed', data: { month: '2026-10', requestedBy: 'fin-1', closedBy: 'fin-2', closedAt: now } };

describe('closing a month of the books', () => {
  it('one finance member asks for a month that is over in India time', () => {
    spec.given([]).when(ask('2026-10')).then([requested]);
  });
  it('refuses the current month and any later one; the month turns at midnight IST', () => {
    spec.given([]).when(ask('2026-11')).thenFails('conflict', /not over/);
    spec.given([]).when(ask('2027-01')).thenFails('conflict', /not over/);
    // 31 October, 23:50 IST: October is still the current month.
    spec.given([]).when(ask('2026-10', 'fin-1', '2026-10-31T18:20:00.000Z')).thenFails('conflict', /not over/);
  });
  it('a different member approves; the asker cannot', () => {
    spec.given([requested]).when(approve('2026-10', 'fin-1')).thenFails('forbidden');
    spec.given([requested]).when(approve('2026-10')).then([closed]);
  });
  it('asking again while it waits changes nothing; approving what nobody asked is not found', () => {
    spec.given([requested]).when(ask('2026-10', 'fin-3')).then([]);
    spec.given([]).when(approve('2026-10')).thenFails('not_found');
  });
  it('a closed month stays closed', () => {
    spec.given([requested, closed]).when(ask('2026-10')).thenFails('conflict', /is closed/);
    spec.given([requested, closed]).when(approve('2026-10', 'fin-3')).thenFails('conflict', /is closed/);
  });
});
