import type { PeriodTrialBalanceBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { BANK, adjust, parseCsv } from './testing.ts';

let server: TestServer;
let funder: TestClient;
let finance: TestClient;
// The server's clock: entries are dated by it, so a period can leave some of them before it.
let at = new Date('2026-04-10T06:00:00Z');

beforeAll(async () => {
  server = await startTestServer({}, { now: () => at });
  funder = await server.signUp({ roles: ['finance'], firstName: 'Neha', lastName: 'Joshi' });
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
});
afterAll(async () => server?.close());

const paise = (rupees: string) => Math.round(Number(rupees) * 100);
const net = (side: { debit: string; credit: string }) => paise(side.credit) - paise(side.debit);

describe('the trial balance over a period', () => {
  it('gives each account its opening, movement and closing in Dr/Cr columns whose totals agree, as JSON and as CSV', async () => {
    const user = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
    await adjust(funder, user.mobile, 500);
    // 23:00 IST on 14 April: the last hour before the period, which starts on the 15th in India time.
    at = new Date('2026-04-14T17:30:00Z');
    await adjust(funder, user.mobile, 50);
    at = new Date('2026-04-15T05:00:00Z');
    await adjust(funder, user.mobile, 200);
    expect((await user.post('/api/withdrawals', { amount: 100, bankAccount: BANK })).status).toBe(201);
    // After the period's last day (16 April IST ends at 18:30 UTC): not in it.
    at = new Date('2026-04-16T19:00:00Z');
    await adjust(funder, user.mobile, 1);

    const answer = await finance.get<PeriodTrialBalanceBody>('/api/admin/ledger/trial-balance/period?from=2026-04-15&to=2026-04-16');
    expect(answer.status).toBe(200);
    const body = answer.body;
    const available = body.accounts.find((a) => a.account.endsWith(':available'));
    expect(available?.holder).toMatchObject({ name: 'Asha Rao', mobile: expect.stringMatching(/^\+91 \d\dx{6}\d\d$/) });
    expect(available).toMatchObject({
      opening: { debit: '0.00', credit: '550.00' },
      movement: { debit: '100.00', credit: '200.00' },
      closing: { debit: '0.00', credit: '650.00' },
    });
    for (const a of body.accounts) expect(net(a.closing), a.account).toBe(net(a.opening) + net(a.movement));
    // Double entry: each pair of columns agrees in total.
    for (const column of ['opening', 'movement', 'closing'] as const) expect(body.totals[column].debit, column).toBe(body.totals[column].credit);
    expect(body.totals.opening.credit).toBe('550.00');

    const bytes = await finance.bytes('/api/admin/ledger/trial-balance/period?from=2026-04-15&to=2026-04-16&format=csv');
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(new TextDecoder().decode(bytes));
    expect(rows.at(-1)).toMatchObject({ account: 'TOTAL', opening_dr: '550.00', opening_cr: '550.00', closing_dr: body.totals.closing.debit, closing_cr: body.totals.closing.credit });
    expect(rows.find((r) => r['account'] === available?.account)).toMatchObject({ account_holder: 'Asha Rao', opening_cr: '550.00', movement_dr: '100.00', movement_cr: '200.00', closing_cr: '650.00' });

    // A period before anything happened has no accounts; from after to, or no day, is refused.
    expect((await finance.get<PeriodTrialBalanceBody>('/api/admin/ledger/trial-balance/period?from=2026-04-01&to=2026-04-09')).body.accounts).toEqual([]);
    const backwards = await finance.get('/api/admin/ledger/trial-balance/period?from=2026-04-16&to=2026-04-15');
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.fields).toEqual({ to: 'Give from and to as days (YYYY-MM-DD), from not after to' });
    expect((await finance.get('/api/admin/ledger/trial-balance/period?from=2026-04-15')).status).toBe(400);
  });
});
