import { describe, expect, it } from 'vitest';
import type { TaxRule, UserEvent } from '@kamai/contracts';
import { fold } from '../decider.ts';
import { deciderSpec } from '../testing/spec.ts';
import { userEvolver, userSnapshot } from './state.ts';
import { credit } from './wallet.ts';
import { type WithdrawalCommand, decideWithdrawals, withdrawalBody } from './withdrawals.ts';
import { withdrawalTax } from './tax-years.ts';

// Tax withheld at payout (docs/tax.md): small thresholds keep the figures readable.
const now = '2026-11-21T10:00:00.000Z';
const later = '2026-11-22T09:30:00.000Z';
const spec = deciderSpec<ReturnType<typeof userEvolver.initialState>, UserEvent, WithdrawalCommand>(userEvolver, decideWithdrawals);
const rule: TaxRule = {
  code: 'T1',
  label: 'Test rule',
  rateWithPanBasisPoints: 100,
  rateWithoutPanBasisPoints: 2000,
  perPaymentThresholdPaise: 30_000,
  perYearThresholdPaise: 100_000,
  appliesTo: ['task_reward'],
};
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now },
};
const earned = (paise: number, entryId: string, at = now): UserEvent =>
  credit({ entryId, amountPaise: paise, kind: 'task_reward', params: { taskTitle: 'Rate PhonePe' }, taskId: 't1', now: at });
const withPan: UserEvent[] = [
  {
    type: 'KycDocumentSubmitted',
    data: { documentId: 'd1', documentType: 'pan', frontImageUrl: 'f', backImageUrl: 'b', frontImageSha256: 'a'.repeat(64), backImageSha256: 'b'.repeat(64), panNumber: 'ABCDE1234F', submittedAt: now },
  },
  { type: 'KycDocumentApproved', data: { documentId: 'd1', documentType: 'pan', reviewedBy: 'r1', kycVerified: false, approvedAt: now } },
];
const request = (amountPaise: number, withdrawalId = 'w1', at = now): WithdrawalCommand => ({
  type: 'RequestWithdrawal',
  data: { withdrawalId, entryId: `hold-${withdrawalId}`, notificationId: `n-${withdrawalId}`, amountPaise, destination: { kind: 'upi', upiId: 'asha@okhdfc' }, taxRules: [rule] },
  now: at,
});
const after = (events: UserEvent[], command: WithdrawalCommand) => [...events, ...decideWithdrawals(command, fold(userEvolver, events))];

describe('tax withheld at payout', () => {
  it('withholds from a payment above the per-payment threshold: the hold is the net, the tax a debit of its own', () => {
    const given = [registered, earned(50_000, 'e1')];
    const events = decideWithdrawals(request(40_000), fold(userEvolver, given));
    // No PAN: 20 % of ₹400 is ₹80.
    expect(events[0]).toMatchObject({ type: 'WithdrawalRequested', data: { amountPaise: 40_000, taxes: [{ code: 'T1', amountPaise: 8_000, basePaise: 40_000, rateBasisPoints: 2000 }] } });
    expect(events[1]).toMatchObject({ type: 'WalletDebited', data: { kind: 'withdrawal', amountPaise: 32_000, reference: 'w1' } });
    expect(events[2]).toMatchObject({ type: 'WalletDebited', data: { kind: 'tax_withheld', amountPaise: 8_000, params: { code: 'T1' }, reference: 'w1', entryId: 'hold-w1:tax:0' } });
    const state = fold(userEvolver, [...given, ...events]);
    expect(state.wallet.balance).toBe(10_000);
    expect(state.taxYears.byYear.get('2026-27')).toEqual({ fy: '2026-27', creditedPaise: { task_reward: 50_000 }, withheldPaise: { T1: 8_000 } });
    expect(withdrawalBody('w1', 'u1', state.withdrawals.byId.get('w1')!)).toMatchObject({ amount: '400.00', tax: { amount: '80.00', code: 'T1' }, net: '320.00' });
  });

  it('charges nothing at or below both thresholds, and answers tax null', () => {
    const events = after([registered, earned(50_000, 'e1')], request(30_000));
    const state = fold(userEvolver, events);
    expect(events.filter((e) => e.type === 'WalletDebited')).toHaveLength(1);
    expect(withdrawalBody('w1', 'u1', state.withdrawals.byId.get('w1')!)).toMatchObject({ tax: null, net: '300.00' });
  });

  it('taxes the whole year once it crosses the yearly threshold, at the PAN rate, less what was withheld', () => {
    // ₹1,200 earned with a PAN: 1 % of the year is ₹12, charged on a small payment.
    const events = after([registered, ...withPan, earned(60_000, 'e1'), earned(60_000, 'e2')], request(10_000));
    expect(events.find((e) => e.type === 'WithdrawalRequested')).toMatchObject({ data: { taxes: [{ code: 'T1', amountPaise: 1_200, basePaise: 120_000, rateBasisPoints: 100 }] } });
    // The next payment in that year owes only the tax on what was earned since.
    const more = after([...events, earned(10_000, 'e3')], request(10_000, 'w2'));
    expect(more.at(-4)).toMatchObject({ type: 'WithdrawalRequested', data: { taxes: [{ amountPaise: 100 }] } });
  });

  it('gives the tax back exactly once with a rejection, a failure or a reversal', () => {
    const requested = after([registered, earned(50_000, 'e1')], request(40_000));
    const reject: WithdrawalCommand = { type: 'RejectWithdrawal', data: { withdrawalId: 'w1', reason: 'Closed', by: 'f1', entryId: 'back', notificationId: 'nr' }, now: later };
    const rejected = after(requested, reject);
    expect(rejected.slice(requested.length).filter((e) => e.type === 'WalletCredited')).toMatchObject([
      { data: { kind: 'withdrawal_refund', amountPaise: 32_000, entryId: 'back' } },
      { data: { kind: 'tax_refund', amountPaise: 8_000, entryId: 'back:tax:0', params: { code: 'T1' }, reference: 'w1' } },
    ]);
    const state = fold(userEvolver, rejected);
    expect(state.wallet.balance).toBe(50_000);
    expect(state.taxYears.byYear.get('2026-27')?.withheldPaise).toEqual({ T1: 0 });
    spec.given(rejected).when(reject).thenFails('conflict');

    const sent = after(requested, { type: 'MarkWithdrawalProcessing', data: { withdrawalId: 'w1', batchId: 'b1', by: 'f1' }, now: later });
    const failed = after(sent, { type: 'FailWithdrawal', data: { withdrawalId: 'w1', reason: 'No account', by: 'f1', entryId: 'fb', notificationId: 'nf', batchId: 'b1' }, now: later });
    expect(fold(userEvolver, failed).wallet.balance).toBe(50_000);

    const paid = after(sent, { type: 'MarkWithdrawalPaid', data: { withdrawalId: 'w1', reference: 'UTR1', by: 'f1', notificationId: 'np', batchId: 'b1' }, now: later });
    // The bank was paid the net.
    expect(paid.at(-2)).toMatchObject({ type: 'WithdrawalPaid', data: { amountPaise: 32_000 } });
    const reversed = after(paid, { type: 'ReverseWithdrawal', data: { withdrawalId: 'w1', reason: 'Returned', by: 'f2', entryId: 'rb', notificationId: 'nv' }, now: later });
    expect(reversed.slice(paid.length).filter((e) => e.type === 'WalletCredited')).toMatchObject([
      { data: { kind: 'payout_reversal', amountPaise: 32_000 } },
      { data: { kind: 'tax_refund', amountPaise: 8_000 } },
    ]);
    expect(fold(userEvolver, reversed).wallet.balance).toBe(50_000);
  });

  it('refuses a withdrawal the tax due would take whole', () => {
    // ₹1,500 earned without a PAN: 20 % of the year is ₹300, more than a ₹100 payment.
    spec.given([registered, earned(150_000, 'e1')]).when(request(10_000)).thenFails('invalid', /takes all of this withdrawal/);
  });

  it('starts each financial year from nothing (the year turns at 31 March 18:30 UTC)', () => {
    const march = '2027-03-31T18:29:59.999Z';
    const april = '2027-03-31T18:30:00.000Z';
    const state = fold(userEvolver, [registered, earned(150_000, 'e1', march)]);
    expect(withdrawalTax(state, [rule], 10_000, march)).toHaveLength(1);
    expect(withdrawalTax(state, [rule], 10_000, april)).toEqual([]);
  });

  it('nets adjustment debits under a rule that covers adjustments, in the year of their effective day, never below zero', () => {
    const both: TaxRule = { ...rule, appliesTo: ['task_reward', 'adjustment'] };
    const adjusted = (direction: 'credit' | 'debit', paise: number, entryId: string, effectiveDate?: string): UserEvent => {
      const data = { entryId, amountPaise: paise, kind: 'adjustment' as const, params: { reason: 'Correction' }, by: 'f1', ...(effectiveDate && { effectiveDate }) };
      return direction === 'credit' ? { type: 'WalletCredited', data: { ...data, creditedAt: now } } : { type: 'WalletDebited', data: { ...data, debitedAt: now } };
    };
    // ₹1,200 credited by adjustment, ₹300 of it taken back: the year holds ₹900, under the ₹1,000 yearly threshold.
    const netted = fold(userEvolver, [registered, adjusted('credit', 120_000, 'a1'), adjusted('debit', 30_000, 'a2')]);
    expect(netted.taxYears.byYear.get('2026-27')?.creditedPaise).toEqual({ adjustment: 90_000 });
    expect(withdrawalTax(netted, [both], 10_000, now)).toEqual([]);
    // Without the debit the year is above it: 20 % of ₹1,200 is due, as much as the ₹100 payment carries.
    expect(withdrawalTax(fold(userEvolver, [registered, adjusted('credit', 120_000, 'a1')]), [both], 10_000, now)).toMatchObject([{ amountPaise: 10_000, basePaise: 120_000 }]);
    // A debit taking back an over-credited task reward nets against the rule's other kinds.
    const overpaid = fold(userEvolver, [registered, earned(120_000, 'e1'), adjusted('debit', 30_000, 'a3')]);
    expect(withdrawalTax(overpaid, [both], 10_000, now)).toEqual([]);
    // A rule that does not cover adjustments does not see the debit.
    expect(withdrawalTax(overpaid, [rule], 10_000, now)).toMatchObject([{ basePaise: 120_000 }]);
    // More taken back than was given: the year counts as nothing, not below it.
    const below = fold(userEvolver, [registered, earned(50_000, 'e1'), adjusted('debit', 50_000, 'a4')]);
    expect(withdrawalTax(below, [{ ...both, perYearThresholdPaise: 0, perPaymentThresholdPaise: 0 }], 10_000, now)).toEqual([]);
    // A debit dated into the previous financial year lowers that year, not this one.
    const dated = fold(userEvolver, [registered, adjusted('credit', 120_000, 'a5'), adjusted('debit', 30_000, 'a6', '2026-03-31')]);
    expect(dated.taxYears.byYear.get('2026-27')?.creditedPaise).toEqual({ adjustment: 120_000 });
    expect(dated.taxYears.byYear.get('2025-26')?.creditedPaise).toEqual({ adjustment: -30_000 });
  });

  it('keeps the tax years through a snapshot', () => {
    const state = fold(userEvolver, after([registered, ...withPan, earned(50_000, 'e1')], request(40_000)));
    const loaded = userSnapshot.load(JSON.parse(JSON.stringify(userSnapshot.save(state))));
    expect(loaded.taxYears).toEqual(state.taxYears);
    expect(loaded.withdrawals.byId.get('w1')?.taxes).toEqual(state.withdrawals.byId.get('w1')?.taxes);
    expect(withdrawalTax(loaded, [rule], 40_000, now)).toEqual(withdrawalTax(state, [rule], 40_000, now));
  });
});
