import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canWithdraw, checkWithdrawalAmount, withdrawalFailureToast } from './withdrawal.ts';
import { LANGUAGES, i18n, initialized } from '../../i18n/index.ts';
import { loadServerTexts } from '../../i18n/serverTexts.ts';

// The toasts' texts come from their keys in the reader's language: both languages' files are read.
beforeAll(async () => {
  await initialized;
  await loadServerTexts();
  await i18n.loadLanguages([...LANGUAGES]);
  await i18n.changeLanguage('en');
});
afterAll(() => i18n.changeLanguage('en'));

describe("the 'Withdraw Money' button", () => {
  it('is enabled from a balance of ₹100', () => {
    expect(canWithdraw('100.00')).toBe(true);
    expect(canWithdraw('2500.50')).toBe(true);
  });

  it('is disabled under ₹100 or without a balance', () => {
    expect(canWithdraw('99.99')).toBe(false);
    expect(canWithdraw('0.00')).toBe(false);
    expect(canWithdraw(undefined)).toBe(false);
    expect(canWithdraw(null)).toBe(false);
  });
});

describe('checking the amount before a withdrawal is sent', () => {
  it('passes an amount from ₹100 up to the balance, as a two-place decimal', () => {
    expect(checkWithdrawalAmount('100', '250.00')).toEqual({ ok: true, amount: '100.00' });
    expect(checkWithdrawalAmount(' 250 ', '250.00')).toEqual({ ok: true, amount: '250.00' });
    expect(checkWithdrawalAmount('120.5', '250.00')).toEqual({ ok: true, amount: '120.50' });
  });

  it("refuses below ₹100 with 'Invalid Amount'", () => {
    const invalid = { ok: false, title: 'Invalid Amount', message: 'Minimum withdrawal amount is ₹100' };
    expect(checkWithdrawalAmount('99.99', '500.00')).toEqual(invalid);
    expect(checkWithdrawalAmount('0', '500.00')).toEqual(invalid);
    expect(checkWithdrawalAmount('-150', '500.00')).toEqual(invalid);
  });

  it("refuses what is not an amount with 'Invalid Amount'", () => {
    expect(checkWithdrawalAmount('', '500.00')).toMatchObject({ ok: false, title: 'Invalid Amount' });
    expect(checkWithdrawalAmount('100.555', '500.00')).toMatchObject({ ok: false, title: 'Invalid Amount' });
  });

  it("refuses more than the balance with 'Insufficient Balance'", () => {
    expect(checkWithdrawalAmount('250.01', '250.00')).toEqual({
      ok: false,
      title: 'Insufficient Balance',
      message: "You don't have enough rupees for this withdrawal",
    });
    expect(checkWithdrawalAmount('100', undefined)).toMatchObject({ title: 'Insufficient Balance' });
  });

  it('says so in the reader’s language, title and message, from their keys', async () => {
    await i18n.changeLanguage('hi');
    expect(checkWithdrawalAmount('99', '500.00')).toEqual({ ok: false, title: 'गलत रकम', message: i18n.t('messages:server.withdrawal.minimum') });
    expect(checkWithdrawalAmount('600', '500.00')).toEqual({ ok: false, title: 'बैलेंस कम है', message: i18n.t('messages:server.withdrawal.insufficient') });
    expect(withdrawalFailureToast(null)).toEqual({ title: 'निकासी नहीं हो सकी', message: 'निकासी का अनुरोध नहीं भेजा जा सका' });
    await i18n.changeLanguage('en');
  });
});

describe("the toast for the server's refusal", () => {
  it('names an insufficient balance and a refused amount by their spec titles', () => {
    expect(
      withdrawalFailureToast({ error: { code: 'insufficient_balance', message: "You don't have enough rupees for this withdrawal" } }),
    ).toEqual({ title: 'Insufficient Balance', message: "You don't have enough rupees for this withdrawal" });
    expect(
      withdrawalFailureToast({
        error: { code: 'validation_failed', message: 'Minimum withdrawal amount is ₹100', fields: { amount: 'Minimum withdrawal amount is ₹100' } },
      }),
    ).toEqual({ title: 'Invalid Amount', message: 'Minimum withdrawal amount is ₹100' });
  });

  it("shows any other server message, or 'Failed to submit withdrawal request'", () => {
    expect(withdrawalFailureToast({ error: { code: 'destination_required', message: 'Add a bank account' } })).toEqual({
      title: 'Withdrawal Failed',
      message: 'Add a bank account',
    });
    expect(withdrawalFailureToast(null)).toEqual({ title: 'Withdrawal Failed', message: 'Failed to submit withdrawal request' });
  });
});
