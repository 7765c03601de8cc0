import { type MessageParams, type TransactionBody, formatPaise } from '@kamai/contracts';
import type { Selectable } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import { hotReads } from '../hot-reads.ts';
import type { WalletsTable } from '../schema.ts';

export function findWallet(db: ReadDbHandle, userId: string): Promise<Selectable<WalletsTable> | undefined> {
  const hot = hotReads(db);
  if (hot) return Promise.resolve(hot.wallet.get(userId) as Selectable<WalletsTable> | undefined);
  return db.selectFrom('wallets').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The user's ledger entries, newest first (GET /api/transactions). */
export async function listTransactions(db: ReadDbHandle, userId: string, limit = 200): Promise<TransactionBody[]> {
  const rows = await db
    .selectFrom('transactions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('position', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    type: row.type,
    direction: row.direction,
    kind: row.kind,
    amount: formatPaise(row.amount_paise),
    description: row.description,
    ...(row.params !== null && { params: JSON.parse(row.params) as MessageParams }),
    taskId: row.task_id,
    createdAt: row.created_at,
  }));
}
