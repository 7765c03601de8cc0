import { type PayoutBatchBody, type ReconciliationBody, type TaxCertificateBody, type TaxReturnBody, type TrialBalanceBody, type WithdrawalBody, type WithdrawalQuoteBody, parseRupees } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerProblems } from '../openapi/fuzz.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { UPI, adjust, balanceOf, parseCsv } from '../finance/testing.ts';
import { submitDocument } from '../kyc/testing.ts';

/**
 * Tax withheld at payout (docs/tax.md) over real HTTP, across a financial year's turn: payees with
 * and without a PAN crossing the per-payment and the yearly threshold, against the test's own fold
 * of what each was credited and had withheld. The rule counts adjustments as well as task rewards,
 * so payees are credited through the adjustments route (fast), as finance may choose.
 */
type Member = TestClient & { userId: string; mobile: string; password: string };
let server: TestServer;
let at = new Date('2026-03-30T06:00:00.000Z');
let finance: Member;
let finance2: Member;
let funder: Member;
let reviewer: Member;

const RULE = {
  code: '393-194C',
  label: 'Section 393 (old 194C)',
  rateWithPan: '1.00',
  rateWithoutPan: '20.00',
  perPaymentThreshold: '300.00',
  perYearThreshold: '1000.00',
  appliesTo: ['task_reward', 'adjustment'],
};

beforeAll(async () => {
  server = await startTestServer({}, { now: () => at });
  funder = await server.signUp({ roles: ['finance'] });
  // Rules with small thresholds, through the control-setting flow (two admins).
  const set = await server.applySettings({
    taxRules: [RULE],
    adjustmentApprovalThreshold: '100000.00',
    memberDailyAdjustmentLimit: '1000000.00',
    payoutBatchApprovalThreshold: '100000.00',
  });
  expect(set.taxRules).toEqual([RULE]);
});

/** The staff of the new year: signed up after the clock moved (a session idles out in 7 days). */
async function newYearStaff() {
  finance = await server.signUp({ roles: ['finance'] });
  finance2 = await server.signUp({ roles: ['finance'] });
  reviewer = await server.signUp({ roles: ['reviewer'] });
  funder = await server.signUp({ roles: ['finance'] });
}
afterAll(async () => server?.close());

/** The test's own fold: per payee, the year's credits and what is withheld now. */
interface Payee {
  client: Member;
  balancePaise: number;
}
const payees = new Map<string, Payee>();
let withheldPaise = 0;

async function payee(name: string, pan: boolean): Promise<Payee> {
  const client = await server.signUp({ firstName: `Payee ${name}`, lastName: 'Test' });
  if (pan) {
    const doc = await submitDocument(server.url, client, 'pan', payees.size * 3 + 1, `ABCDE${String(1000 + payees.size)}F`);
    expect((await reviewer.post(`/api/admin/kyc/${doc.id}/approve`)).status).toBe(200);
  }
  const p = { client, balancePaise: 0 };
  payees.set(name, p);
  return p;
}
async function credit(p: Payee, rupees: number) {
  await adjust(funder, p.client.mobile, rupees);
  p.balancePaise += rupees * 100;
}
async function withdraw(p: Payee, rupees: number, taxRupees: number) {
  const quote = await p.client.get<WithdrawalQuoteBody>(`/api/withdrawals/quote?amount=${rupees}`);
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const res = await p.client.post<WithdrawalBody>('/api/withdrawals', { amount: rupees, upiId: UPI });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const tax = taxRupees > 0 ? { amount: taxRupees.toFixed(2), code: RULE.code } : null;
  const net = (rupees - taxRupees).toFixed(2);
  // The quote before confirming and the charge recorded agree.
  expect(quote.body).toEqual({ amount: rupees.toFixed(2), tax: tax && { ...tax, label: RULE.label }, net });
  expect(res.body).toMatchObject({ amount: rupees.toFixed(2), tax, net, status: 'pending' });
  p.balancePaise -= rupees * 100;
  withheldPaise += taxRupees * 100;
  return res.body;
}

async function books() {
  await server.runner.waitFor(await server.store.headPosition());
  const trial = (await finance.get<TrialBalanceBody>('/api/admin/ledger/trial-balance')).body;
  const rec = (await finance.get<ReconciliationBody>('/api/admin/ledger/reconciliation')).body;
  return { trial, rec, balance: (account: string) => trial.accounts.find((a) => a.account === account)?.balance ?? '0.00' };
}

describe('tax withheld at payout, over a financial year', () => {
  it('withholds by PAN and thresholds, books tax payable, pays the net, gives tax back once, and keeps the ledger whole', async () => {
    // FY 2025-26: G earns ₹1,500, which the new year does not count.
    const g = await payee('G', false);
    await credit(g, 1500);

    at = new Date('2026-04-24T06:00:00.000Z'); // FY 2026-27
    await newYearStaff();
    expect((await g.client.post('/api/auth/login', { mobile: g.client.mobile, password: g.client.password })).status).toBe(200);
    const a = await payee('A', true);
    const b = await payee('B', false);
    const c = await payee('C', false);
    const d = await payee('D', true);
    const e = await payee('E', false);
    const f = await payee('F', false);
    const h = await payee('H', false);
    for (const [p, rupees] of [[a, 500], [b, 500], [c, 500], [d, 600], [d, 600], [e, 1100], [f, 500], [h, 400], [g, 200]] as const) await credit(p, rupees);

    // One payment above ₹300: 1 % with a PAN (₹4), 20 % without (₹80); at or below both thresholds: nothing.
    const wa = await withdraw(a, 400, 4);
    const wb = await withdraw(b, 400, 80);
    await withdraw(c, 250, 0);
    // The year above ₹1,000: its whole total is taxed on a small payment (1 % of ₹1,200), then nothing more is due.
    const wd = await withdraw(d, 200, 12);
    await withdraw(d, 100, 0);
    const we = await withdraw(e, 500, 220);
    // G's ₹1,500 was last year: this year's ₹200 crosses nothing.
    await withdraw(g, 150, 0);
    const wh = await withdraw(h, 350, 70);
    const wf = await withdraw(f, 400, 80);

    let { rec, balance } = await books();
    expect(balance('platform:tax_payable')).toBe((withheldPaise / 100).toFixed(2));
    expect(rec).toMatchObject({ taxPayable: (withheldPaise / 100).toFixed(2), difference: '0.00' });
    for (const p of payees.values()) expect(await balanceOf(p.client)).toBe((p.balancePaise / 100).toFixed(2));
    // The wallet shows the hold and the tax as two entries.
    const entries = (await b.client.get<{ kind: string; amount: string }[]>('/api/transactions')).body;
    expect(entries.slice(0, 2).map((t) => [t.kind, t.amount])).toEqual([['tax_withheld', '80.00'], ['withdrawal', '320.00']]);

    // A rejected withdrawal gives its tax back, once; asked again with the money back, it is charged again.
    const rejected = await finance.post(`/api/admin/withdrawals/${wf.id}/reject`, { reason: 'Wrong UPI' });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    f.balancePaise += 40_000;
    withheldPaise -= 8_000;
    expect((await finance.post(`/api/admin/withdrawals/${wf.id}/reject`, { reason: 'Twice' })).status).toBe(409);
    expect(await balanceOf(f.client)).toBe('500.00');
    ({ balance } = await books());
    expect(balance('platform:tax_payable')).toBe((withheldPaise / 100).toFixed(2));
    await withdraw(f, 400, 80);

    // The bank is paid the net: the batch, its file, the results (a gross amount is refused) and the statement.
    const taxed = [wa, wb, wd, we, wh];
    const batch = await finance.post<PayoutBatchBody>('/api/admin/payout-batches', { withdrawalIds: taxed.map((w) => w.id) });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    const netTotal = taxed.reduce((sum, w) => sum + parseRupees(w.net)!, 0);
    expect(batch.body.total).toBe((netTotal / 100).toFixed(2));
    const file = await finance.get<string>(`/api/admin/payout-batches/${batch.body.id}/file`);
    expect(new Map(parseCsv(file.body).map((row) => [row.reference, row.amount]))).toEqual(new Map(taxed.map((w) => [w.id, w.net])));
    const results = (rows: string[][]) => finance.request('POST', `/api/admin/payout-batches/${batch.body.id}/results`, `${rows.map((r) => r.join(',')).join('\r\n')}\r\n`, { 'content-type': 'text/csv' });
    const gross = await results([['reference', 'amount', 'status', 'utr'], [wa.id, wa.amount, 'SUCCESS', 'UTRTAX0000']]);
    expect(gross.body.refused).toMatchObject([{ reference: wa.id, reason: 'amount_differs' }]);
    const imported = await results([['reference', 'amount', 'status', 'utr'], ...taxed.map((w, i) => [w.id, w.net, 'SUCCESS', `UTRTAX${String(i + 1).padStart(4, '0')}`])]);
    expect(imported.body).toEqual({ applied: 5, skipped: 0, refused: [] });
    const day = new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);
    const statement = [['date', 'narration', 'debit', 'credit', 'utr'], ...taxed.map((w, i) => [day, 'IMPS', w.net, '', `UTRTAX${String(i + 1).padStart(4, '0')}`])];
    const matched = await finance.request('POST', '/api/admin/ledger/bank-statements', `${statement.map((r) => r.join(',')).join('\r\n')}\r\n`, { 'content-type': 'text/csv' });
    expect(matched.status, JSON.stringify(matched.body)).toBe(201);
    expect(matched.body).toMatchObject({ unmatchedDebits: [], missingFromStatement: [], difference: '0.00' });

    // A reversal by the bank returns the net from the bank and the tax from tax payable.
    expect((await finance.post(`/api/admin/withdrawals/${we.id}/reverse`, { reason: 'Returned' })).status).toBe(200);
    e.balancePaise += 50_000;
    withheldPaise -= 22_000;

    ({ rec, balance } = await books());
    const paidNet = taxed.filter((w) => w !== we).reduce((sum, w) => sum + parseRupees(w.net)!, 0);
    expect(rec).toMatchObject({ taxPayable: (withheldPaise / 100).toFixed(2), paid: (paidNet / 100).toFixed(2), difference: '0.00' });
    expect(balance('platform:tax_payable')).toBe((withheldPaise / 100).toFixed(2));
    for (const p of payees.values()) expect(await balanceOf(p.client)).toBe((p.balancePaise / 100).toFixed(2));
    // Each payee's journal: the taxes withheld less those given back, against the fold.
    const list = (await h.client.get<WithdrawalBody[]>('/api/withdrawals')).body;
    expect(list[0]).toMatchObject({ status: 'paid', tax: { amount: '70.00', code: RULE.code }, net: '280.00' });

    // The month closes; nothing is posted into it afterwards; `reconcile` and `verify-ledger` hold.
    at = new Date('2026-05-01T01:00:00.000Z'); // 06:30 on 1 May in India: April is over.
    expect((await finance.post('/api/admin/ledger/periods/2026-04/close')).status).toBe(202);
    expect((await finance2.post('/api/admin/ledger/periods/2026-04/close/approve')).status).toBe(200);
    const late = await funder.post('/api/admin/adjustments', { mobile: a.client.mobile, amount: '10', direction: 'credit', reason: 'Late', effectiveDate: '2026-04-20' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('period_closed');
    expect(await ledgerProblems(server)).toEqual([]);
  });

  it("names the deductor (TAN, name, address, as settings) on the quarterly return and each certificate", async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    const bad = await admin.request('PUT', '/api/admin/settings', { taxDeductorTan: 'DELK1234AA' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ taxDeductorTan: 'The TAN is 4 letters, 5 digits and a letter, e.g. DELK12345A' });
    const quarters = ['2025-26-Q4', '2026-27-Q1'];
    const before = (await finance.get<TaxReturnBody>(`/api/admin/ledger/tax/${quarters[1]}`)).body;
    expect(before.deductor).toEqual({ name: 'Kamai', tan: null, address: null });
    // Plain settings: they change at once, with no second admin.
    const set = await admin.put('/api/admin/settings', { taxDeductorTan: ' delk12345a ', taxDeductorName: 'Kamai Technologies Pvt Ltd', taxDeductorAddress: '12 MG Road, Bengaluru 560001' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ taxDeductorTan: 'DELK12345A', taxDeductorName: 'Kamai Technologies Pvt Ltd', taxDeductorAddress: '12 MG Road, Bengaluru 560001' });
    const deductor = { name: 'Kamai Technologies Pvt Ltd', tan: 'DELK12345A', address: '12 MG Road, Bengaluru 560001' };
    let certificates = 0;
    for (const quarter of quarters) {
      expect((await finance.get<TaxReturnBody>(`/api/admin/ledger/tax/${quarter}`)).body.deductor).toEqual(deductor);
      const issued = (await finance.get<TaxCertificateBody[]>(`/api/admin/ledger/tax/${quarter}/certificates`)).body;
      for (const certificate of issued) expect(certificate.deductor).toEqual(deductor);
      certificates += issued.length;
    }
    expect(certificates).toBeGreaterThan(0);
  });
});
