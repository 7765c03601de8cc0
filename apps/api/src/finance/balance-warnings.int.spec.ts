import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LedgerBalancesBody, type NotificationBody, type WithdrawalBody, istDayOf, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { UPI, adjust } from './testing.ts';

/**
 * Balances that warn (docs/month-end.md#balances-that-warn) over real HTTP: withdrawals run the
 * payout float below its threshold, and withheld tax runs the tax payable above its own. Each
 * crossing is one event on `balance-warnings`, one in-app notification and one SMS per finance
 * member (to an SMS gateway on loopback); a clear re-arms it.
 */
type Member = TestClient & { userId: string; mobile: string };
let server: TestServer;
let gateway: ReturnType<typeof createServer>;
const sms: Array<{ template_id: string; recipients: Array<Record<string, string>> }> = [];
let f1: Member;
let f2: Member;
let references = 0;

beforeAll(async () => {
  gateway = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      sms.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof sms)[number]);
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({
    SMS_PROVIDER: 'gateway',
    SMS_GATEWAY_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/sms`,
    SMS_GATEWAY_API_KEY: 'test-key',
    SMS_SENDER_ID: 'KAMAIT',
    SMS_DLT_ENTITY_ID: 'entity',
    SMS_DLT_TEMPLATE_ID_EN: 'reset-en',
    SMS_DLT_TEMPLATE_ID_HI: 'reset-hi',
    SMS_DLT_TEMPLATE_ID_PAYOUT_FLOAT_LOW_EN: 'float-en',
    SMS_DLT_TEMPLATE_ID_PAYOUT_FLOAT_LOW_HI: 'float-hi',
    SMS_DLT_TEMPLATE_ID_TAX_PAYABLE_HIGH_EN: 'tax-en',
    SMS_DLT_TEMPLATE_ID_TAX_PAYABLE_HIGH_HI: 'tax-hi',
  });
  f1 = await server.signUp({ roles: ['finance'] });
  f2 = await server.signUp({ roles: ['finance'] });
  // One member credits and funds alone here (the controls have their own specs).
  await server.applySettings({ adjustmentApprovalThreshold: '100000.00', memberDailyAdjustmentLimit: '1000000.00' });
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => gateway?.close(resolve));
});

const balances = async () => {
  const res = await f1.get<LedgerBalancesBody>('/api/admin/ledger/balances');
  expect(res.status).toBe(200);
  return res.body;
};
async function fund(rupees: number) {
  const res = await f1.post('/api/admin/ledger/funding', { amount: rupees, reference: `NEFT-BW-${++references}`, date: istDayOf(new Date()) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await server.checkBalances();
}
/** A new payee credited and withdrawing `rupees` (one withdrawal each: no payee's own limits in the way). */
async function withdraw(rupees: number): Promise<WithdrawalBody> {
  const payee = await server.signUp();
  await adjust(f1, payee.mobile, rupees);
  const res = await payee.post<WithdrawalBody>('/api/withdrawals', { amount: rupees, upiId: UPI });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await server.checkBalances();
  return res.body;
}
const warnings = async () => (await server.store.readStream(streams.balanceWarnings())).map((e) => [e.type, (e.data as { warningId: string }).warningId]);
const notified = async (member: Member, key: string) => (await member.get<NotificationBody[]>('/api/notifications')).body.filter((n) => n.key === key);
const smsTo = (member: Member, template: string) => sms.filter((m) => m.template_id === template && m.recipients[0]?.mobiles === `91${member.mobile}`);

describe('balances that warn', () => {
  it('warns once when the payout float falls below its threshold, clears when funded, warns again on the next crossing', async () => {
    await fund(5000);
    const admin = await server.signUp({ roles: ['admin'] });
    expect((await admin.put('/api/admin/settings', { payoutFloatWarnBelow: '1000.00' })).status).toBe(200);
    await server.checkBalances();
    expect(await balances()).toEqual({
      payoutFloat: { amount: '5000.00', threshold: '1000.00', warning: false },
      taxPayable: { amount: '0.00', threshold: '0.00', warning: false },
    });
    expect(await warnings()).toEqual([]);

    // A withdrawal requested is money promised: the float counts it before it is paid.
    await withdraw(2000);
    expect(await warnings()).toEqual([]);
    await withdraw(2500);
    expect((await balances()).payoutFloat).toEqual({ amount: '500.00', threshold: '1000.00', warning: true });
    expect(await warnings()).toEqual([['BalanceWarningRaised', 'payout_float-1']]);
    for (const member of [f1, f2]) {
      const [notification, ...more] = await notified(member, 'payout_float_low');
      expect(more).toEqual([]);
      expect(notification).toMatchObject({ type: 'warning', params: { amountPaise: 50_000, thresholdPaise: 100_000 } });
      expect(notification!.message).toContain('₹500.00');
    }
    await vi.waitFor(() => expect(sms.filter((m) => m.template_id === 'float-en')).toHaveLength(2), { timeout: 15_000, interval: 50 });
    expect(smsTo(f1, 'float-en').map((m) => m.recipients)).toEqual([[{ mobiles: `91${f1.mobile}`, amount: '₹500.00', threshold: '₹1,000.00' }]]);
    expect(smsTo(f2, 'float-en')).toHaveLength(1);

    // Further down: still the same warning, nothing new.
    await withdraw(200);
    expect((await balances()).payoutFloat.amount).toBe('300.00');
    expect(await warnings()).toEqual([['BalanceWarningRaised', 'payout_float-1']]);

    // Funded back above the threshold: cleared, which arms the next warning.
    await fund(2000);
    expect((await balances()).payoutFloat).toEqual({ amount: '2300.00', threshold: '1000.00', warning: false });
    expect(await warnings()).toEqual([
      ['BalanceWarningRaised', 'payout_float-1'],
      ['BalanceWarningCleared', 'payout_float-1'],
    ]);

    await withdraw(1500);
    expect(await warnings()).toEqual([
      ['BalanceWarningRaised', 'payout_float-1'],
      ['BalanceWarningCleared', 'payout_float-1'],
      ['BalanceWarningRaised', 'payout_float-2'],
    ]);
    for (const member of [f1, f2]) expect(await notified(member, 'payout_float_low')).toHaveLength(2);
    await vi.waitFor(() => expect(sms.filter((m) => m.template_id === 'float-en')).toHaveLength(4), { timeout: 15_000, interval: 50 });
    expect(smsTo(f1, 'float-en')).toHaveLength(2);
    expect(smsTo(f2, 'float-en')).toHaveLength(2);
    // A second check of the same balances (another process, a restart) records nothing.
    await server.checkBalances();
    expect(await warnings()).toHaveLength(3);
  });

  it('warns once when the tax payable rises above its threshold', async () => {
    await fund(50_000);
    // Withheld on adjustments from ₹1 at 20 % (no PAN): each withdrawal adds a fifth of it to tax payable.
    const rule = { code: '393-194C', label: 'Section 393', rateWithPan: '1.00', rateWithoutPan: '20.00', perPaymentThreshold: '1.00', perYearThreshold: '1.00', appliesTo: ['adjustment'] };
    await server.applySettings({ taxRules: [rule], taxPayableWarnAbove: '150.00' });
    await server.checkBalances();
    await withdraw(500);
    expect((await balances()).taxPayable).toEqual({ amount: '100.00', threshold: '150.00', warning: false });
    await withdraw(500);
    expect((await balances()).taxPayable).toEqual({ amount: '200.00', threshold: '150.00', warning: true });
    await withdraw(500);
    const tax = (await warnings()).filter(([, id]) => id!.startsWith('tax_payable'));
    expect(tax).toEqual([['BalanceWarningRaised', 'tax_payable-1']]);
    for (const member of [f1, f2]) expect(await notified(member, 'tax_payable_high')).toHaveLength(1);
    await vi.waitFor(() => expect(sms.filter((m) => m.template_id === 'tax-en')).toHaveLength(2), { timeout: 15_000, interval: 50 });

    // Turning the warning off clears it.
    const admin = await server.signUp({ roles: ['admin'] });
    expect((await admin.put('/api/admin/settings', { taxPayableWarnAbove: '0' })).status).toBe(200);
    await server.checkBalances();
    expect((await warnings()).filter(([, id]) => id!.startsWith('tax_payable'))).toEqual([
      ['BalanceWarningRaised', 'tax_payable-1'],
      ['BalanceWarningCleared', 'tax_payable-1'],
    ]);
  });

  it('answers the balances to finance alone', async () => {
    const user = await server.signUp();
    expect((await user.get('/api/admin/ledger/balances')).status).toBe(403);
  });
});
