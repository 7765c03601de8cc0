import { type WithdrawalBody, type YearlyReportBody, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPI, adjust } from '../finance/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { submitDocument } from './testing.ts';

/**
 * One PAN, one payee (docs/tax.md): the PAN's year total is one live account's, so a second account
 * proving the same PAN is refused at approval; once the first is erased, the second holds it and its
 * tax starts from the year's totals paid under the PAN before, crossing the yearly threshold that
 * neither account crosses alone.
 */
type Member = TestClient & { userId: string; mobile: string; password: string };
let server: TestServer;
let admin: Member;
let funder: Member;
let payer: Member;
let reviewer: Member;
const PAN = 'PQRST6789K';
const RULE = {
  code: '393-194C',
  label: 'Section 393 (old 194C)',
  rateWithPan: '1.00',
  rateWithoutPan: '20.00',
  perPaymentThreshold: '100000.00',
  perYearThreshold: '1000.00',
  appliesTo: ['task_reward', 'adjustment'],
};

beforeAll(async () => {
  server = await startTestServer({}, { now: () => new Date('2026-11-10T06:00:00.000Z') });
  admin = await server.signUp({ roles: ['admin'] });
  funder = await server.signUp({ roles: ['finance'] });
  payer = await server.signUp({ roles: ['finance'] });
  reviewer = await server.signUp({ roles: ['reviewer'] });
  await server.applySettings({ taxRules: [RULE], adjustmentApprovalThreshold: '100000.00', memberDailyAdjustmentLimit: '1000000.00' });
  expect((await admin.put('/api/admin/settings', { deletionCoolingOffHours: 0 })).status).toBe(200);
});
afterAll(async () => server?.close());

async function withdraw(client: Member, rupees: number) {
  const res = await client.post<WithdrawalBody>('/api/withdrawals', { amount: rupees, upiId: UPI });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const typesOf = async (streamId: string) => (await server.store.readStream(streamId)).map((e) => e.type);

describe('a PAN is one payee across accounts', () => {
  it('refuses a second live account the same PAN, and carries the year to the next account once the first is erased', async () => {
    // The first account proves the PAN, earns ₹600 and is paid it all: under the ₹1,000 year, no tax.
    const first = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
    const firstDoc = await submitDocument(server.url, first, 'pan', 1, PAN);
    expect((await reviewer.post(`/api/admin/kyc/${firstDoc.id}/approve`)).status).toBe(200);
    await adjust(funder, first.mobile, 600);
    const paid = await withdraw(first, 600);
    expect(paid).toMatchObject({ tax: null, net: '600.00' });
    const settled = await payer.post(`/api/admin/withdrawals/${paid.id}/paid`, { reference: 'UTR600FIRST' });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);

    // A second account with the same PAN (in lower case: one PAN all the same): refused while the first is live.
    const second = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
    const secondDoc = await submitDocument(server.url, second, 'pan', 4, 'pqrst6789k');
    const refused = await reviewer.post(`/api/admin/kyc/${secondDoc.id}/approve`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'pan_in_use', message: expect.stringContaining('another account') });
    const queued = await reviewer.get<{ id: string; status: string }[]>('/api/admin/kyc?status=pending');
    expect(queued.body.find((d) => d.id === secondDoc.id)?.status).toBe('pending');
    const payee = server.personalData.panPayeeStreamId(PAN);
    // The stream's name is a keyed hash: it holds neither the PAN nor a digit.
    expect(payee).toMatch(/^tax-payee-[a-p]{64}$/);
    expect(await typesOf(payee)).toEqual(['TaxPayeeClaimed']);

    // The first account is erased: its claim is given back with the year's ₹600.
    const asked = await first.post<{ id: string }>('/api/profile/deletion-request', { password: first.password });
    expect(asked.status).toBe(202);
    const erased = await admin.post(`/api/admin/deletions/${asked.body.id}/erase`);
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    const released = (await server.store.readStream(payee)).at(-1)!;
    expect(released.type).toBe('TaxPayeeReleased');
    expect(released.data).toMatchObject({ userId: first.userId, years: [{ fy: '2026-27', credited: [{ kind: 'adjustment', amountPaise: 60_000 }], withheld: [] }] });

    // Now the second account proves it, and starts from the ₹600: its ₹500 takes the PAN's year to
    // ₹1,100, above ₹1,000, so the whole year is taxed at 1 %: ₹11, though this account earned ₹500.
    const approved = await reviewer.post(`/api/admin/kyc/${secondDoc.id}/approve`);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await typesOf(payee)).toEqual(['TaxPayeeClaimed', 'TaxPayeeReleased', 'TaxPayeeClaimed']);
    await adjust(funder, second.mobile, 500);
    const quote = await second.get('/api/withdrawals/quote?amount=500');
    expect(quote.body).toMatchObject({ tax: { amount: '11.00', code: RULE.code }, net: '489.00' });
    expect(await withdraw(second, 500)).toMatchObject({ tax: { amount: '11.00', code: RULE.code }, net: '489.00' });

    // The yearly report's row for the PAN sums both accounts that held it this year, the erased one included.
    const report = await funder.get<YearlyReportBody>('/api/admin/reports/yearly?fy=2026-27');
    expect(report.status).toBe(200);
    expect(report.body.byPan).toEqual([{ pan: PAN, accounts: 2, grossPaid: '1100.00', taxDeducted: '11.00', netPaid: '1089.00' }]);

    // A voter ID (no PAN) is approved as before, outside the workflow.
    const voter = await submitDocument(server.url, second, 'voter_id', 7);
    expect((await reviewer.post(`/api/admin/kyc/${voter.id}/approve`)).status).toBe(200);
    expect(await typesOf(payee)).toHaveLength(3);
    // Each PAN approval was a pan_claim workflow, run to its end.
    const all = await server.store.readAll({ after: 0, limit: 1_000_000 });
    const claims = all.filter((e) => e.type === 'WorkflowStarted' && (e.data as { kind: string }).kind === 'pan_claim');
    expect(claims).toHaveLength(2);
    for (const claim of claims) expect((await typesOf(claim.streamId)).at(-1)).toBe('WorkflowCompleted');
    expect(all.some((e) => e.streamId === streams.user(second.userId) && e.type === 'KycDocumentApproved' && (e.data as { carried?: unknown }).carried !== undefined)).toBe(true);
  }, 60_000);
});
