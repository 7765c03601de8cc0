import { type TaxDepositEvent, taxQuarter, taxQuarterOfDay } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../testing/spec.ts';
import { type TaxDepositCommand, type TaxDepositsState, taxDepositsDecider } from './deposits.ts';

const spec = deciderSpec<TaxDepositsState, TaxDepositEvent, TaxDepositCommand>(taxDepositsDecider, taxDepositsDecider.decide);
// 7 January 2027, 10:00 IST.
const now = '2027-01-07T04:30:00.000Z';
const record = (depositId: string, depositDate = '2027-01-07', serial = '00001'): TaxDepositCommand => ({
  type: 'RecordTaxDeposit',
  data: { depositId, quarter: '2026-27-Q3', bsrCode: '0510308', serial, depositDate, amountPaise: 12_300, by: 'fin-1' },
  now,
});
const recorded = (depositId: string, depositDate = '2027-01-07', serial = '00001'): TaxDepositEvent => ({
  type: 'TaxDepositRecorded',
  data: { depositId, quarter: '2026-27-Q3', bsrCode: '0510308', serial, depositDate, amountPaise: 12_300, recordedBy: 'fin-1', recordedAt: now },
});

describe('deposits of tax withheld (challans)', () => {
  it('records a challan once: a retry with its id changes nothing, the same challan under another id is refused', () => {
    spec.given([]).when(record('d1')).then([recorded('d1')]);
    spec.given([recorded('d1')]).when(record('d1')).then([]);
    spec.given([recorded('d1')]).when(record('d2')).thenFails('conflict', /already recorded/);
    spec.given([recorded('d1')]).when(record('d2', '2027-01-06')).then([recorded('d2', '2027-01-06')]);
  });
  it('refuses a day in the future (IST) or before the quarter began', () => {
    spec.given([]).when(record('d1', '2027-01-08')).thenFails('invalid', /future/);
    spec.given([]).when(record('d1', '2026-09-30')).thenFails('invalid');
    spec.given([]).when(record('d1', '2026-10-01')).then([recorded('d1', '2026-10-01')]);
  });
});

describe('quarters of the financial year, India time', () => {
  it('names Q1 April–June to Q4 January–March, and refuses what is not one', () => {
    expect(taxQuarter('2026-27-Q1')).toMatchObject({ fy: '2026-27', firstDay: '2026-04-01', lastDay: '2026-06-30', from: '2026-03-31T18:30:00.000Z' });
    expect(taxQuarter('2026-27-Q4')).toMatchObject({ firstDay: '2027-01-01', lastDay: '2027-03-31', to: '2027-03-31T18:29:59.999Z' });
    expect(taxQuarter('2027-28-Q4')).toMatchObject({ lastDay: '2028-03-31' });
    for (const label of ['2026-28-Q1', '2026-27-Q5', '2026-27', '2026-27-q1']) expect(taxQuarter(label)).toBeNull();
    expect(['2026-04-01', '2026-09-30', '2026-12-31', '2027-03-31'].map(taxQuarterOfDay)).toEqual(['2026-27-Q1', '2026-27-Q2', '2026-27-Q3', '2026-27-Q4']);
  });
});
