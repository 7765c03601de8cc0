import { type AuditEntryBody, type FundingBody, type LedgerPeriodBody, type LedgerPeriodRowBody, istDayOf } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';

type Staff = TestClient & { userId: string; mobile: string };
let server: TestServer;
let finance: Staff;
let finance2: Staff;

beforeAll(async () => {
  server = await startTestServer();
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
  finance2 = await server.signUp({ roles: ['finance'], firstName: 'Meera', lastName: 'Iyer' });
});
afterAll(async () => server?.close());

/** An IST day `months` before today's month, on its 10th (`months` = 0: today). */
const dayMonthsAgo = (months: number): string => {
  const today = istDayOf(new Date());
  if (months === 0) return today;
  const [y, m] = today.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) - months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-10`;
};
const monthOf = (day: string) => day.slice(0, 7);
const close = (who: Staff, month: string) => who.post(`/api/admin/ledger/periods/${month}/close`);
const approve = (who: Staff, month: string) => who.post(`/api/admin/ledger/periods/${month}/close/approve`);

describe('closing a month of the books', () => {
  it('refuses the current month and later ones, and what is no month', async () => {
    const current = monthOf(dayMonthsAgo(0));
    const refused = await close(finance, current);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'period_not_over', key: 'period.notOver', params: { month: current } });
    expect((await close(finance, `${Number(current.slice(0, 4)) + 1}-01`)).body.error.code).toBe('period_not_over');
    expect((await close(finance, '2026-13')).status).toBe(400);
    expect((await approve(finance2, monthOf(dayMonthsAgo(5)))).status).toBe(404);
  });

  it('takes two finance members; then fundings and adjustments dated inside it are 409 period_closed', async () => {
    const lastMonth = monthOf(dayMonthsAgo(1));
    // A funding above the threshold waits for approval, dated in a month closed before it is approved.
    const waiting = await finance.post<FundingBody>('/api/admin/ledger/funding', { amount: '5000.00', reference: 'NEFT-PERIOD-1', date: dayMonthsAgo(1) });
    expect(waiting.status).toBe(202);

    const asked = await close(finance, lastMonth);
    expect(asked.status).toBe(202);
    expect(asked.body as LedgerPeriodBody).toEqual({ month: lastMonth, status: 'pending', requestedBy: finance.userId, requestedAt: expect.any(String), closedBy: null, closedAt: null });
    // Nothing is closed yet: a posting into it still goes through.
    expect((await finance.post('/api/admin/ledger/funding', { amount: '10.00', reference: 'NEFT-PERIOD-2', date: dayMonthsAgo(1) })).status).toBe(201);
    // Asking again changes nothing; the asker cannot approve.
    expect((await close(finance2, lastMonth)).body).toMatchObject({ status: 'pending', requestedBy: finance.userId });
    const own = await approve(finance, lastMonth);
    expect(own.status).toBe(403);
    expect(own.body.error.key).toBe('period.ownClose');

    const listed = async () => (await finance2.get<LedgerPeriodRowBody[]>('/api/admin/ledger/periods')).body;
    expect((await listed()).find((p) => p.month === lastMonth)).toMatchObject({ status: 'pending', requestedByName: 'Rohan Gupta', closedByName: null });

    const closed = await approve(finance2, lastMonth);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ month: lastMonth, status: 'closed', requestedBy: finance.userId, closedBy: finance2.userId });
    expect((await approve(finance2, lastMonth)).body.error.code).toBe('period_closed');
    expect((await close(finance, lastMonth)).body.error.code).toBe('period_closed');
    // The list: this month first, then the twelve before it, each read from its own stream.
    const periods = await listed();
    expect(periods.map((p) => p.month)).toEqual(Array.from({ length: 13 }, (_, i) => monthOf(dayMonthsAgo(i))));
    expect(periods[0]).toMatchObject({ status: 'open', requestedBy: null, requestedByName: null });
    expect(periods[1]).toMatchObject({ month: lastMonth, status: 'closed', requestedByName: 'Rohan Gupta', closedBy: finance2.userId, closedByName: 'Meera Iyer' });
    // Both steps are in the audit list, the month as their reference.
    const admin = await server.signUp({ roles: ['admin'] });
    const audit = (await admin.get<AuditEntryBody[]>('/api/admin/audit')).body.filter((e) => e.action.startsWith('period_'));
    expect(audit.map((e) => [e.action, e.actor.id, e.reference])).toEqual([
      ['period_closed', finance2.userId, lastMonth],
      ['period_close_requested', finance.userId, lastMonth],
    ]);

    const funding = await finance.post('/api/admin/ledger/funding', { amount: '10.00', reference: 'NEFT-PERIOD-3', date: dayMonthsAgo(1) });
    expect(funding.status).toBe(409);
    expect(funding.body.error).toMatchObject({ code: 'period_closed', key: 'period.closed', params: { month: lastMonth } });
    const approving = await finance2.post(`/api/admin/ledger/funding/${waiting.body.id}/approve`);
    expect(approving.status).toBe(409);
    expect(approving.body.error.code).toBe('period_closed');
    expect((await finance.get<FundingBody[]>('/api/admin/ledger/funding?status=pending')).body.map((f) => f.id)).toEqual([waiting.body.id]);
    // The open month takes the correction.
    expect((await finance.post('/api/admin/ledger/funding', { amount: '10.00', reference: 'NEFT-PERIOD-3', date: dayMonthsAgo(0) })).status).toBe(201);

    const person = await server.signUp();
    const adjustment = (effectiveDate?: string) =>
      finance.post('/api/admin/adjustments', { mobile: person.mobile, amount: '50', direction: 'credit', reason: 'Correction', ...(effectiveDate !== undefined && { effectiveDate }) });
    const intoClosed = await adjustment(dayMonthsAgo(1));
    expect(intoClosed.status).toBe(409);
    expect(intoClosed.body.error.code).toBe('period_closed');
    const future = new Date(Date.now() + 3 * 86_400_000);
    expect((await adjustment(istDayOf(future))).status).toBe(400);
    expect((await adjustment(dayMonthsAgo(2))).status).toBe(201);
    expect((await adjustment('')).status).toBe(201);
    expect((await adjustment()).status).toBe(201);
  });
});
