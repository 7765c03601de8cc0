import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Json, type UserCommand, type NewEvent, taskDecider, userDecider } from '@kamai/domain';
import {
  allProjections,
  findUserById,
  findWallet,
  getSettings,
  listNotifications,
  listTransactions,
  listUserTasks,
  listUserWithdrawals,
  openReadDb,
  readEventTextsFrom,
  rebuildReadModels,
} from '@kamai/projections';
import { openSqliteEventStore } from '../event-store/sqlite.ts';
import { handleCommand, loadStream } from './handle.ts';

/**
 * A store written by wave one (commit 3ef4530): literal notification texts and ledger descriptions,
 * no schema versions. Today's deciders must fold it and today's projections must project it.
 */
const fixture = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/wave-one-events.json'), 'utf8')) as {
  events: { streamId: string; type: string; data: Json; metadata: Record<string, Json> }[];
};

const dir = mkdtempSync(join(tmpdir(), 'kamai-wave-one-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function wave1Store() {
  const store = openSqliteEventStore(join(dir, `events-${Math.random().toString(36).slice(2)}.sqlite`));
  // Appended one at a time, in order, exactly as recorded; `any` because the fixture is the history.
  let n = 0;
  for (const { streamId, type, data, metadata } of fixture.events) {
    const event: NewEvent = { id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, type, data, metadata };
    await store.append(streamId, [event], 'any');
  }
  return store;
}

describe('a wave-one event store', () => {
  it('folds into today\'s decision state, and today\'s commands decide on it', async () => {
    const store = await wave1Store();
    try {
      const { state, revision } = await loadStream(store, 'user-u1', userDecider);
      expect(revision).toBe(20);
      expect(state.account).toMatchObject({ registered: true, userId: 'u1', firstName: 'Asha', email: 'asha@example.in' });
      expect(state.wallet).toEqual({ balance: 12_500, totalEarned: 2_500, totalWithdrawn: 10_000 });
      // Both requests were settled (w1 paid, w2 rejected): none is left waiting; the paid one is kept
      // (for a bank's return), the rejected one is not.
      expect([...state.withdrawals.byId].map(([id, w]) => [id, w.status])).toEqual([['w1', 'paid']]);
      expect(state.withdrawals.lastDestination).toEqual({ kind: 'bank', accountNumber: '123456789012', ifsc: 'HDFC0001234', holderName: 'Asha Rao' });
      expect(state.tasks.byTask.get('t1')).toEqual({ status: 'approved', submissionId: 'sub-1' });
      expect((await loadStream(store, 'task-t1', taskDecider)).state).toMatchObject({ status: 'listed', fields: { title: 'Rate PhonePe', rewardPaise: 2500 } });

      // The old history's rules still hold: the task is done, the balance is what it was.
      const resubmit: UserCommand = {
        type: 'SubmitProof',
        data: {
          taskId: 't1',
          task: { taskId: 't1', title: 'Rate PhonePe', rewardPaise: 2500, isActive: true, requiresProof: true, expiresAt: null },
          submissionId: 'sub-2',
          proofImageUrl: '/objects/uploads/u1/img-2',
          proofDescription: 'Again',
        },
        now: '2026-11-23T10:00:00.000Z',
      };
      await expect(handleCommand(store, 'user-u1', userDecider, resubmit)).rejects.toThrow(/already completed/);
      const withdraw = (amountPaise: number): UserCommand => ({
        type: 'RequestWithdrawal',
        data: { withdrawalId: `w-${amountPaise}`, entryId: `e-${amountPaise}`, notificationId: `n-${amountPaise}`, amountPaise },
        now: '2026-11-23T10:00:00.000Z',
      });
      await expect(handleCommand(store, 'user-u1', userDecider, withdraw(12_501))).rejects.toMatchObject({ code: 'insufficient_balance' });
      // No destination given: the last one (the wave-one bank account) is used again.
      const decided = await handleCommand(store, 'user-u1', userDecider, withdraw(12_500), {}, { view: (state) => state.wallet.balance });
      expect(decided.view).toBe(0);
      expect(decided.events[0]).toMatchObject({ type: 'WithdrawalRequested', data: { destination: { kind: 'bank', accountNumber: '123456789012' } } });
      expect(decided.events[1]).toMatchObject({ type: 'WalletDebited', data: { params: { destination: 'A/c XXXXXX9012 · HDFC0001234' } } });
    } finally {
      await store.close();
    }
  });

  it('projects into today\'s read models with the literal texts it recorded', async () => {
    const store = await wave1Store();
    const db = await openReadDb(join(dir, `read-${Math.random().toString(36).slice(2)}.sqlite`));
    readEventTextsFrom(db, store);
    try {
      const rebuilt = await rebuildReadModels(db, store, allProjections);
      expect(rebuilt.events).toBe(fixture.events.length);

      expect(await findWallet(db, 'u1')).toMatchObject({ balance_paise: 12_500 });
      const transactions = await listTransactions(db, 'u1');
      expect(transactions.map((t) => [t.id, t.direction, t.amount, t.description])).toEqual([
        ['e5', 'credit', '100.00', 'Refund of rejected withdrawal: Bank account closed'],
        ['e4', 'debit', '100.00', 'Withdrawal to A/c XXXXXX9012 · HDFC0001234'],
        ['e3', 'debit', '100.00', 'Withdrawal to UPI as***@okhdfc'],
        ['e2', 'credit', '200.00', 'Adjustment: Goodwill for a failed task'],
        ['e1', 'credit', '25.00', 'Task completed: Rate PhonePe'],
      ]);

      const notifications = await listNotifications(db, 'u1');
      expect(notifications.map((n) => [n.id, n.title, n.isRead])).toEqual([
        ['n6', 'Withdrawal Rejected', false],
        ['n5', 'Withdrawal Requested', false],
        ['n4', 'Withdrawal Paid', false],
        ['n3', 'Withdrawal Requested', false],
        ['n1', 'Task Approved', true],
      ]);
      expect(notifications.at(-1)?.message).toBe('₹25.00 has been added to your wallet for "Rate PhonePe"');

      expect((await listUserWithdrawals(db, 'u1')).map((w) => [w.id, w.status, w.amount])).toEqual([
        ['w2', 'rejected', '100.00'],
        ['w1', 'paid', '100.00'],
      ]);
      expect((await listUserTasks(db, 'u1')).find((t) => t.taskId === 't1')).toMatchObject({ status: 'approved', rupeesEarned: '25.00' });
      expect(await findUserById(db, 'u1')).toMatchObject({ first_name: 'Asha', email: 'asha@example.in' });
      expect(await getSettings(db)).toMatchObject({ supportEmail: 'help@kamai.in' });
    } finally {
      await db.destroy();
      await store.close();
    }
  });
});
