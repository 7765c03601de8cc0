import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KamaiEvent, UserEvent, WithdrawalDestination } from '@kamai/contracts';
import { credit, decideAdjustWallet, decideWithdrawals, fold, userEvolver, type WithdrawalCommand } from '@kamai/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb, writeTransaction, writerOf } from '../db.ts';
import { toProjectedEvent } from '../projection.ts';
import { allProjections } from '../index.ts';
import { rebuildReadModels } from '../rebuild.ts';
import { applyEvents } from '../runner.ts';
import { listAsEventSource, recordEvents } from '../testing.ts';
import { findUserById } from '../users/queries.ts';
import { journalProjection } from './projection.ts';
import { listPostings, negativeBalancesAsOfAnyDay, reconciliation, trialBalance, userBalanceAt, userStatement } from './queries.ts';

const t = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`;
const bank: WithdrawalDestination = { kind: 'bank', accountNumber: '001234567894321', ifsc: 'HDFC0001234', holderName: 'Asha Rao' };

describe('the double-entry journal', () => {
  let dir: string;
  let db: ReadDbHandle;
  const log: { stream: string; event: KamaiEvent }[] = [];
  const streams: Record<string, UserEvent[]> = {};

  function on(userId: string, ...events: UserEvent[]) {
    streams[userId] = [...(streams[userId] ?? []), ...events];
    for (const event of events) log.push({ stream: `user-${userId}`, event });
  }
  const state = (userId: string) => fold(userEvolver, streams[userId] ?? []);
  function register(userId: string, mobile: string, firstName: string) {
    on(userId, { type: 'UserRegistered', data: { userId, mobile, passwordHash: 'h', firstName, lastName: 'Rao', registeredAt: t(0) } });
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kamai-journal-'));
    db = await openReadDb(join(dir, 'read.sqlite'));
    log.length = 0;
    for (const key of Object.keys(streams)) delete streams[key];
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('posts every money event as one balanced transaction, without counting a withdrawal twice', async () => {
    register('u1', '9876543210', 'Asha');
    register('fin', '9876500000', 'Farah');
    on('u1', credit({ entryId: 'r1', amountPaise: 50_000, kind: 'task_reward', params: { taskTitle: 'Rate PhonePe' }, taskId: 'task-1', reference: 'sub-1', by: 'fin', now: t(1) }));
    on('u1', credit({ entryId: 'k1', amountPaise: 5_000, kind: 'kyc_bonus', params: {}, now: t(2) }));
    const request = (id: string, minute: number, amountPaise: number): WithdrawalCommand => ({
      type: 'RequestWithdrawal',
      data: { withdrawalId: id, entryId: `hold-${id}`, notificationId: `n-${id}`, amountPaise, destination: bank },
      now: t(minute),
    });
    on('u1', ...decideWithdrawals(request('w1', 3, 20_000), state('u1')));
    on('u1', ...decideWithdrawals(request('w2', 4, 10_000), state('u1')));
    on('u1', ...decideWithdrawals({ type: 'MarkWithdrawalPaid', data: { withdrawalId: 'w1', reference: 'UTR0001', by: 'fin', notificationId: 'n-p' }, now: t(5) }, state('u1')));
    on('u1', ...decideWithdrawals({ type: 'RejectWithdrawal', data: { withdrawalId: 'w2', reason: 'Account closed', by: 'fin', entryId: 'refund-w2', notificationId: 'n-r' }, now: t(6) }, state('u1')));
    on('u1', ...decideAdjustWallet({ type: 'AdjustWallet', data: { entryId: 'a1', notificationId: 'n-a1', amountPaise: 1_500, direction: 'debit', reason: 'Duplicate reward', by: 'fin' }, now: t(7) }, state('u1')));
    on('u1', ...decideWithdrawals(request('w3', 8, 10_000), state('u1')));
    // An older paid event, recorded before WithdrawalPaid kept its amount: the request's amount is used.
    on('u1', { type: 'WithdrawalPaid', data: { withdrawalId: 'w3', reference: 'UTR0003', paidBy: 'fin', paidAt: t(9) } });
    const recorded = recordEvents(log);
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recorded));

    const postings = await listPostings(db);
    const byTransaction = new Map<string, number>();
    for (const p of postings) byTransaction.set(p.transactionId, (byTransaction.get(p.transactionId) ?? 0) + p.amountPaise);
    expect([...byTransaction.values()].every((sum) => sum === 0)).toBe(true);
    expect(postings.filter((p) => p.amountPaise > 0).map((p) => [p.kind, p.account, p.amountPaise])).toEqual([
      ['task_reward', 'user:u1:available', 50_000],
      ['kyc_bonus', 'user:u1:available', 5_000],
      ['withdrawal', 'user:u1:payout_pending', 20_000],
      ['withdrawal', 'user:u1:payout_pending', 10_000],
      ['withdrawal_paid', 'platform:bank', 20_000],
      ['withdrawal_refund', 'user:u1:available', 10_000],
      ['adjustment', 'platform:adjustments', 1_500],
      ['withdrawal', 'user:u1:payout_pending', 10_000],
      ['withdrawal_paid', 'platform:bank', 10_000],
    ]);
    const reward = postings.find((p) => p.kind === 'task_reward' && p.amountPaise > 0);
    expect(reward).toMatchObject({ submissionId: 'sub-1', taskId: 'task-1', actor: 'fin', effectiveAt: t(1), userId: 'u1', description: 'Task completed: Rate PhonePe' });
    expect(postings.find((p) => p.kind === 'withdrawal_paid')).toMatchObject({ withdrawalId: 'w1', utr: 'UTR0001', actor: 'fin', description: 'Withdrawal paid, transfer reference UTR0001' });

    // 500 + 50 − 200 − 100 + 100 − 15 − 100 = 235 available; nothing pending; 200 + 100 paid.
    expect(await userBalanceAt(db, 'u1')).toMatchObject({ availablePaise: 23_500, pendingPayoutPaise: 0 });
    expect(await userBalanceAt(db, 'u1', t(4))).toMatchObject({ availablePaise: 25_000, pendingPayoutPaise: 30_000 });
    expect((await findUserById(db, 'u1'))?.balance_paise).toBe(23_500);

    const trial = await trialBalance(db);
    expect(trial.debitPaise).toBe(trial.creditPaise);
    expect(trial.accounts.find((a) => a.account === 'platform:task_rewards')).toEqual({ account: 'platform:task_rewards', debitPaise: 50_000, creditPaise: 0 });
    expect((await trialBalance(db, t(2))).accounts.map((a) => a.account)).toEqual(['platform:kyc_bonus', 'platform:task_rewards', 'user:u1:available']);
    // No funding was booked: the payout account shows what left it, below zero.
    expect(await reconciliation(db)).toEqual({
      availablePaise: 23_500,
      pendingPayoutPaise: 0,
      fundedPaise: 53_500,
      paidPaise: 30_000,
      taxPayablePaise: 0,
      taxDepositedPaise: 0,
      differencePaise: 0,
      negativeBalances: [],
      bankFundedPaise: 0,
      bankBalancePaise: -30_000,
    });

    const statement = await userStatement(db, 'u1', { from: t(3), to: t(6) });
    expect(statement.opening).toEqual({ availablePaise: 55_000, pendingPayoutPaise: 0 });
    expect(statement.entries.map((e) => [e.kind, e.amountPaise, e.pendingPayoutChangePaise, e.availablePaise, e.pendingPayoutPaise])).toEqual([
      ['withdrawal', -20_000, 20_000, 35_000, 20_000],
      ['withdrawal', -10_000, 10_000, 25_000, 30_000],
      ['withdrawal_paid', 0, -20_000, 25_000, 10_000],
      ['withdrawal_refund', 10_000, -10_000, 35_000, 0],
    ]);
    expect(statement.entries[2]?.actor).toEqual({ id: 'fin', name: 'Farah Rao', mobile: '9876500000' });
    // Descriptions are rendered from the entries' facts when read.
    expect(statement.entries[3]).toMatchObject({ reason: 'Account closed', description: 'Refund of rejected withdrawal: Account closed', withdrawalId: 'w2' });
    expect(statement.closing).toEqual({ availablePaise: 35_000, pendingPayoutPaise: 0 });
    expect(statement.entries.reduce((s, e) => s + e.amountPaise, 0)).toBe(statement.closing.availablePaise - statement.opening.availablePaise);

    // Disposable: a rebuild gives identical postings.
    await rebuildReadModels(db, listAsEventSource(recorded), allProjections);
    expect(await listPostings(db)).toEqual(postings);
  });

  it('reports a wallet below zero, as a withdrawal decided on a forged balance leaves it', async () => {
    register('u1', '9876543210', 'Asha');
    on('u1', credit({ entryId: 'r1', amountPaise: 10_000, kind: 'task_reward', params: { taskTitle: 'T' }, now: t(1) }));
    // What an edited snapshot would hand the decider: ₹1 crore more than the log ever credited.
    const forged = state('u1');
    forged.wallet.balance = (forged.wallet.balance + 1_000_000_000) as typeof forged.wallet.balance;
    const request: WithdrawalCommand = {
      type: 'RequestWithdrawal',
      data: { withdrawalId: 'w1', entryId: 'h1', notificationId: 'n1', amountPaise: 5_000_000 as typeof forged.wallet.balance, destination: bank },
      now: t(2),
    };
    on('u1', ...decideWithdrawals(request, forged));
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recordEvents(log)));
    expect((await reconciliation(db)).negativeBalances).toEqual([{ userId: 'u1', account: 'available', balancePaise: -4_990_000 }]);
  });

  it('reports a wallet that was below zero at the end of an earlier day, though it is not today', async () => {
    register('u1', '9876543210', 'Asha');
    on('u1', credit({ entryId: 'r0', amountPaise: 7_000, kind: 'task_reward', params: { taskTitle: 'T' }, now: '2026-11-28T10:00:00.000Z' }));
    // A sweep run with a --now ahead of its time: a ₹33 credit dated 5 December, spent on 29 November.
    on('u1', credit({ entryId: 'r1', amountPaise: 3_300, kind: 'task_reward', params: { taskTitle: 'T' }, now: '2026-12-05T00:00:00.000Z' }));
    const request: WithdrawalCommand = {
      type: 'RequestWithdrawal',
      data: { withdrawalId: 'w1', entryId: 'h1', notificationId: 'n1', amountPaise: 10_300 as never, destination: bank },
      now: '2026-11-29T06:00:00.000Z',
    };
    on('u1', ...decideWithdrawals(request, state('u1')));
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recordEvents(log)));
    expect((await reconciliation(db)).negativeBalances).toEqual([]);
    expect(await negativeBalancesAsOfAnyDay(db)).toEqual([{ userId: 'u1', account: 'available', day: '2026-11-29', balancePaise: -3_300 }]);
  });

  it('shows a pending payout beside the balance until the request is paid', async () => {
    register('u1', '9876543210', 'Asha');
    on('u1', credit({ entryId: 'r1', amountPaise: 50_000, kind: 'task_reward', params: { taskTitle: 'T' }, now: t(1) }));
    on('u1', ...decideWithdrawals({ type: 'RequestWithdrawal', data: { withdrawalId: 'w1', entryId: 'h1', notificationId: 'n1', amountPaise: 20_000, destination: bank }, now: t(2) }, state('u1')));
    const recorded = recordEvents(log);
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recorded));
    expect(await findUserById(db, 'u1')).toMatchObject({ balance_paise: 30_000, pending_payout_paise: 20_000 });
    expect(await findUserById(db, 'nobody')).toBeUndefined();
  });

  it('refuses a money event posted twice: no transaction is counted twice', async () => {
    register('u1', '9876543210', 'Asha');
    on('u1', credit({ entryId: 'r1', amountPaise: 50_000, kind: 'task_reward', params: { taskTitle: 'T' }, now: t(1) }));
    const recorded = recordEvents(log);
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recorded));
    const reward = toProjectedEvent(recorded[1]!)!;
    await expect(writeTransaction(db, (trx) => journalProjection.apply(writerOf(trx), reward))).rejects.toThrow(/UNIQUE constraint failed: journal_entries/);
    expect(await listPostings(db)).toHaveLength(2);
  });
});
