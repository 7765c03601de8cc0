import { sql } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import { FUNDING_ACCOUNTS, accounts } from './accounts.ts';

/** A moment as the journal compares it: ISO-8601 in UTC, as every event's time is written. */
export function isoMoment(at: string | Date): string {
  return (typeof at === 'string' ? new Date(at) : at).toISOString();
}

export interface UserBalance {
  availablePaise: number;
  pendingPayoutPaise: number;
  /** Position of the last posting counted (0 when none). */
  position: number;
}

/** The user's balances folded from the journal up to and including `at` (now when absent). */
export async function userBalanceAt(db: ReadDbHandle, userId: string, at?: string): Promise<UserBalance> {
  let query = db
    .selectFrom('journal_postings')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>(sql<number>`CASE WHEN account = ${accounts.available(userId)} THEN amount_paise ELSE 0 END`), eb.lit(0)).as('available'),
      eb.fn.coalesce(eb.fn.sum<number>(sql<number>`CASE WHEN account = ${accounts.payoutPending(userId)} THEN amount_paise ELSE 0 END`), eb.lit(0)).as('pending'),
      eb.fn.coalesce(eb.fn.max<number>('position'), eb.lit(0)).as('position'),
    ])
    .where('account', 'in', [accounts.available(userId), accounts.payoutPending(userId)]);
  if (at !== undefined) query = query.where('effective_at', '<=', isoMoment(at));
  const row = await query.executeTakeFirstOrThrow();
  return { availablePaise: Number(row.available), pendingPayoutPaise: Number(row.pending), position: Number(row.position) };
}

/** What the user's wallet shows beside the balance: rupees asked for and not yet paid. */
export async function pendingPayoutOf(db: ReadDbHandle, userId: string): Promise<number> {
  const row = await db
    .selectFrom('journal_balances')
    .select(['debit_paise', 'credit_paise'])
    .where('account', '=', accounts.payoutPending(userId))
    .executeTakeFirst();
  return row ? row.credit_paise - row.debit_paise : 0;
}

export interface StatementActor {
  id: string;
  name: string;
  mobile: string | null;
}

export interface StatementEntry {
  transactionId: string;
  position: number;
  revision: number;
  effectiveAt: string;
  kind: string;
  description: string;
  /** Change of the available balance (signed paise); 0 for a paid withdrawal. */
  amountPaise: number;
  /** Change of the pending payout. */
  pendingPayoutChangePaise: number;
  /** Balances after this entry. */
  availablePaise: number;
  pendingPayoutPaise: number;
  actor: StatementActor | null;
  reason: string | null;
  submissionId: string | null;
  taskId: string | null;
  withdrawalId: string | null;
  utr: string | null;
}

export interface Statement {
  userId: string;
  from: string | null;
  to: string | null;
  opening: { availablePaise: number; pendingPayoutPaise: number };
  entries: StatementEntry[];
  closing: { availablePaise: number; pendingPayoutPaise: number };
}

/**
 * The user's statement: opening balances (everything before `from`), every journal transaction
 * touching the user's two accounts in [from, to] oldest first with running balances, and the
 * closing balances. The entries' amounts sum to closing − opening.
 */
export async function userStatement(db: ReadDbHandle, userId: string, range: { from?: string; to?: string } = {}): Promise<Statement> {
  const from = range.from === undefined ? null : isoMoment(range.from);
  const to = range.to === undefined ? null : isoMoment(range.to);
  const opening = from === null ? { availablePaise: 0, pendingPayoutPaise: 0 } : await balanceBefore(db, userId, from);
  let query = db
    .selectFrom('journal_postings as p')
    .leftJoin('users as a', 'a.id', 'p.actor')
    .selectAll('p')
    .select(['a.first_name', 'a.last_name', 'a.mobile'])
    .where('p.account', 'in', [accounts.available(userId), accounts.payoutPending(userId)]);
  if (from !== null) query = query.where('p.effective_at', '>=', from);
  if (to !== null) query = query.where('p.effective_at', '<=', to);
  const rows = await query.orderBy('p.position').orderBy('p.id').execute();

  const entries: StatementEntry[] = [];
  let available = opening.availablePaise;
  let pending = opening.pendingPayoutPaise;
  for (const row of rows) {
    let entry = entries.at(-1);
    if (!entry || entry.transactionId !== row.transaction_id) {
      const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
      entry = {
        transactionId: row.transaction_id,
        position: row.position,
        revision: row.revision,
        effectiveAt: row.effective_at,
        kind: row.kind,
        description: row.description,
        amountPaise: 0,
        pendingPayoutChangePaise: 0,
        availablePaise: available,
        pendingPayoutPaise: pending,
        actor: row.actor === null ? null : { id: row.actor, name: name || row.mobile || row.actor, mobile: row.mobile },
        reason: row.reason,
        submissionId: row.submission_id,
        taskId: row.task_id,
        withdrawalId: row.withdrawal_id,
        utr: row.utr,
      };
      entries.push(entry);
    }
    if (row.account === accounts.available(userId)) {
      entry.amountPaise += row.amount_paise;
      available += row.amount_paise;
    } else {
      entry.pendingPayoutChangePaise += row.amount_paise;
      pending += row.amount_paise;
    }
    entry.availablePaise = available;
    entry.pendingPayoutPaise = pending;
  }
  return { userId, from, to, opening, entries, closing: { availablePaise: available, pendingPayoutPaise: pending } };
}

async function balanceBefore(db: ReadDbHandle, userId: string, before: string) {
  const row = await db
    .selectFrom('journal_postings')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>(sql<number>`CASE WHEN account = ${accounts.available(userId)} THEN amount_paise ELSE 0 END`), eb.lit(0)).as('available'),
      eb.fn.coalesce(eb.fn.sum<number>(sql<number>`CASE WHEN account = ${accounts.payoutPending(userId)} THEN amount_paise ELSE 0 END`), eb.lit(0)).as('pending'),
    ])
    .where('account', 'in', [accounts.available(userId), accounts.payoutPending(userId)])
    .where('effective_at', '<', before)
    .executeTakeFirstOrThrow();
  return { availablePaise: Number(row.available), pendingPayoutPaise: Number(row.pending) };
}

export interface TrialBalanceLine {
  account: string;
  debitPaise: number;
  creditPaise: number;
}

/** Debit and credit totals per account (up to `at` when given). Total debits equal total credits. */
export async function trialBalance(db: ReadDbHandle, at?: string): Promise<{ accounts: TrialBalanceLine[]; debitPaise: number; creditPaise: number }> {
  let lines: TrialBalanceLine[];
  if (at === undefined) {
    const rows = await db.selectFrom('journal_balances').selectAll().orderBy('account').execute();
    lines = rows.map((r) => ({ account: r.account, debitPaise: r.debit_paise, creditPaise: r.credit_paise }));
  } else {
    const rows = await db
      .selectFrom('journal_postings')
      .select((eb) => [
        'account',
        eb.fn.sum<number>(sql<number>`CASE WHEN amount_paise < 0 THEN -amount_paise ELSE 0 END`).as('debit'),
        eb.fn.sum<number>(sql<number>`CASE WHEN amount_paise > 0 THEN amount_paise ELSE 0 END`).as('credit'),
      ])
      .where('effective_at', '<=', isoMoment(at))
      .groupBy('account')
      .orderBy('account')
      .execute();
    lines = rows.map((r) => ({ account: r.account, debitPaise: Number(r.debit), creditPaise: Number(r.credit) }));
  }
  return {
    accounts: lines,
    debitPaise: lines.reduce((sum, l) => sum + l.debitPaise, 0),
    creditPaise: lines.reduce((sum, l) => sum + l.creditPaise, 0),
  };
}

export interface Reconciliation {
  /** Sum of every user's available balance. */
  availablePaise: number;
  /** Sum of every user's requested and not yet paid withdrawals. */
  pendingPayoutPaise: number;
  /** Everything that came into wallets from the platform: rewards, bonuses and net adjustments. */
  fundedPaise: number;
  /** Everything paid out to banks. */
  paidPaise: number;
  /** available + pending − (funded − paid): zero when the books agree. */
  differencePaise: number;
}

export async function reconciliation(db: ReadDbHandle): Promise<Reconciliation> {
  const rows = await db.selectFrom('journal_balances').selectAll().execute();
  let availablePaise = 0;
  let pendingPayoutPaise = 0;
  let fundedPaise = 0;
  let paidPaise = 0;
  for (const row of rows) {
    const balance = row.credit_paise - row.debit_paise;
    if (row.account.startsWith('user:') && row.account.endsWith(':available')) availablePaise += balance;
    else if (row.account.startsWith('user:') && row.account.endsWith(':payout_pending')) pendingPayoutPaise += balance;
    else if (FUNDING_ACCOUNTS.includes(row.account)) fundedPaise -= balance;
    else if (row.account === accounts.bank) paidPaise += balance;
  }
  return { availablePaise, pendingPayoutPaise, fundedPaise, paidPaise, differencePaise: availablePaise + pendingPayoutPaise - (fundedPaise - paidPaise) };
}

/** Every posting in log order (for export and for checking a rebuild gives the same journal). */
export async function listPostings(db: ReadDbHandle, range: { from?: string; to?: string } = {}) {
  let query = db.selectFrom('journal_postings').selectAll();
  if (range.from !== undefined) query = query.where('effective_at', '>=', isoMoment(range.from));
  if (range.to !== undefined) query = query.where('effective_at', '<=', isoMoment(range.to));
  // seq orders as (position, id) does: the two sides of an event, debit first.
  return query.orderBy('seq').execute();
}
