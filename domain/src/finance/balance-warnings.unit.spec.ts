import type { BalanceWarningEvent } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import { fold } from '../decider.ts';
import { type BalanceReading, balanceWarningsDecider } from './balance-warnings.ts';

const now = '2026-11-29T06:00:00.000Z';
const check = (history: BalanceWarningEvent[], readings: BalanceReading[]) =>
  balanceWarningsDecider.decide({ type: 'CheckBalances', data: { readings, financeMembers: ['f1', 'f2'] }, now }, fold(balanceWarningsDecider, history));
const float = (amountPaise: number, thresholdPaise = 100_000): BalanceReading => ({ balance: 'payout_float', amountPaise, thresholdPaise });
const tax = (amountPaise: number, thresholdPaise = 15_000): BalanceReading => ({ balance: 'tax_payable', amountPaise, thresholdPaise });

describe('balance warnings: each crossing once', () => {
  it('raises once below the float level and above the tax level, clears when back, and raises anew', () => {
    const raised = check([], [float(50_000), tax(20_000)]);
    expect(raised).toEqual([
      { type: 'BalanceWarningRaised', data: { warningId: 'payout_float-1', balance: 'payout_float', amountPaise: 50_000, thresholdPaise: 100_000, notify: ['f1', 'f2'], raisedAt: now } },
      { type: 'BalanceWarningRaised', data: { warningId: 'tax_payable-1', balance: 'tax_payable', amountPaise: 20_000, thresholdPaise: 15_000, notify: ['f1', 'f2'], raisedAt: now } },
    ]);
    // Further past the level: the warning in force stands.
    expect(check(raised, [float(10_000), tax(90_000)])).toEqual([]);
    // At the level is not past it.
    const cleared = check(raised, [float(100_000), tax(15_000)]);
    expect(cleared.map((e) => [e.type, e.data.warningId])).toEqual([
      ['BalanceWarningCleared', 'payout_float-1'],
      ['BalanceWarningCleared', 'tax_payable-1'],
    ]);
    expect(check([...raised, ...cleared], [float(99_999), tax(0)]).map((e) => [e.type, e.data.warningId])).toEqual([['BalanceWarningRaised', 'payout_float-2']]);
  });

  it('a level of 0 is off: nothing is raised, and a warning in force clears', () => {
    expect(check([], [float(-500, 0), tax(1_000_000, 0)])).toEqual([]);
    const raised = check([], [float(-500)]);
    expect(check(raised, [float(-500, 0)]).map((e) => e.type)).toEqual(['BalanceWarningCleared']);
  });
});
