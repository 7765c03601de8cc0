import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type UserEvent, streams } from '@kamai/contracts';
import { fold, userEvolver } from '@kamai/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPI, adjust, balanceOf } from '../finance/testing.ts';
import { type ApiPair, startApiPair } from '../testing/process.ts';

// The money-out path under fire: two OS processes on one DATA_DIR (one event store, one read
// database), many requests at once against one balance. Only what the balance covers may pass.
const REQUESTS = 60;
const BALANCE_RUPEES = 500;
const AMOUNT_RUPEES = 100;

let pair: ApiPair;
beforeAll(async () => {
  pair = await startApiPair('withdraw-race');
});
afterAll(async () => {
  await pair?.close();
});

describe(`${REQUESTS} concurrent withdrawals of ₹${AMOUNT_RUPEES} against ₹${BALANCE_RUPEES}, across two API processes`, () => {
  it('accepts exactly five, refuses the rest with insufficient_balance, and leaves zero everywhere', async () => {
    const { a, b, store, dataDir } = pair;
    const finance = await pair.signUp(a.url, 'Rohan', ['finance']);
    // The grant reaches the shared read model through a process's runner.
    for (let i = 0; i < 100 && !(await finance.get('/api/auth/user')).body.roles.includes('finance'); i++) await new Promise((r) => setTimeout(r, 50));
    const user = await pair.signUp(b.url, 'Ravi');
    await adjust(finance, user.mobile, BALANCE_RUPEES);

    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) => {
        const url = i % 2 === 0 ? a.url : b.url;
        return user
          .clone(url)
          .post('/api/withdrawals', { amount: AMOUNT_RUPEES, upiId: UPI })
          .then((res) => ({ ...res, via: url }));
      }),
    );
    const elapsed = Date.now() - started;

    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    const expected = BALANCE_RUPEES / AMOUNT_RUPEES;
    console.log(
      `[race] ${REQUESTS} requests in ${elapsed} ms: ${accepted.length} accepted ` +
        `(A ${accepted.filter((r) => r.via === a.url).length}, B ${accepted.filter((r) => r.via === b.url).length}), ` +
        `${refused.length} refused`,
    );
    expect(accepted).toHaveLength(expected);
    expect(refused).toHaveLength(REQUESTS - expected);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('insufficient_balance');
    }
    // Both processes served some of the requests (the split is what makes this a multi-process race).
    expect(new Set(results.map((r) => r.via)).size).toBe(2);

    // The user body on both processes.
    expect(await balanceOf(user.clone(a.url))).toBe('0.00');
    expect(await balanceOf(user.clone(b.url))).toBe('0.00');

    // The event store: the stream folds to zero, with exactly five holds and five requests.
    const recorded = await store.readStream(streams.user(user.userId));
    const events = recorded.map((e) => ({ type: e.type, data: e.data }) as unknown as UserEvent);
    const state = fold(userEvolver, events);
    expect(state.wallet.balance).toBe(0);
    expect(events.filter((e) => e.type === 'WithdrawalRequested')).toHaveLength(expected);
    expect(events.filter((e) => e.type === 'WalletDebited')).toHaveLength(expected);
    expect([...state.withdrawals.byId].filter(([, w]) => w.status === 'pending').map(([id]) => id).sort()).toEqual(accepted.map((r) => r.body.id).sort());

    // The read model, read straight from the file both processes write.
    const read = new Database(join(dataDir, 'read.sqlite'), { readonly: true });
    try {
      const wallet = read.prepare('SELECT balance_paise, total_withdrawn_paise FROM wallets WHERE user_id = ?').get(user.userId);
      expect(wallet).toEqual({ balance_paise: 0, total_withdrawn_paise: BALANCE_RUPEES * 100 });
      // The user's ledger entries that moved the available balance: the funding credit and one hold per request.
      const ledger = read
        .prepare("SELECT COUNT(*) AS n, SUM(CASE WHEN to_account LIKE '%:available' THEN amount_paise ELSE -amount_paise END) AS net FROM journal_entries WHERE user_id = ? AND kind <> 'withdrawal_paid'")
        .get(user.userId);
      expect(ledger).toEqual({ n: expected + 1, net: 0 });
      const requests = read.prepare("SELECT COUNT(*) AS n FROM withdrawal_requests WHERE user_id = ? AND status = 'pending'").get(user.userId);
      expect(requests).toEqual({ n: expected });
    } finally {
      read.close();
    }
  });
});
