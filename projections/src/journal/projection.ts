import type { Kysely } from 'kysely';
import type { Projection } from '../projection.ts';
import type { ReadDb } from '../schema.ts';
import { userIdOf } from '../users/projection.ts';
import { type JournalTransaction, type KnownWithdrawal, journalTransactionOf } from './accounts.ts';

/**
 * The double-entry journal: each money event of a user's stream becomes one transaction of two
 * postings that sum to zero (see accounts.ts for the mapping), and the accounts' running totals.
 * Keeps its own record of withdrawal amounts so it depends on no other read model.
 */
export const journalProjection: Projection = {
  name: 'journal',
  version: 1,
  tables: {
    journal_postings: {
      columns: `id TEXT PRIMARY KEY, transaction_id TEXT NOT NULL, account TEXT NOT NULL, user_id TEXT,
        amount_paise INTEGER NOT NULL, kind TEXT NOT NULL, event_type TEXT NOT NULL, position INTEGER NOT NULL,
        stream_id TEXT NOT NULL, revision INTEGER NOT NULL, effective_at TEXT NOT NULL, actor TEXT, reason TEXT,
        description TEXT NOT NULL, params TEXT, entry_id TEXT, submission_id TEXT, task_id TEXT, withdrawal_id TEXT, utr TEXT`,
      indexes: { account: 'account, position', account_time: 'account, effective_at', position: 'position' },
    },
    journal_balances: {
      columns: `account TEXT PRIMARY KEY, debit_paise INTEGER NOT NULL, credit_paise INTEGER NOT NULL`,
    },
    // The amounts of withdrawal requests, so a WithdrawalPaid without one can still be posted.
    journal_withdrawals: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, amount_paise INTEGER NOT NULL, status TEXT NOT NULL`,
    },
  },
  handles: ['WalletCredited', 'WalletDebited', 'WithdrawalRequested', 'WithdrawalRejected', 'WithdrawalPaid'],
  async apply(db, event) {
    if (!event.streamId.startsWith('user-')) return;
    const userId = userIdOf(event.streamId);
    if (event.type === 'WithdrawalRequested') {
      await db
        .insertInto('journal_withdrawals')
        .values({ id: event.data.withdrawalId, user_id: userId, amount_paise: event.data.amountPaise, status: 'pending' })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      return;
    }
    if (event.type === 'WithdrawalRejected') {
      await db.updateTable('journal_withdrawals').set({ status: 'rejected' }).where('id', '=', event.data.withdrawalId).execute();
      return;
    }
    let known: KnownWithdrawal | undefined;
    if (event.type === 'WithdrawalPaid') {
      const row = await db.selectFrom('journal_withdrawals').selectAll().where('id', '=', event.data.withdrawalId).executeTakeFirst();
      known = row && { userId: row.user_id, amountPaise: row.amount_paise };
      await db.updateTable('journal_withdrawals').set({ status: 'paid' }).where('id', '=', event.data.withdrawalId).execute();
    }
    const transaction = journalTransactionOf(event, userId, () => known);
    if (!transaction) return;
    await post(db, event, transaction);
  },
};

async function post(db: Kysely<ReadDb>, event: Parameters<Projection['apply']>[1], t: JournalTransaction): Promise<void> {
  const common = {
    transaction_id: event.id,
    user_id: t.userId,
    kind: t.kind,
    event_type: event.type,
    position: event.position,
    stream_id: event.streamId,
    revision: event.revision,
    effective_at: t.effectiveAt,
    actor: t.actor,
    reason: t.reason,
    description: t.description,
    params: t.params,
    entry_id: t.entryId,
    submission_id: t.submissionId,
    task_id: t.taskId,
    withdrawal_id: t.withdrawalId,
    utr: t.utr,
  };
  await db
    .insertInto('journal_postings')
    .values([
      { ...common, id: `${event.id}:0`, account: t.from, amount_paise: -t.amountPaise },
      { ...common, id: `${event.id}:1`, account: t.to, amount_paise: t.amountPaise },
    ])
    .execute();
  for (const [account, debit, credit] of [
    [t.from, t.amountPaise, 0],
    [t.to, 0, t.amountPaise],
  ] as const) {
    await db
      .insertInto('journal_balances')
      .values({ account, debit_paise: debit, credit_paise: credit })
      .onConflict((oc) =>
        oc.column('account').doUpdateSet((eb) => ({
          debit_paise: eb('journal_balances.debit_paise', '+', debit),
          credit_paise: eb('journal_balances.credit_paise', '+', credit),
        })),
      )
      .execute();
  }
}
