import { type YearlyReportBody, istDayOf } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kycUpload, photo } from '../kyc/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { BANK, adjust, parseCsv } from './testing.ts';

type Staff = TestClient & { userId: string; mobile: string };
let server: TestServer;
let finance: Staff;
/** Pays: whoever credited a user sends none of their withdrawals. */
let payer: Staff;

beforeAll(async () => {
  server = await startTestServer();
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
  payer = await server.signUp({ roles: ['finance'], firstName: 'Meera', lastName: 'Das' });
});
afterAll(async () => server?.close());

/** The financial year (April to March) today falls in, as `2026-27`. */
function currentFy(): string {
  const [year, month] = istDayOf(new Date()).split('-').map(Number) as [number, number];
  const start = month >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}
const previousFy = (fy: string) => {
  const start = Number(fy.slice(0, 4)) - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
};

/** A document with a PAN number, answered as it is (submitDocument expects a 201). */
async function submitPan(client: TestClient, documentType: 'pan' | 'voter_id', panNumber: string, seed: number) {
  const frontImageUrl = await kycUpload(server.url, client, await photo(seed));
  const backImageUrl = await kycUpload(server.url, client, await photo(seed + 1));
  return client.post('/api/kyc/documents', { documentType, frontImageUrl, backImageUrl, panNumber });
}

describe('the yearly report for the accountant', () => {
  it('takes a PAN at KYC only on a PAN card and only as AAAAA9999A', async () => {
    const user = await server.signUp();
    for (const [type, pan] of [['pan', 'ABCD1234F'], ['pan', 'ABCDE12345'], ['pan', '12345ABCDE'], ['voter_id', 'ABCDE1234F']] as const) {
      const res = await submitPan(user, type, pan, 11);
      expect(res.status, `${type} ${pan}`).toBe(400);
      expect(res.body.error.fields.panNumber).toBeTruthy();
    }
    expect((await user.get('/api/kyc/documents')).body).toEqual([]);
  });

  it('sums each person’s rewards, bonuses, adjustments and payouts for the financial year, with the PAN, as JSON and as CSV', async () => {
    const asha = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
    const ravi = await server.signUp({ firstName: 'Ravi', lastName: 'Kumar' });
    expect((await submitPan(asha, 'pan', ' abcde1234f ', 21)).status).toBe(201);
    await adjust(finance, asha.mobile, 500);
    const w = await asha.post('/api/withdrawals', { amount: 200, bankAccount: BANK });
    expect((await payer.post(`/api/admin/withdrawals/${w.body.id}/paid`, { reference: 'UTR88880001' })).status).toBe(200);
    await adjust(finance, ravi.mobile, 100);
    await adjust(finance, ravi.mobile, 30, 'debit');

    const fy = currentFy();
    const report = await finance.get<YearlyReportBody>(`/api/admin/reports/yearly?fy=${fy}`);
    expect(report.status).toBe(200);
    expect(report.body.fy).toBe(fy);
    // 1 April, 00:00 IST to 31 March, 23:59:59.999 IST.
    expect(report.body.from).toBe(`${fy.slice(0, 4)}-03-31T18:30:00.000Z`);
    expect(report.body.to).toBe(`${Number(fy.slice(0, 4)) + 1}-03-31T18:29:59.999Z`);
    const masked = (mobile: string) => `+91 ${mobile.slice(0, 2)}xxxxxx${mobile.slice(-2)}`;
    expect(report.body.people.find((p) => p.userId === asha.userId)).toEqual({
      userId: asha.userId, name: 'Asha Rao', mobile: masked(asha.mobile), pan: 'ABCDE1234F', rewards: '0.00', bonuses: '0.00', adjustments: '500.00', payouts: '200.00', referralBonuses: '0.00',
      grossPaid: '200.00', taxDeducted: '0.00', netPaid: '200.00',
    });
    expect(report.body.people.find((p) => p.userId === ravi.userId)).toMatchObject({ name: 'Ravi Kumar', pan: null, adjustments: '70.00', payouts: '0.00' });
    expect(report.body.people.some((p) => p.userId === finance.userId || p.userId === payer.userId)).toBe(false);

    const bytes = await finance.bytes(`/api/admin/reports/yearly?fy=${fy}&format=csv`);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(new TextDecoder().decode(bytes));
    expect(rows.find((r) => r['user_id'] === asha.userId)).toMatchObject({ financial_year: fy, name: 'Asha Rao', pan: 'ABCDE1234F', adjustments: '500.00', payouts: '200.00' });
    const total = rows.at(-1);
    expect(total).toMatchObject({ user_id: 'TOTAL', adjustments: report.body.totals.adjustments, payouts: report.body.totals.payouts });
    const toPaise = (r: string) => Math.round(Number(r) * 100);
    expect(rows.slice(0, -1).reduce((sum, r) => sum + toPaise(r['payouts'] ?? ''), 0)).toBe(toPaise(total?.['payouts'] ?? ''));

    // Nothing of this year in the one before.
    const before = await finance.get<YearlyReportBody>(`/api/admin/reports/yearly?fy=${previousFy(fy)}`);
    expect(before.body.people.some((p) => p.userId === asha.userId)).toBe(false);
  });

  it('refuses a malformed financial year with 400, and anyone but finance', async () => {
    for (const q of ['', '?fy=2025', '?fy=2025-27', '?fy=25-26', '?fy=2025-26&format=xml']) {
      const res = await finance.get(`/api/admin/reports/yearly${q}`);
      expect(res.status, q).toBe(400);
    }
    const user = await server.signUp();
    expect((await user.get('/api/admin/reports/yearly?fy=2025-26')).status).toBe(403);
  });
});
