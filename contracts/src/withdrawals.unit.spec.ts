import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ProfileUpdateRequest } from './profile.ts';
import { AdjustmentRequest, WithdrawalRequest, destinationOf } from './withdrawals.ts';
import { refusalText } from './catalogue.ts';

const issues = (input: unknown) => {
  const result = v.safeParse(WithdrawalRequest, input);
  return result.success ? [] : result.issues.map((i) => [v.getDotPath(i), refusalText(i.message)]);
};

describe('withdrawal request', () => {
  it('takes the amount as a number or a decimal string with at most two places, in paise', () => {
    expect(v.parse(WithdrawalRequest, { amount: 100, upiId: 'ravi@okhdfc' }).amount).toBe(10_000);
    expect(v.parse(WithdrawalRequest, { amount: '150.5', upiId: 'ravi@okhdfc' }).amount).toBe(15_050);
    expect(issues({ amount: '100.001', upiId: 'ravi@okhdfc' })).toEqual([['amount', 'Enter an amount in rupees with at most two decimals']]);
    expect(issues({ amount: 'abc' })).toEqual([['amount', 'Enter an amount in rupees with at most two decimals']]);
    expect(issues({})).toEqual([['amount', 'Enter an amount in rupees with at most two decimals']]);
  });
  it('refuses below ₹100 (negatives too) with the spec message', () => {
    for (const amount of [99.99, '0', 0, -100, '-150']) expect(issues({ amount })).toEqual([['amount', 'Minimum withdrawal amount is ₹100']]);
  });
  it('checks a bank account: IFSC (uppercased), 9-18 digits, a holder name', () => {
    const ok = v.parse(WithdrawalRequest, { amount: 100, bankAccount: { accountNumber: '0012 3456 7894', ifsc: ' hdfc0001234 ', holderName: ' Asha Rao ' } });
    expect(destinationOf(ok)).toEqual({ kind: 'bank', accountNumber: '001234567894', ifsc: 'HDFC0001234', holderName: 'Asha Rao' });
    expect(issues({ amount: 100, bankAccount: { accountNumber: '12345678', ifsc: 'HDFC1001234', holderName: '' } })).toEqual([
      ['bankAccount.accountNumber', 'Account number must be 9 to 18 digits'],
      ['bankAccount.ifsc', 'Enter a valid IFSC code, e.g. HDFC0001234'],
      ['bankAccount.holderName', "Enter the account holder's name"],
    ]);
  });
  it('checks a UPI ID, and refuses both destinations at once', () => {
    expect(destinationOf(v.parse(WithdrawalRequest, { amount: 100, upiId: 'ravi.k-1@okhdfc' }))).toEqual({ kind: 'upi', upiId: 'ravi.k-1@okhdfc' });
    expect(issues({ amount: 100, upiId: 'ravi@1bank' })).toEqual([['upiId', 'Enter a valid UPI ID, e.g. name@okhdfc']]);
    expect(issues({ amount: 100, upiId: 'ravi@okhdfc', bankAccount: { accountNumber: '123456789', ifsc: 'HDFC0001234', holderName: 'Ravi' } })).toEqual([
      ['upiId', 'Choose a bank account or a UPI ID, not both'],
    ]);
    expect(destinationOf(v.parse(WithdrawalRequest, { amount: 100 }))).toBeUndefined();
  });
});

describe('adjustment request', () => {
  it('needs a positive amount, a direction and a reason', () => {
    expect(v.parse(AdjustmentRequest, { mobile: '9876543210', amount: '0.01', direction: 'debit', reason: 'Fix' }).amount).toBe(1);
    expect(v.safeParse(AdjustmentRequest, { mobile: '9876543210', amount: 0, direction: 'credit', reason: 'Fix' }).success).toBe(false);
    expect(v.safeParse(AdjustmentRequest, { mobile: '9876543210', amount: 5, direction: 'up', reason: 'Fix' }).success).toBe(false);
  });
});

describe('profile update', () => {
  it('clears the e-mail with an empty string or null, and checks its shape otherwise', () => {
    expect(v.parse(ProfileUpdateRequest, { email: '' })).toEqual({ email: null });
    expect(v.parse(ProfileUpdateRequest, { email: null })).toEqual({ email: null });
    expect(v.parse(ProfileUpdateRequest, { email: ' asha@example.com ' })).toEqual({ email: 'asha@example.com' });
    expect(refusalText(v.safeParse(ProfileUpdateRequest, { email: 'asha@' }).issues![0]!.message)).toBe('Invalid email address');
    expect(refusalText(v.safeParse(ProfileUpdateRequest, { firstName: 'A' }).issues![0]!.message)).toBe('First name must be at least 2 characters');
    expect(v.safeParse(ProfileUpdateRequest, { notificationsEnabled: 'yes' }).success).toBe(false);
  });
});
