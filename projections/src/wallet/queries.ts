import { EARNING_KINDS, type TransactionBody, WITHDRAWAL_DEBIT_KINDS, formatPaise } from '@kamai/contracts';
import type { Selectable } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import { hotReads } from '../hot-reads.ts';
import { accounts } from '../journal/accounts.ts';
import { descriptionOf, literalDescriptions, paramsOf } from '../journal/queries.ts';
import type { WalletsTable } from '../schema.ts';

export function findWallet(db: ReadDbHandle, userId: string): Promise<Selectable<WalletsTable> | undefined> {
  const hot = hotReads(db);
  if (hot) return Promise.resolve(hot.wallet.get(userId) as Selectable<WalletsTable> | undefined);
  return db.selectFrom('wallets').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * The user's ledger entries, newest first (GET /api/transactions): the journal's transactions that
 * moved the user's available balance, which is every one of theirs but a paid withdrawal (payout
 * pending to the bank). The history a user sees is the very rows finance audits.
 */
export async function listTransactions(db: ReadDbHandle, userId: string, limit = 200): Promise<TransactionBody[]> {
  const available = accounts.available(userId);
  const rows = await db
    .selectFrom('journal_entries')
    .leftJoin('withdrawal_requests', 'withdrawal_requests.id', 'journal_entries.withdrawal_id')
    .selectAll('journal_entries')
    .select('withdrawal_requests.status as withdrawal_status')
    .where('journal_entries.user_id', '=', userId)
    .where((eb) => eb.or([eb('to_account', '=', available), eb('from_account', '=', available)]))
    .orderBy('journal_entries.position', 'desc')
    .limit(limit)
    .execute();
  const literal = await literalDescriptions(db, rows);
  return rows.map((row) => {
    const params = paramsOf(row);
    const direction = row.to_account === available ? 'credit' : 'debit';
    return {
      id: row.entry_id ?? row.transaction_id,
      userId: row.user_id,
      type: direction === 'credit' ? (EARNING_KINDS.has(row.kind) ? 'earned' : 'other') : WITHDRAWAL_DEBIT_KINDS.has(row.kind) ? 'withdrawn' : 'other',
      direction,
      kind: row.kind,
      amount: formatPaise(row.amount_paise),
      description: descriptionOf(row, literal, params),
      ...(params !== undefined && { params }),
      taskId: row.task_id,
      ...(row.withdrawal_id !== null && { withdrawalId: row.withdrawal_id }),
      ...(row.withdrawal_status !== null && { withdrawalStatus: row.withdrawal_status }),
      createdAt: row.effective_at,
    };
  });
}
