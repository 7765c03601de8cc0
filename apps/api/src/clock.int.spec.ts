import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adjust } from './finance/testing.ts';
import { type TestServer, startTestServer } from './testing/index.ts';

const HOUR = 3600_000;

/**
 * The machine's clock set back an hour (an NTP correction) between two commands. The API's clock is
 * the machine's (new Date()): vitest moves it for the whole process, the store's writer and the
 * routes alike, while it keeps running as real time does.
 */
describe('the clock going back an hour between two commands', () => {
  let server: TestServer;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
    vi.useRealTimers();
  });

  it('keeps each stream\'s times in order, and the as-of balance and the statement agree with the log', async () => {
    const finance = await server.signUp({ roles: ['finance'] });
    const earner = await server.signUp();
    await adjust(finance, earner.mobile, '100');
    vi.setSystemTime(Date.now() - HOUR);
    await adjust(finance, earner.mobile, '50');

    // The user's stream: its credits carry times that never go back, and so do the log's rows.
    const events = await server.store.readStream(`user-${earner.userId}`);
    const credits = events.filter((e) => e.type === 'WalletCredited').map((e) => (e.data as { creditedAt: string }).creditedAt);
    expect(credits).toHaveLength(2);
    expect(credits[1]! >= credits[0]!).toBe(true);
    const recorded = (await server.store.readAll({ after: 0, limit: 10_000 })).map((e) => e.recordedAt);
    expect(recorded).toEqual([...recorded].sort());

    // As of now (the API's clock, an hour behind the first credit on the machine's), both credits count.
    const now = await finance.get<{ available: string }>(`/api/admin/ledger/users/${earner.userId}/balance`);
    expect(Number(now.body.available)).toBe(150);
    const beforeFirst = new Date(Date.parse(credits[0]!) - 1).toISOString();
    expect(Number((await finance.get<{ available: string }>(`/api/admin/ledger/users/${earner.userId}/balance?at=${beforeFirst}`)).body.available)).toBe(0);
    const atSecond = await finance.get<{ available: string }>(`/api/admin/ledger/users/${earner.userId}/balance?at=${credits[1]!}`);
    expect(Number(atSecond.body.available)).toBe(150);

    const statement = await finance.get<{ entries: { time: string; amount: string; balance: string }[]; closing: { available: string } }>(
      `/api/admin/ledger/users/${earner.userId}/statement`,
    );
    const times = statement.body.entries.map((e) => e.time);
    expect(times).toEqual([...times].sort());
    expect(statement.body.entries.map((e) => Number(e.balance))).toEqual([100, 150]);
    expect(Number(statement.body.closing.available)).toBe(150);
  });
});
