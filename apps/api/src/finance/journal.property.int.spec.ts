import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KamaiEvent, type UserEvent, formatPaise } from '@kamai/contracts';
import { DomainError, credit, decideAdjustWallet, decideWithdrawals, fold, userEvolver, type UserState } from '@kamai/domain';
import {
  allProjections,
  applyEvents,
  findUserById,
  listPostings,
  openReadDb,
  rebuildReadModels,
  reconciliation,
  trialBalance,
  userBalanceAt,
  userStatement,
  writeTransaction,
} from '@kamai/projections';
import { listAsEventSource, recordEvents } from '@kamai/projections/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { statementCsv, toStatementBody } from './ledger-routes.ts';

// Random sequences of money commands over several users, decided by the real deciders and projected
// into a real read database; after every step the books must balance and agree with the events.
const USERS = ['u1', 'u2', 'u3'] as const;
const STAFF = 'fin';
const dir = mkdtempSync(join(tmpdir(), 'kamai-journal-prop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;

const user = fc.constantFrom(...USERS);
const paise = fc.integer({ min: 1, max: 500_000 });
const command = fc.oneof(
  fc.record({ type: fc.constant('reward' as const), user, amount: paise }),
  fc.record({ type: fc.constant('bonus' as const), user, amount: paise }),
  fc.record({ type: fc.constant('request' as const), user, amount: fc.integer({ min: 10_000, max: 300_000 }) }),
  fc.record({ type: fc.constant('pay' as const), user, pick: fc.nat(), old: fc.boolean() }),
  fc.record({ type: fc.constant('reject' as const), user, pick: fc.nat() }),
  fc.record({ type: fc.constant('adjust' as const), user, amount: paise, direction: fc.constantFrom('credit' as const, 'debit' as const) }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

const minute = (step: number) => new Date(Date.UTC(2026, 10, 1, 0, step + 1)).toISOString();
const pendingOf = (state: UserState) => [...state.withdrawals.byId.values()].filter((w) => w.status === 'pending' || w.status === 'processing').reduce((sum, w) => sum + w.amountPaise, 0);
const toPaise = (rupees: string) => Math.round(Number(rupees) * 100);

/** What a command decides on the user's stream, or nothing when the domain refuses it. */
function decide(c: Command, state: UserState, step: number): UserEvent[] {
  const now = minute(step);
  const id = `${c.type}-${step}`;
  const pendingIds = [...state.withdrawals.byId].filter(([, w]) => w.status === 'pending').map(([id]) => id);
  try {
    switch (c.type) {
      case 'reward':
        return [credit({ entryId: id, amountPaise: c.amount, kind: 'task_reward', params: { taskTitle: 'Task' }, reference: `sub-${step}`, by: STAFF, now })];
      case 'bonus':
        return [credit({ entryId: id, amountPaise: c.amount, kind: 'kyc_bonus', params: {}, now })];
      case 'request':
        return decideWithdrawals(
          { type: 'RequestWithdrawal', data: { withdrawalId: id, entryId: `hold-${id}`, notificationId: `n-${id}`, amountPaise: c.amount, destination: { kind: 'upi', upiId: 'a.b@okhdfc' } }, now },
          state,
        );
      case 'pay': {
        const withdrawalId = pendingIds[c.pick % Math.max(1, pendingIds.length)];
        if (!withdrawalId) return [];
        const events = decideWithdrawals({ type: 'MarkWithdrawalPaid', data: { withdrawalId, reference: `UTR${step}`, by: STAFF, notificationId: `n-${id}` }, now }, state);
        // Events recorded before WithdrawalPaid kept its amount must be read the same way.
        return c.old ? events.map((e) => (e.type === 'WithdrawalPaid' ? { ...e, data: { ...e.data, amountPaise: undefined } } : e)) as UserEvent[] : events;
      }
      case 'reject': {
        const withdrawalId = pendingIds[c.pick % Math.max(1, pendingIds.length)];
        if (!withdrawalId) return [];
        return decideWithdrawals({ type: 'RejectWithdrawal', data: { withdrawalId, reason: 'Wrong account', by: STAFF, entryId: `refund-${id}`, notificationId: `n-${id}` }, now }, state);
      }
      case 'adjust':
        return decideAdjustWallet({ type: 'AdjustWallet', data: { entryId: id, notificationId: `n-${id}`, amountPaise: c.amount, direction: c.direction, reason: 'Correction', by: STAFF }, now }, state);
    }
  } catch (err) {
    if (err instanceof DomainError) return [];
    throw err;
  }
}

function stripUndefined(event: UserEvent): KamaiEvent {
  return JSON.parse(JSON.stringify(event)) as KamaiEvent;
}

describe('the journal under random command sequences', () => {
  it('balances, reconciles, never goes below zero, folds to the events at any time, exports what it shows, and rebuilds the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        const db = await openReadDb(join(dir, `read-${++runs}.sqlite`));
        try {
          const log: { stream: string; event: KamaiEvent }[] = [];
          const byUser = new Map<string, { event: UserEvent; step: number }[]>();
          const register = (id: string) => {
            const event: UserEvent = { type: 'UserRegistered', data: { userId: id, mobile: `98765${String(USERS.indexOf(id as never) + 10000).slice(-5)}`, passwordHash: 'h', firstName: id, lastName: 'Test', registeredAt: minute(0) } };
            log.push({ stream: `user-${id}`, event });
            byUser.set(id, [{ event, step: 0 }]);
          };
          for (const id of [...USERS, STAFF]) register(id);
          let applied = 0;
          const state = (id: string) => fold(userEvolver, (byUser.get(id) ?? []).map((e) => e.event));

          for (const [index, c] of commands.entries()) {
            const step = index + 1;
            const events = decide(c, state(c.user), step).map(stripUndefined) as UserEvent[];
            for (const event of events) {
              log.push({ stream: `user-${c.user}`, event });
              byUser.get(c.user)?.push({ event, step });
            }
            const recorded = recordEvents(log);
            await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recorded.slice(applied)));
            applied = recorded.length;

            const trial = await trialBalance(db);
            expect(trial.debitPaise).toBe(trial.creditPaise);
            const books = await reconciliation(db);
            expect(books.differencePaise).toBe(0);
            expect(books.availablePaise + books.pendingPayoutPaise).toBe(books.fundedPaise - books.paidPaise);

            for (const id of USERS) {
              const now = await userBalanceAt(db, id);
              expect(now.availablePaise).toBeGreaterThanOrEqual(0);
              const folded = state(id);
              expect(now.availablePaise).toBe(folded.wallet.balance);
              expect(now.pendingPayoutPaise).toBe(pendingOf(folded));
              expect((await findUserById(db, id))?.pending_payout_paise).toBe(pendingOf(folded));
              // As of an earlier moment: the fold of the events up to it.
              const t = Math.floor(step / 2);
              const earlier = fold(userEvolver, (byUser.get(id) ?? []).filter((e) => e.step <= t).map((e) => e.event));
              const then = await userBalanceAt(db, id, minute(t));
              expect([then.availablePaise, then.pendingPayoutPaise]).toEqual([earlier.wallet.balance, pendingOf(earlier)]);
              // The CSV's amount column sums to closing − opening, and closing is the balance shown.
              const row = await findUserById(db, id);
              if (!row) throw new Error('user missing');
              const body = toStatementBody(row, await userStatement(db, id, { from: minute(t) }));
              const lines = statementCsv(body).trim().split('\r\n').slice(1);
              const sum = lines.reduce((acc, line) => acc + toPaise(line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)[4] ?? 'NaN'), 0);
              expect(sum).toBe(toPaise(body.closing.available) - toPaise(body.opening.available));
              expect(body.closing.available).toBe(formatPaise(folded.wallet.balance));
            }
          }

          const postings = await listPostings(db);
          await rebuildReadModels(db, listAsEventSource(recordEvents(log)), allProjections);
          expect(await listPostings(db)).toEqual(postings);
        } finally {
          await db.destroy();
        }
      }),
      { numRuns: 30 },
    );
  });
});
