import { type StatementExceptionBody, type StatementExceptionKind, type StatementExceptionStatus, formatPaise, istDayOf } from '@kamai/contracts';
import { sql } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import { accounts } from '../journal/accounts.ts';
import type { StatementExceptionsTable } from './schema.ts';

/** Whole IST days from `day` to `now`'s IST day. */
function ageDays(day: string, now: Date): number {
  return Math.max(0, Math.round((Date.parse(istDayOf(now)) - Date.parse(day)) / 86_400_000));
}

export function toStatementExceptionBody(row: StatementExceptionsTable, now: Date): StatementExceptionBody {
  return {
    id: row.id,
    runId: row.run_id,
    kind: row.kind as StatementExceptionKind,
    line: row.line,
    date: row.date,
    amount: formatPaise(row.amount_paise),
    reference: row.reference,
    ageDays: ageDays(row.date, now),
    status: row.status as StatementExceptionStatus,
    note: row.note,
    requestedBy: row.requested_by,
    resolvedBy: row.resolved_by,
    resolvedAt: row.resolved_at,
  };
}

/** The queue, oldest first: `open` (open and awaiting a write-off's approval), `resolved`, or all. */
export async function listStatementExceptions(db: ReadDbHandle, status: 'open' | 'resolved' | 'all', now: Date, runId?: string): Promise<StatementExceptionBody[]> {
  let query = db.selectFrom('statement_exceptions').selectAll().orderBy('date').orderBy('position').orderBy(sql`line IS NULL`).orderBy('line').orderBy('kind').orderBy('reference').orderBy('id').limit(1000);
  if (status === 'open') query = query.where('status', 'in', ['open', 'write_off_pending']);
  if (status === 'resolved') query = query.where('status', 'in', ['matched', 'written_off']);
  if (runId !== undefined) query = query.where('run_id', '=', runId);
  return (await query.execute()).map((row) => toStatementExceptionBody(row, now));
}

export async function findStatementException(db: ReadDbHandle, id: string, now: Date): Promise<StatementExceptionBody | null> {
  const row = await db.selectFrom('statement_exceptions').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toStatementExceptionBody(row, now) : null;
}

/** What an approved write-off of this exception books: its kind, day, amount and which way the bank differs. */
export async function exceptionDifference(db: ReadDbHandle, id: string) {
  return db.selectFrom('statement_exceptions').select(['kind', 'date', 'amount_paise', 'direction']).where('id', '=', id).executeTakeFirst();
}

/** Entries booked from statements (fees, written-off differences): dated by the statement's day, not when booked. */
const STATEMENT_KINDS = ['bank_charge', 'reconciliation_difference'];

/**
 * The payout account's cash by the journal up to `at`: what left platform:bank (fundings, counted as
 * its debits) less what arrived in it (payouts and bank charges, its credits). Entries booked from a
 * statement count by their effective day, so a statement imported late still sees its own fees.
 */
export async function bankCashAt(db: ReadDbHandle, at: string): Promise<number> {
  const row = await db
    .selectFrom('journal_entries')
    .select([
      sql<number>`COALESCE(SUM(CASE WHEN from_account = ${accounts.bank} THEN amount_paise ELSE 0 END), 0)`.as('out'),
      sql<number>`COALESCE(SUM(CASE WHEN to_account = ${accounts.bank} THEN amount_paise ELSE 0 END), 0)`.as('in'),
    ])
    .where((eb) => eb.or([eb('from_account', '=', accounts.bank), eb('to_account', '=', accounts.bank)]))
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', 'not in', STATEMENT_KINDS), eb('effective_at', '<=', at)]),
        eb.and([eb('kind', 'in', STATEMENT_KINDS), eb('effective_date', '<=', istDayOf(at))]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.out) - Number(row.in);
}

/** Bank fees already booked for lines dated between two IST days: an import of the same lines books each once. */
export async function bookedFeesBetween(db: ReadDbHandle, fromDay: string, toDay: string): Promise<{ date: string; amountPaise: number; target: string | null }[]> {
  // By the line's own day (in the facts): a fee moved into the open month is still that line's.
  const lineDay = sql<string>`json_extract(params, '$.date')`;
  const rows = await db
    .selectFrom('journal_entries')
    .select(['amount_paise', 'params'])
    .where('kind', '=', 'bank_charge')
    .where(lineDay, '>=', fromDay)
    .where(lineDay, '<=', toDay)
    .execute();
  return rows.map((r) => {
    const facts = JSON.parse(r.params ?? '{}') as { date: string; target?: string | null };
    return { date: facts.date, amountPaise: r.amount_paise, target: facts.target ?? null };
  });
}

/** Batches with a payout paid between `from` and `to`: their net paid total (what one bank line shows). */
export async function paidBatchesBetween(db: ReadDbHandle, from: string, to: string) {
  return db
    .selectFrom('payout_batch_items as i')
    .innerJoin('journal_entries as j', (join) => join.onRef('j.withdrawal_id', '=', 'i.withdrawal_id').on('j.kind', '=', 'withdrawal_paid'))
    .select(['i.batch_id', sql<number>`SUM(j.amount_paise)`.as('total_paise'), sql<string>`MIN(j.effective_at)`.as('first_paid_at'), sql<string>`MAX(j.effective_at)`.as('last_paid_at')])
    .groupBy('i.batch_id')
    .having(sql<string>`MAX(j.effective_at)`, '>=', from)
    .having(sql<string>`MIN(j.effective_at)`, '<=', to)
    .execute();
}

/** The withdrawals of these batches that were paid, with their UTRs. */
export async function paidBatchMembers(db: ReadDbHandle, batchIds: readonly string[]) {
  if (batchIds.length === 0) return [];
  return db
    .selectFrom('payout_batch_items as i')
    .innerJoin('journal_entries as j', (join) => join.onRef('j.withdrawal_id', '=', 'i.withdrawal_id').on('j.kind', '=', 'withdrawal_paid'))
    .select(['i.batch_id', 'i.withdrawal_id'])
    .where('i.batch_id', 'in', batchIds)
    .execute();
}

/** Payouts the bank returned between `from` and `to`: the credit's amount and the UTR it was paid with. */
export async function returnedPayoutsBetween(db: ReadDbHandle, from: string, to: string) {
  return db
    .selectFrom('journal_entries as r')
    .leftJoin('journal_entries as p', (join) => join.onRef('p.withdrawal_id', '=', 'r.withdrawal_id').on('p.kind', '=', 'withdrawal_paid'))
    .select(['r.withdrawal_id', 'r.amount_paise', 'r.effective_at', 'p.utr'])
    .where('r.kind', '=', 'payout_reversal')
    .where('r.effective_at', '>=', from)
    .where('r.effective_at', '<=', to)
    .execute();
}

/** Fundings booked (money that arrived) with a value date between two IST days. */
export async function bookedFundingsBetween(db: ReadDbHandle, fromDay: string, toDay: string) {
  return db
    .selectFrom('bank_fundings')
    .select(['id', 'amount_paise', 'reference', 'value_date'])
    .where('status', 'in', ['booked', 'reversal_requested'])
    .where('value_date', '>=', fromDay)
    .where('value_date', '<=', toDay)
    .execute();
}

/** The exceptions already opened (resolved or not) dated between two IST days: what an import of the same lines again does not open twice. */
export async function exceptionsDatedBetween(db: ReadDbHandle, fromDay: string, toDay: string) {
  return db
    .selectFrom('statement_exceptions')
    .select(['kind', 'date', 'amount_paise', 'reference'])
    .where('date', '>=', fromDay)
    .where('date', '<=', toDay)
    .execute();
}
