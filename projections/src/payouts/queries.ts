import { type BankStatementRunBody, type FundingBody, type FundingStatus, type PayoutBatchBody, type PayoutBatchItemBody, formatPaise } from '@kamai/contracts';
import { sql } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import type { BankFundingsTable, PayoutBatchesTable } from './schema.ts';

type BatchRow = PayoutBatchesTable;
type Counts = PayoutBatchBody['counts'];

async function countsOf(db: ReadDbHandle, batchIds: readonly string[]): Promise<Map<string, Counts>> {
  const result = new Map<string, Counts>();
  if (batchIds.length === 0) return result;
  const rows = await db
    .selectFrom('payout_batch_items as i')
    .innerJoin('withdrawal_requests as w', 'w.id', 'i.withdrawal_id')
    .select(['i.batch_id', 'w.status', sql<number>`count(*)`.as('n')])
    .where('i.batch_id', 'in', batchIds)
    .groupBy(['i.batch_id', 'w.status'])
    .execute();
  for (const row of rows) {
    const counts = result.get(row.batch_id) ?? { processing: 0, paid: 0, failed: 0, reversed: 0 };
    if (row.status === 'processing' || row.status === 'paid' || row.status === 'failed' || row.status === 'reversed') counts[row.status] += row.n;
    result.set(row.batch_id, counts);
  }
  return result;
}

function toBatchBody(row: BatchRow, counts: Counts = { processing: 0, paid: 0, failed: 0, reversed: 0 }): PayoutBatchBody {
  const awaiting = row.approval_required === 1 && row.approved_by === null;
  return {
    id: row.id,
    status: awaiting ? 'awaiting_approval' : counts.processing === 0 && row.count > 0 ? 'completed' : 'ready',
    count: row.count,
    total: formatPaise(row.total_paise),
    counts,
    approvalRequired: row.approval_required === 1,
    createdBy: row.created_by,
    createdAt: row.created_at,
    approvedBy: row.approved_by,
    approvedAt: row.approved_at,
    fileDownloads: row.file_downloads,
  };
}

/** GET /api/admin/payout-batches: newest first. */
export async function listPayoutBatches(db: ReadDbHandle, limit = 200): Promise<PayoutBatchBody[]> {
  const rows = await db.selectFrom('payout_batches').selectAll().orderBy('position', 'desc').limit(limit).execute();
  const counts = await countsOf(db, rows.map((r) => r.id));
  return rows.map((r) => toBatchBody(r, counts.get(r.id)));
}

/** One batch with its withdrawals (GET /api/admin/payout-batches/:id). */
export async function findPayoutBatch(db: ReadDbHandle, id: string): Promise<PayoutBatchBody | undefined> {
  const row = await db.selectFrom('payout_batches').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const counts = await countsOf(db, [id]);
  const items = await db
    .selectFrom('payout_batch_items as i')
    .innerJoin('withdrawal_requests as w', 'w.id', 'i.withdrawal_id')
    .select(['i.withdrawal_id', 'i.user_id', 'i.amount_paise', 'w.status', 'w.reference', 'w.reason'])
    .where('i.batch_id', '=', id)
    .orderBy('w.position')
    .execute();
  const body: PayoutBatchItemBody[] = items.map((i) => ({
    withdrawalId: i.withdrawal_id,
    userId: i.user_id,
    amount: formatPaise(i.amount_paise),
    status: i.status,
    utr: i.reference,
    reason: i.reason,
  }));
  return { ...toBatchBody(row, counts.get(id)), items: body };
}

/** What the bank file and the results import need of a batch's withdrawals: full destinations included. */
export async function payoutBatchWithdrawals(db: ReadDbHandle, id: string) {
  return db
    .selectFrom('payout_batch_items as i')
    .innerJoin('withdrawal_requests as w', 'w.id', 'i.withdrawal_id')
    .select(['i.withdrawal_id', 'i.user_id', 'i.amount_paise', 'w.status', 'w.reference', 'w.destination', 'w.position', 'w.batch_id'])
    .where('i.batch_id', '=', id)
    .orderBy('w.position')
    .execute();
}

export async function findPayoutBatchRow(db: ReadDbHandle, id: string) {
  return db.selectFrom('payout_batches').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Payouts the ledger shows as paid between two moments (inclusive): the bank statement should show each. */
export async function paidPayoutsBetween(db: ReadDbHandle, from: string, to: string) {
  return db
    .selectFrom('journal_entries')
    .select(['withdrawal_id', 'amount_paise', 'utr', 'effective_at'])
    .where('kind', '=', 'withdrawal_paid')
    .where('effective_at', '>=', from)
    .where('effective_at', '<=', to)
    .orderBy('position')
    .execute();
}

type RunRow = { id: string; by: string; at: string; from_date: string; to_date: string; lines: number; missing: string; unmatched: string };

export function toBankStatementRunBody(row: RunRow): BankStatementRunBody {
  const missing = JSON.parse(row.missing) as { withdrawalId: string; amountPaise: number; utr: string; paidAt: string }[];
  const unmatched = JSON.parse(row.unmatched) as { line: number; date: string; amountPaise: number; utr: string | null }[];
  const difference = missing.reduce((sum, m) => sum + m.amountPaise, 0) + unmatched.reduce((sum, u) => sum + u.amountPaise, 0);
  return {
    id: row.id,
    by: row.by,
    at: row.at,
    from: row.from_date,
    to: row.to_date,
    lines: row.lines,
    missingFromStatement: missing.map((m) => ({ withdrawalId: m.withdrawalId, amount: formatPaise(m.amountPaise), utr: m.utr, paidAt: m.paidAt })),
    unmatchedDebits: unmatched.map((u) => ({ line: u.line, date: u.date, amount: formatPaise(u.amountPaise), utr: u.utr })),
    difference: formatPaise(difference),
  };
}

/** The Reconciliation tab's bank statement runs, newest first. */
export async function listBankStatementRuns(db: ReadDbHandle, limit = 50): Promise<BankStatementRunBody[]> {
  const rows = await db.selectFrom('bank_statement_runs').selectAll().orderBy('position', 'desc').limit(limit).execute();
  return rows.map(toBankStatementRunBody);
}

export function toFundingBody(row: BankFundingsTable): FundingBody {
  return {
    id: row.id,
    amount: formatPaise(row.amount_paise),
    reference: row.reference,
    date: row.value_date,
    status: row.status,
    recordedBy: row.recorded_by,
    recordedAt: row.recorded_at,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
  };
}

/** GET /api/admin/ledger/funding: newest first. */
export async function listFundings(db: ReadDbHandle, status: FundingStatus | 'all', limit = 500): Promise<FundingBody[]> {
  let query = db.selectFrom('bank_fundings').selectAll().orderBy('position', 'desc').limit(limit);
  if (status !== 'all') query = query.where('status', '=', status);
  return (await query.execute()).map(toFundingBody);
}

export async function findFunding(db: ReadDbHandle, id: string): Promise<FundingBody | undefined> {
  const row = await db.selectFrom('bank_fundings').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toFundingBody(row);
}

/** A funding not rejected that already carries this bank reference (compared without spaces, any case). */
export async function fundingWithReference(db: ReadDbHandle, reference: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('bank_fundings')
    .select('id')
    .where('status', '!=', 'rejected')
    .where(sql<string>`upper(replace(reference, ' ', ''))`, '=', reference.replace(/\s+/g, '').toUpperCase())
    .executeTakeFirst();
  return row?.id;
}

/**
 * What no decider allows, as the read models show it (for `reconcile`): a withdrawal listed by two
 * batches, a batch listing a withdrawal that is in another batch (its file would disagree with its
 * members), a payout still pending or with the bank for a person who was erased, and workflows left
 * unfinished since before `unfinishedSince`.
 */
export async function payoutAnomalies(db: ReadDbHandle, unfinishedSince: string) {
  const inTwoBatches = await db
    .selectFrom('payout_batch_items')
    .select(['withdrawal_id', sql<string>`group_concat(batch_id, ', ')`.as('batches')])
    .groupBy('withdrawal_id')
    .having(sql<number>`count(*)`, '>', 1)
    .execute();
  const listedElsewhere = await db
    .selectFrom('payout_batch_items as i')
    .innerJoin('withdrawal_requests as w', 'w.id', 'i.withdrawal_id')
    .select(['i.batch_id', 'i.withdrawal_id', 'w.batch_id as in_batch'])
    .where('w.batch_id', 'is not', null)
    .whereRef('w.batch_id', '!=', 'i.batch_id')
    .execute();
  const pendingOfErased = await db
    .selectFrom('withdrawal_requests as w')
    .innerJoin('deletion_requests as d', 'd.user_id', 'w.user_id')
    .select(['w.id', 'w.user_id', 'w.status', 'w.amount_paise'])
    .where('d.status', '=', 'erased')
    .where('w.status', 'in', ['pending', 'processing'])
    .execute();
  const unfinished = await db
    .selectFrom('workflows')
    .select(['id', 'kind', 'started_at', 'recorded', 'steps'])
    .where('status', '=', 'running')
    .where('started_at', '<', unfinishedSince)
    .execute();
  return { inTwoBatches, listedElsewhere, pendingOfErased, unfinished };
}
