import * as v from 'valibot';
import {
  SETTLED_WITHDRAWAL_STATUSES,
  type FinanceWithdrawalBody,
  type SavedDestination,
  WithdrawalDestination,
  type WithdrawalBody,
} from '@kamai/contracts';
import { maskDestination, withdrawalBody } from '@kamai/domain';
import type { Selectable } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import type { WithdrawalRequestsTable } from './schema.ts';

type WithdrawalRow = Selectable<WithdrawalRequestsTable>;

function destinationOf(row: Pick<WithdrawalRow, 'destination'>): WithdrawalDestination {
  return v.parse(WithdrawalDestination, JSON.parse(row.destination));
}

/** The user's view of a request: the destination masked. */
export function toWithdrawalBody(row: WithdrawalRow): WithdrawalBody {
  return withdrawalBody(row.id, row.user_id, {
    amountPaise: row.amount_paise,
    status: row.status,
    destination: destinationOf(row),
    requestedAt: row.requested_at,
    processedAt: row.processed_at,
    reference: row.reference,
    reason: row.reason,
    batchId: row.batch_id,
    ...(row.tax_paise > 0 && { taxes: [{ code: row.tax_code ?? '', amountPaise: row.tax_paise, basePaise: 0, rateBasisPoints: 0 }] }),
  });
}

/** The user's withdrawal requests, newest first (Withdrawal History on /profile). */
export async function listUserWithdrawals(db: ReadDbHandle, userId: string, limit = 200): Promise<WithdrawalBody[]> {
  const rows = await db
    .selectFrom('withdrawal_requests')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('position', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toWithdrawalBody);
}

export function findWithdrawal(db: ReadDbHandle, id: string): Promise<WithdrawalRow | undefined> {
  return db.selectFrom('withdrawal_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Where the user's last request went, masked, for the withdraw dialog to offer again. */
export async function findSavedDestination(db: ReadDbHandle, userId: string): Promise<SavedDestination | null> {
  const row = await db
    .selectFrom('withdrawal_requests')
    .select('destination')
    .where('user_id', '=', userId)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const destination = destinationOf(row);
  const label = maskDestination(destination);
  if (destination.kind === 'upi') return { kind: 'upi', label };
  return {
    kind: 'bank',
    label,
    holderName: destination.holderName,
    ifsc: destination.ifsc,
    accountLast4: destination.accountNumber.slice(-4),
  };
}

/** A status, `settled` (paid, failed, rejected or reversed: every end state) or `all`. */
export type WithdrawalQueueStatus = WithdrawalRequestsTable['status'] | 'settled' | 'all';

function selectForFinance(db: ReadDbHandle) {
  return db
    .selectFrom('withdrawal_requests')
    .innerJoin('users', 'users.id', 'withdrawal_requests.user_id')
    .leftJoin('users as staff', 'staff.id', 'withdrawal_requests.processed_by')
    .selectAll('withdrawal_requests')
    .select(['users.first_name', 'users.last_name', 'users.mobile', 'staff.first_name as staff_first_name', 'staff.last_name as staff_last_name']);
}

type FinanceRow = WithdrawalRow & {
  first_name: string | null;
  last_name: string | null;
  mobile: string | null;
  staff_first_name: string | null;
  staff_last_name: string | null;
};

function toFinanceBody(row: FinanceRow): FinanceWithdrawalBody {
  return {
    ...toWithdrawalBody(row),
    user: { id: row.user_id, name: [row.first_name, row.last_name].filter(Boolean).join(' ') || (row.mobile ?? ''), mobile: row.mobile ?? '' },
    payTo: destinationOf(row),
    processedBy: row.processed_by,
    processedByName: [row.staff_first_name, row.staff_last_name].filter(Boolean).join(' ') || null,
  };
}

function withStatus(query: ReturnType<typeof selectForFinance>, status: WithdrawalQueueStatus) {
  if (status === 'all') return query;
  if (status === 'settled') return query.where('withdrawal_requests.status', 'in', SETTLED_WITHDRAWAL_STATUSES);
  return query.where('withdrawal_requests.status', '=', status);
}

/**
 * The finance view. Pending requests come oldest first (a queue: who waited longest is paid first);
 * settled ones newest first (recent history).
 */
export async function listWithdrawalsForFinance(db: ReadDbHandle, status: WithdrawalQueueStatus, limit = 500): Promise<FinanceWithdrawalBody[]> {
  const rows = await withStatus(selectForFinance(db), status)
    .orderBy('withdrawal_requests.position', status === 'pending' ? 'asc' : 'desc')
    .limit(limit)
    .execute();
  return rows.map(toFinanceBody);
}

export async function findWithdrawalForFinance(db: ReadDbHandle, id: string): Promise<FinanceWithdrawalBody | undefined> {
  const row = await selectForFinance(db).where('withdrawal_requests.id', '=', id).executeTakeFirst();
  return row && toFinanceBody(row);
}

/**
 * One page of the finance list: filtered by status and by time (the request's time for
 * pending and all, the settlement's for paid and rejected), `after` the cursor of the previous page.
 * Returns the next cursor when more rows follow, so no caller is cut off silently.
 */
export async function listWithdrawalsPage(
  db: ReadDbHandle,
  options: {
    status: WithdrawalQueueStatus;
    from?: string | undefined;
    to?: string | undefined;
    cursor?: number | undefined;
    limit: number;
    /** Only payouts processing since before this moment (late ones). */
    processingBefore?: string | undefined;
  },
): Promise<{ rows: FinanceWithdrawalBody[]; nextCursor: number | null }> {
  const ascending = options.status === 'pending';
  const settled = options.status === 'settled' || (SETTLED_WITHDRAWAL_STATUSES as readonly string[]).includes(options.status);
  const timeColumn = settled ? 'withdrawal_requests.processed_at' : 'withdrawal_requests.requested_at';
  let query = withStatus(selectForFinance(db), options.status);
  if (options.from !== undefined) query = query.where(timeColumn, '>=', options.from);
  if (options.to !== undefined) query = query.where(timeColumn, '<=', options.to);
  if (options.cursor !== undefined) query = query.where('withdrawal_requests.position', ascending ? '>' : '<', options.cursor);
  if (options.processingBefore !== undefined) {
    query = query.where('withdrawal_requests.status', '=', 'processing').where('withdrawal_requests.processing_at', '<', options.processingBefore);
  }
  const rows = await query
    .orderBy('withdrawal_requests.position', ascending ? 'asc' : 'desc')
    .limit(options.limit + 1)
    .execute();
  const page = rows.slice(0, options.limit);
  const more = rows.length > options.limit;
  return { rows: page.map(toFinanceBody), nextCursor: more ? (page.at(-1)?.position ?? null) : null };
}
