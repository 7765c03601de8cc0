import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KamaiEvent } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import { openReadDb, writeTransaction, writerOf } from '../db.ts';
import { toProjectedEvent } from '../projection.ts';
import { applyEvents } from '../runner.ts';
import { projectionSpec, recordEvents, rowsOf } from '../testing.ts';
import { journalProjection } from '../journal/projection.ts';
import { withdrawalsProjection } from '../withdrawals/projection.ts';
import { walletProjection } from './projection.ts';
import { listTransactions } from './queries.ts';

const at = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`;
const on = (event: KamaiEvent) => ({ stream: 'user-u1', event });
const registered = on({ type: 'UserRegistered', data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: at(0) } });

// The history is read from the journal's entries.
const spec = projectionSpec(walletProjection, journalProjection, withdrawalsProjection);

describe('wallet read model', () => {
  it('given a registration, then an empty wallet and no transactions', async () => {
    await spec.given([registered]).then({
      wallets: [{ user_id: 'u1', balance_paise: 0, total_earned_paise: 0, total_withdrawn_paise: 0, created_at: at(0) }],
    });
    await spec.given([registered]).thenQuery((db) => listTransactions(db, 'u1'), []);
  });

  const rewardWithdrawalRefund = [
    registered,
    on({ type: 'WalletCredited', data: { entryId: 'e1', amountPaise: 2500, kind: 'task_reward', params: { taskTitle: 'Rate Swiggy' }, taskId: 't1', creditedAt: at(1) } }),
    on({ type: 'WalletDebited', data: { entryId: 'e2', amountPaise: 2000, kind: 'withdrawal', params: { destination: 'UPI asha@okhdfc' }, reference: 'w1', debitedAt: at(2) } }),
    on({ type: 'WalletCredited', data: { entryId: 'e3', amountPaise: 2000, kind: 'withdrawal_refund', params: { reason: 'Closed' }, reference: 'w1', creditedAt: at(3) } }),
  ];

  it('given a reward, a withdrawal and its refund, then the balance and the totals', () =>
    spec.given(rewardWithdrawalRefund).then({
      wallets: [{ user_id: 'u1', balance_paise: 2500, total_earned_paise: 2500, total_withdrawn_paise: 0, updated_at: at(3), position: 4 }],
    }));

  it('given a reward, a withdrawal and its refund, then one transaction per ledger event, newest first, described from its facts', () =>
    spec.given(rewardWithdrawalRefund).thenQuery(
      async (db) => (await listTransactions(db, 'u1')).map((t) => [t.id, t.type, t.direction, t.kind, t.amount, t.description, t.params, t.taskId, t.createdAt]),
      [
        ['e3', 'other', 'credit', 'withdrawal_refund', '20.00', 'Refund of rejected withdrawal: Closed', { reason: 'Closed' }, null, at(3)],
        ['e2', 'withdrawn', 'debit', 'withdrawal', '20.00', 'Withdrawal to UPI asha@okhdfc', { destination: 'UPI asha@okhdfc' }, null, at(2)],
        ['e1', 'earned', 'credit', 'task_reward', '25.00', 'Task completed: Rate Swiggy', { taskTitle: 'Rate Swiggy' }, 't1', at(1)],
      ],
    ));

  it('given a staff adjustment, then the history names who made it and lists newest first', () =>
    spec
      .given([
        registered,
        on({ type: 'WalletCredited', data: { entryId: 'e1', amountPaise: 20000, kind: 'adjustment', description: 'Goodwill credit', by: 'fin1', creditedAt: at(1) } }),
        on({ type: 'WalletDebited', data: { entryId: 'e2', amountPaise: 500, kind: 'adjustment', description: 'Correction', by: 'fin1', debitedAt: at(2) } }),
      ])
      .thenQuery(
        async (db) => (await listTransactions(db, 'u1')).map((t) => [t.id, t.type, t.amount, t.description]),
        [
          ['e2', 'other', '5.00', 'Correction'],
          ['e1', 'other', '200.00', 'Goodwill credit'],
        ],
      ));

  it('refuses a ledger entry applied twice: no balance counts it twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kamai-wallet-'));
    const db = await openReadDb(join(dir, 'read.sqlite'), [walletProjection]);
    try {
      const events = recordEvents([registered, on({ type: 'WalletCredited', data: { entryId: 'e1', amountPaise: 2500, kind: 'task_reward', params: { taskTitle: 'T' }, creditedAt: at(1) } })]);
      await writeTransaction(db, (trx) => applyEvents(trx, [walletProjection], events));
      const credit = toProjectedEvent(events[1]!)!;
      await expect(writeTransaction(db, (trx) => walletProjection.apply(writerOf(trx), credit))).rejects.toThrow(/not newer than user-u1's wallet/);
      expect(await rowsOf(db, 'wallets')).toEqual([expect.objectContaining({ balance_paise: 2500, total_earned_paise: 2500 })]);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
