import { type PayoutBatchBody, type ResultsImportBody, istDayOf, parseCsv } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { ICICI_BANK_COLUMNS, UPI_COLUMNS, shortReference } from './bank-templates.ts';
import { adjust, balanceOf } from './testing.ts';

type Member = TestClient & { userId: string; mobile: string };
let server: TestServer;
let finance: Member;
let funder: Member;
let admin: Member;

const DEBIT_ACCOUNT = '000405001234';
/** A holder name a spreadsheet would run, with characters a bank's upload refuses. */
const FORMULA_NAME = '=HYPERLINK("x")+Ravi, Kumár @Home';
const CLEANED = 'HYPERLINKxRavi Kumar Home';

const rows = (text: string) => parseCsv(text).map((r) => r.cells);
const dayIn = (days: number) => istDayOf(new Date(Date.now() + days * 86_400_000));
const ddmmyyyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

beforeAll(async () => {
  server = await startTestServer();
  finance = await server.signUp({ roles: ['finance'] });
  funder = await server.signUp({ roles: ['finance'] });
  admin = await server.signUp({ roles: ['admin'] });
  await server.applySettings({ memberDailyAdjustmentLimit: '1000000.00', adjustmentApprovalThreshold: '1000000.00', payoutBatchApprovalThreshold: '1000000.00' });
});
afterAll(async () => server?.close());

/** Four payees: NEFT/IMPS to another bank (a formula-like name), RTGS above ₹2 lakh, within the bank, and UPI. */
async function batch(ownIfsc: string) {
  const asks = [
    { amount: 1500, bankAccount: { accountNumber: '001234567894321', ifsc: 'SBIN0001234', holderName: FORMULA_NAME } },
    { amount: 250000, bankAccount: { accountNumber: '998877665544', ifsc: 'UTIB0000123', holderName: 'Meena Iyer' } },
    { amount: 700, bankAccount: { accountNumber: '123456789', ifsc: `${ownIfsc}0004321`, holderName: 'Sunil Das' } },
    { amount: 900, upiId: 'asha.rao@okicici' },
  ];
  const made: { user: Member; id: string; amountPaise: number }[] = [];
  for (const ask of asks) {
    const user = await server.signUp({ firstName: '-Asha', lastName: 'Rao!' });
    await adjust(funder, user.mobile, ask.amount + 100);
    const res = await user.post('/api/withdrawals', ask);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made.push({ user, id: res.body.id as string, amountPaise: ask.amount * 100 });
  }
  const created = await finance.post<PayoutBatchBody>('/api/admin/payout-batches', { withdrawalIds: made.map((m) => m.id) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id, made };
}

// The body is the CSV text, or the error's JSON when refused.
const file = (id: string, query = '') => finance.get(`/api/admin/payout-batches/${id}/file${query}`);

describe('payout bank files in the banks\' bulk-upload templates', () => {
  it('keeps the generic file (with its formula guard) until a template is chosen, and refuses a past value date', async () => {
    const { id } = await batch('ICIC');
    const generic = await file(id);
    expect(generic.status).toBe(200);
    expect(rows(generic.body)).toHaveLength(5);
    expect(rows(generic.body).some((r) => r[5] === `'${FORMULA_NAME}`)).toBe(true);
    const upiOnly = await file(id, '?kind=upi');
    expect(rows(upiOnly.body).slice(1).map((r) => r[2])).toEqual(['UPI']);
    const past = await file(id, `?valueDate=${dayIn(-2)}`);
    expect(past.status).toBe(400);
    expect(past.body.error.fields.valueDate).toBeTruthy();
    expect((await file(id, '?valueDate=2026-02-30')).status).toBe(400);
    expect((await file(id, '?kind=cheque')).status).toBe(400);
  });

  it('writes ICICI CIB rows and a separate UPI upload with the debit account, the value date, its codes, net amounts, cleaned names and short references the results file gives back', async () => {
    const set = await admin.put('/api/admin/settings', { bankFileTemplate: 'icici' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const { id, made } = await batch('ICIC');
    // Without the debit account a template file cannot be made; without a kind it does not know which.
    expect((await file(id, '?kind=bank')).status).toBe(409);
    expect((await admin.put('/api/admin/settings', { bankDebitAccount: DEBIT_ACCOUNT, bankPayerName: 'Kamai Tech', bankPayerIfsc: 'icic0000104' })).status).toBe(200);
    const noKind = await file(id);
    expect(noKind.status).toBe(400);
    expect(noKind.body.error.fields.kind).toBeTruthy();

    const valueDate = dayIn(1);
    const bank = await file(id, `?kind=bank&valueDate=${valueDate}`);
    expect(bank.status).toBe(200);
    expect(bank.body.charCodeAt(0)).not.toBe(0xfeff);
    expect(bank.headers.get('content-disposition')).toContain(`-icici-bank-${valueDate}.csv`);
    const [header, ...body] = rows(bank.body);
    expect(header).toEqual([...ICICI_BANK_COLUMNS]);
    expect(body).toEqual([
      ['IFC', DEBIT_ACCOUNT, '001234567894321', 'SBIN0001234', CLEANED, '1500.00', 'INR', ddmmyyyy(valueDate), shortReference(made[0]!.id), 'KAMAI PAYOUT'],
      ['RTG', DEBIT_ACCOUNT, '998877665544', 'UTIB0000123', 'Meena Iyer', '250000.00', 'INR', ddmmyyyy(valueDate), shortReference(made[1]!.id), 'KAMAI PAYOUT'],
      ['WIB', DEBIT_ACCOUNT, '123456789', 'ICIC0004321', 'Sunil Das', '700.00', 'INR', ddmmyyyy(valueDate), shortReference(made[2]!.id), 'KAMAI PAYOUT'],
    ]);
    expect(shortReference(made[0]!.id)).toMatch(/^KM[0-9A-F]{16}$/);

    // The UPI upload: today's value date by default, the payee's name cleaned (no leading '-', no '!').
    const upi = await file(id, '?kind=upi');
    const [upiHeader, ...upiRows] = rows(upi.body);
    expect(upiHeader).toEqual([...UPI_COLUMNS]);
    expect(upiRows).toEqual([[DEBIT_ACCOUNT, 'ICIC0000104', ddmmyyyy(dayIn(0)), 'UPI', 'asha.rao@okicici', 'Asha Rao', '900.00', shortReference(made[3]!.id), 'KAMAI PAYOUT']]);

    // The results file gives the short references back: each settles its withdrawal.
    const results = [
      'reference,amount,status,utr',
      ...made.map((m, i) => `${shortReference(m.id)},${(m.amountPaise / 100).toFixed(2)},SUCCESS,ICICN00${i}7755`),
      'KM0000000000000000,1.00,SUCCESS,ICICN0099',
    ].join('\r\n');
    const imported = await finance.request('POST', `/api/admin/payout-batches/${id}/results`, `${results}\r\n`, { 'content-type': 'text/csv' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ applied: 4, skipped: 0, refused: [{ line: 6, reference: 'KM0000000000000000', reason: 'unknown_reference' }] });
    expect(await balanceOf(made[0]!.user)).toBe('100.00');
    // Nothing is left with the bank: each kind's file is its header alone.
    expect(rows((await file(id, '?kind=bank')).body)).toEqual([[...ICICI_BANK_COLUMNS]]);
  });

  it('writes HDFC ENet rows (no header, its transaction types, the customer reference in column 14) and an empty file for a kind with no rows', async () => {
    expect((await admin.put('/api/admin/settings', { bankFileTemplate: 'hdfc' })).status).toBe(200);
    const { id, made } = await batch('HDFC');
    const valueDate = dayIn(0);
    const bank = await file(id, '?kind=bank');
    expect(bank.status).toBe(200);
    const body = rows(bank.body);
    expect(body).toHaveLength(3);
    for (const row of body) expect(row).toHaveLength(28);
    const expected = [
      ['N', '001234567894321', '1500.00', CLEANED, 'SBIN0001234'],
      ['R', '998877665544', '250000.00', 'Meena Iyer', 'UTIB0000123'],
      ['I', '123456789', '700.00', 'Sunil Das', 'HDFC0004321'],
    ];
    body.forEach((row, i) => {
      const [type, account, amount, name, ifsc] = expected[i]!;
      expect([row[0], row[2], row[3], row[4], row[24]]).toEqual([type, account, amount, name, ifsc]);
      expect([row[13], row[14], row[22]]).toEqual([shortReference(made[i]!.id), 'KAMAI PAYOUT', ddmmyyyy(valueDate)]);
      expect(row.filter((cell, j) => cell !== '' && ![0, 2, 3, 4, 13, 14, 22, 24].includes(j))).toEqual([]);
    });
    // The results come back by the short reference; the UPI one by its withdrawal id, as before.
    const results = [
      'Reference,Amount,Status,UTR,Failure Reason',
      `${shortReference(made[0]!.id).toLowerCase()},1500.00,FAILED,,Account closed`,
      `${made[3]!.id},900.00,SUCCESS,HDFCU0042,`,
    ].join('\r\n');
    const imported = await finance.request('POST', `/api/admin/payout-batches/${id}/results`, `${results}\r\n`, { 'content-type': 'text/csv' });
    expect(imported.body).toEqual({ applied: 2, skipped: 0, refused: [] } satisfies ResultsImportBody);
    expect(await balanceOf(made[0]!.user)).toBe('1600.00');
    const upi = await file(id, '?kind=upi');
    expect(upi.status).toBe(200);
    expect(rows(upi.body)).toEqual([[...UPI_COLUMNS]]);
  });

  it('shows the debit account to staff only', async () => {
    const outsider = await server.signUp();
    expect((await finance.get('/api/settings')).body.bankDebitAccount).toBe(DEBIT_ACCOUNT);
    expect((await outsider.get('/api/settings')).body.bankDebitAccount).toBe('••••••••1234');
    const bad = await admin.put('/api/admin/settings', { bankFileTemplate: 'sbi', bankDebitAccount: '12ab' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['bankDebitAccount', 'bankFileTemplate']);
  });
});
