import {
  type MyTaxYearBody,
  type ReconciliationBody,
  type TaxCertificateBody,
  type TaxDepositBody,
  type TaxQuarterSummaryBody,
  type TaxReturnBody,
  type TrialBalanceBody,
  type WithdrawalBody,
  type YearlyReportBody,
  formatPaise,
  istDayOf,
} from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerProblems } from '../openapi/fuzz.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { UPI, adjust, parseCsv } from '../finance/testing.ts';
import { submitDocument } from '../kyc/testing.ts';

/**
 * A financial year of tax withheld at source for 20 payees (docs/tax.md): some crossing the
 * per-payment threshold, some the yearly one, half without a PAN, one withdrawal of each kind
 * rejected (its tax given back). The test keeps its own fold of what each was credited and charged,
 * records the challans, closes the months, and checks the withheld tax, the journal, the four
 * quarterly returns, the certificates, the yearly report and each person's summary against it.
 */
type Member = TestClient & { userId: string; mobile: string; password: string };
let server: TestServer;
let at = new Date('2026-05-10T06:00:00.000Z');
let finance: Member;
let finance2: Member;
let reviewer: Member;

const RULE = { code: '393-194C', label: 'Section 393 (old 194C)', rateWithPan: '1.00', rateWithoutPan: '20.00', perPaymentThreshold: '300.00', perYearThreshold: '1000.00', appliesTo: ['task_reward', 'adjustment'] };
const PER_PAYMENT = 30_000;
const PER_YEAR = 100_000;

beforeAll(async () => {
  server = await startTestServer({}, { now: () => at });
  await server.applySettings({ taxRules: [RULE], adjustmentApprovalThreshold: '100000.00', memberDailyAdjustmentLimit: '1000000.00', sessionIdleDays: 30 });
});
afterAll(async () => server?.close());

/** Each quarter's staff, signed up once the clock moved (sessions idle out). */
async function staff() {
  finance = await server.signUp({ roles: ['finance'] });
  finance2 = await server.signUp({ roles: ['finance'] });
  reviewer = await server.signUp({ roles: ['reviewer'] });
}

interface Payee {
  client: Member;
  pan: string | null;
  /** The year's credits and the tax withheld and not given back, paise (the fold). */
  creditedPaise: number;
  withheldPaise: number;
  /** Withdrawals not given back: gross and tax, by quarter. */
  deductions: Array<{ id: string; seq: number; quarter: number; grossPaise: number; taxPaise: number }>;
}
const payees: Payee[] = [];
let seq = 0;

/** The rule's tax on x paise, rounded up to the whole rupee. */
const taxOn = (x: number, pan: boolean) => Math.ceil((x * (pan ? 100 : 2000)) / 10_000 / 100) * 100;

/** What the fold says a payment is charged (docs/tax.md "The computation"). */
function expectedTax(p: Payee, paymentPaise: number): number {
  const pan = p.pan !== null;
  if (p.creditedPaise > PER_YEAR) return Math.min(paymentPaise, Math.max(0, taxOn(p.creditedPaise, pan) - p.withheldPaise));
  if (paymentPaise > PER_PAYMENT) return taxOn(Math.min(paymentPaise, p.creditedPaise), pan);
  return 0;
}

async function credit(p: Payee, rupees: number) {
  await adjust(finance, p.client.mobile, rupees);
  p.creditedPaise += rupees * 100;
}

async function withdraw(p: Payee, rupees: number, quarter: number) {
  const taxPaise = expectedTax(p, rupees * 100);
  const res = await p.client.post<WithdrawalBody>('/api/withdrawals', { amount: rupees, upiId: UPI });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.tax).toEqual(taxPaise > 0 ? { amount: formatPaise(taxPaise), code: RULE.code } : null);
  expect(res.body.net).toBe(formatPaise(rupees * 100 - taxPaise));
  p.withheldPaise += taxPaise;
  const deduction = { id: res.body.id, seq: seq++, quarter, grossPaise: rupees * 100, taxPaise };
  p.deductions.push(deduction);
  return deduction;
}

async function reject(p: Payee, d: Payee['deductions'][number]) {
  expect((await finance.post(`/api/admin/withdrawals/${d.id}/reject`, { reason: 'Wrong UPI' })).status).toBe(200);
  p.withheldPaise -= d.taxPaise;
  p.deductions.splice(p.deductions.indexOf(d), 1);
}

async function moveTo(iso: string) {
  at = new Date(iso);
  await staff();
  for (const p of payees) expect((await p.client.post('/api/auth/login', { mobile: p.client.mobile, password: p.client.password })).status).toBe(200);
}

const quarterLabel = (q: number) => `2026-27-Q${q}`;
/** The quarter's deductions in the order they were made (the return's order). */
const deductedIn = (q: number) =>
  payees.flatMap((p) => p.deductions.filter((d) => d.quarter === q && d.taxPaise > 0).map((d) => ({ p, d }))).sort((a, b) => a.d.seq - b.d.seq);
const sumTax = (q: number) => deductedIn(q).reduce((s, { d }) => s + d.taxPaise, 0);

async function deposit(quarter: number, date: string, amountPaise: number, serial: string, key?: string) {
  const res = await finance.request<TaxDepositBody & { error?: { code: string } }>(
    'POST',
    '/api/admin/ledger/tax-deposits',
    { quarter: quarterLabel(quarter), bsrCode: '0510308', serial, date, amount: formatPaise(amountPaise) },
    key ? { 'idempotency-key': key } : {},
  );
  return res;
}

describe('a financial year of tax withheld, deposited and returned', () => {
  it('withholds by the fold, books deposits, and answers the returns, certificates, yearly report and summaries', { timeout: 120_000 }, async () => {
    await staff();
    // Q1 (April–June 2026): 20 payees; PAN for payees 0–3, 8–11, 16–19.
    for (let i = 0; i < 20; i++) {
      const client = await server.signUp({ firstName: `Payee${i}`, lastName: 'Test' });
      const pan = Math.floor(i / 4) % 2 === 0 ? `ABCDE${String(1000 + i)}F` : null;
      if (pan) {
        const doc = await submitDocument(server.url, client, 'pan', i * 3 + 1, pan);
        expect((await reviewer.post(`/api/admin/kyc/${doc.id}/approve`)).status).toBe(200);
      }
      payees.push({ client, pan, creditedPaise: 0, withheldPaise: 0, deductions: [] });
    }
    const group = (g: number) => payees.filter((_, i) => i % 4 === g);
    for (const p of group(0)) { await credit(p, 500); await withdraw(p, 200, 1); }
    for (const p of group(1)) { await credit(p, 800); await withdraw(p, 400, 1); } // above ₹300 once
    for (const p of group(2)) { await credit(p, 600); await withdraw(p, 100, 1); }
    for (const p of group(3)) await credit(p, 700);

    // Q2: Q1's tax deposited in full (twice sent with one key: one challan).
    await moveTo('2026-08-10T06:00:00.000Z');
    const q1 = await deposit(1, '2026-07-07', sumTax(1), '00001', 'challan-q1');
    expect(q1.status, JSON.stringify(q1.body)).toBe(201);
    const again = await deposit(1, '2026-07-07', sumTax(1), '00001', 'challan-q1');
    expect(again.body.id).toBe(q1.body.id);
    expect((await deposit(1, '2026-07-07', 100, '00001')).status).toBe(409); // the same challan again
    const refused = await finance.post('/api/admin/ledger/tax-deposits', { quarter: '2026-27-Q5', bsrCode: '051030', serial: '1', date: '2026-7-7', amount: '0' });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.error.fields).sort()).toEqual(['amount', 'bsrCode', 'date', 'quarter', 'serial']);
    expect((await deposit(1, '2026-08-11', 100, '00002')).status).toBe(400); // tomorrow
    for (const p of group(2)) { await credit(p, 600); await withdraw(p, 500, 2); } // the year crosses ₹1,000: all of it taxed
    for (const p of group(1)) await withdraw(p, 250, 2);
    for (const p of group(3)) await reject(p, await withdraw(p, 400, 2)); // taxed, then given back

    // Q3: Q2's tax in two challans; the first covers only part of it.
    await moveTo('2026-11-10T06:00:00.000Z');
    const firstPart = deductedIn(2).slice(0, 3).reduce((s, { d }) => s + d.taxPaise, 0);
    expect((await deposit(2, '2026-10-05', firstPart, '00011')).status).toBe(201);
    expect((await deposit(2, '2026-10-06', sumTax(2) - firstPart, '00012')).status).toBe(201);
    for (const p of group(0)) await withdraw(p, 200, 3);
    for (const p of group(2)) await credit(p, 300);

    // Q4: Q3 had no tax; Q4's is deposited short of what was deducted.
    await moveTo('2027-02-10T06:00:00.000Z');
    for (const p of group(2)) await withdraw(p, 300, 4); // the year's due on ₹1,500 less what was withheld
    for (const p of group(3)) await withdraw(p, 350, 4); // above ₹300 on its own
    const shortBy = deductedIn(4).at(-1)!.d.taxPaise;
    await moveTo('2027-04-10T06:00:00.000Z');
    expect((await deposit(4, '2027-04-07', sumTax(4) - shortBy, '00041')).status).toBe(201);

    // The fold crossed each threshold, with and without a PAN.
    expect(new Set(deductedIn(1).concat(deductedIn(2), deductedIn(4)).map(({ p }) => p.pan !== null))).toEqual(new Set([true, false]));
    expect(sumTax(3)).toBe(0);

    // The year's months close (two members each); nothing is posted into them afterwards.
    for (let m = 0; m < 12; m++) {
      const month = istDayOf(new Date(Date.UTC(2026, 3 + m, 15))).slice(0, 7);
      expect((await finance.post(`/api/admin/ledger/periods/${month}/close`)).status).toBe(202);
      expect((await finance2.post(`/api/admin/ledger/periods/${month}/close/approve`)).status).toBe(200);
    }
    const late = await deposit(4, '2027-03-31', 100, '00042');
    expect(late.status).toBe(409);
    expect(late.body.error?.code).toBe('period_closed');
    const lateAdjustment = await finance.post('/api/admin/adjustments', { mobile: payees[0]!.client.mobile, amount: '10', direction: 'credit', reason: 'Late', effectiveDate: '2026-12-01' });
    expect(lateAdjustment.status).toBe(409);
    expect(lateAdjustment.body.error.code).toBe('period_closed');

    // The journal: tax payable holds what was withheld less what was deposited; the books agree.
    await server.runner.waitFor(await server.store.headPosition());
    const withheld = payees.reduce((s, p) => s + p.withheldPaise, 0);
    const deposited = sumTax(1) + sumTax(2) + sumTax(4) - shortBy;
    const trial = (await finance.get<TrialBalanceBody>('/api/admin/ledger/trial-balance')).body;
    expect(trial.accounts.find((a) => a.account === 'platform:tax_payable')?.balance).toBe(formatPaise(withheld - deposited));
    expect(trial.difference).toBe('0.00');
    const rec = (await finance.get<ReconciliationBody>('/api/admin/ledger/reconciliation')).body;
    expect(rec).toMatchObject({ taxPayable: formatPaise(withheld - deposited), taxDeposited: formatPaise(deposited), paid: '0.00', difference: '0.00', negativeBalances: [] });
    expect(await ledgerProblems(server)).toEqual([]);

    // Each quarter's return, as JSON and as the CSV, row by row against the fold.
    for (const q of [1, 2, 3, 4]) {
      const expected = deductedIn(q);
      const ret = await finance.get<TaxReturnBody>(`/api/admin/ledger/tax/${quarterLabel(q)}`);
      expect(ret.status).toBe(200);
      expect(ret.body.rows.map((r) => [r.withdrawalId, r.pan, r.code, r.amountPaid, r.taxDeducted])).toEqual(
        expected.map(({ p, d }) => [d.id, p.pan ?? 'PANNOTAVBL', RULE.code, formatPaise(d.grossPaise), formatPaise(d.taxPaise)]),
      );
      const deposits = { 1: sumTax(1), 2: sumTax(2), 3: 0, 4: sumTax(4) - shortBy }[q]!;
      expect(ret.body.summary).toMatchObject({ deducted: formatPaise(sumTax(q)), deposited: formatPaise(deposits), due: formatPaise(sumTax(q) - deposits) });
      const file = await finance.get<string>(`/api/admin/ledger/tax/${quarterLabel(q)}?format=csv`);
      expect([...(await finance.bytes(`/api/admin/ledger/tax/${quarterLabel(q)}?format=csv`)).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(file.body.replace(/^\uFEFF/, '').startsWith('deductee_pan,deductee_name,section_code,amount_paid,date_of_payment,tax_deducted,date_of_deduction,challan_bsr_code,challan_serial,challan_date,')).toBe(true);
      const rows = parseCsv(file.body);
      expect(rows.map((r) => [r['withdrawal_id'], r['deductee_pan'], r['tax_deducted']])).toEqual(expected.map(({ p, d }) => [d.id, p.pan ?? 'PANNOTAVBL', formatPaise(d.taxPaise)]));
      for (const r of rows) expect(r['mobile']).toMatch(/x{6}/);
      // Which challan each deduction went under: the first covers the first rows; Q4's last is not yet deposited.
      const serials = rows.map((r) => r['challan_serial']);
      if (q === 1) expect(new Set(serials)).toEqual(new Set(['00001']));
      if (q === 2) expect(serials).toEqual(serials.map((_, i) => (i < 3 ? '00011' : '00012')));
      if (q === 4) expect(serials).toEqual(serials.map((_, i) => (i < serials.length - 1 ? '00041' : '')));
    }

    // A payee's certificate for Q2 (the year crossed): PAN, period, amounts and the challan.
    const c2 = group(2)[0]!;
    const certificates = (await finance.get<TaxCertificateBody[]>(`/api/admin/ledger/tax/${quarterLabel(2)}/certificates`)).body;
    const own = c2.deductions.filter((d) => d.quarter === 2 && d.taxPaise > 0);
    expect(certificates.find((c) => c.deductee.userId === c2.client.userId)).toMatchObject({
      deductee: { pan: c2.pan ?? 'PANNOTAVBL' },
      period: { from: '2026-07-01', to: '2026-09-30' },
      amountPaid: formatPaise(own.reduce((s, d) => s + d.grossPaise, 0)),
      taxDeducted: formatPaise(own.reduce((s, d) => s + d.taxPaise, 0)),
    });

    // The yearly report: gross, tax and net per person and per PAN.
    const report = (await finance.get<YearlyReportBody>('/api/admin/reports/yearly?fy=2026-27')).body;
    for (const p of payees) {
      const gross = p.deductions.reduce((s, d) => s + d.grossPaise, 0);
      const tax = p.deductions.reduce((s, d) => s + d.taxPaise, 0);
      expect(report.people.find((line) => line.userId === p.client.userId), p.client.mobile).toMatchObject({ grossPaid: formatPaise(gross), taxDeducted: formatPaise(tax), netPaid: formatPaise(gross - tax) });
      if (p.pan) expect(report.byPan.find((line) => line.pan === p.pan)).toEqual({ pan: p.pan, accounts: 1, grossPaid: formatPaise(gross), taxDeducted: formatPaise(tax), netPaid: formatPaise(gross - tax) });
    }
    expect(report.totals.taxDeducted).toBe(formatPaise(withheld));

    // The person's own summary (Profile): the year's paid, tax and net.
    const summary = await c2.client.get<MyTaxYearBody[]>('/api/tax-summary');
    const gross = c2.deductions.reduce((s, d) => s + d.grossPaise, 0);
    expect(summary.body).toEqual([{ fy: '2026-27', paid: formatPaise(gross), taxDeducted: formatPaise(c2.withheldPaise), net: formatPaise(gross - c2.withheldPaise) }]);
    const quarters = await finance.get<TaxQuarterSummaryBody>(`/api/admin/ledger/tax-deposits?quarter=${quarterLabel(2)}`);
    expect(quarters.body.deposits.map((d) => d.serial)).toEqual(['00011', '00012']);
  });
});
