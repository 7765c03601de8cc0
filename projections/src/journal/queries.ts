import { LEDGER_TEXTS, type LedgerTextKind, type MessageParams, istDayOf, ledgerText } from '@kamai/contracts';
import { type Selectable, sql } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import { eventTexts } from '../event-texts.ts';
import { FUNDING_ACCOUNTS, PLATFORM_ENTRY, STATEMENT_ACCOUNTS, accounts, changeOf } from './accounts.ts';
import type { JournalEntriesTable } from './schema.ts';

type EntryRow = Selectable<JournalEntriesTable>;

/** The facts of an entry's description, or undefined for an older entry that kept its literal text. */
export function paramsOf(row: Pick<EntryRow, 'params'>): MessageParams | undefined {
  return row.params === null ? undefined : (JSON.parse(row.params) as MessageParams);
}

/** The literal descriptions of the older entries among `rows`, by position, read from their events (event-texts.ts). */
export async function literalDescriptions(db: ReadDbHandle, rows: ReadonlyArray<Pick<EntryRow, 'position' | 'description_in_event'>>): Promise<Map<number, string>> {
  const texts = await eventTexts(
    db,
    rows.filter((row) => row.description_in_event === 1).map((row) => row.position),
    ['description'],
  );
  return new Map([...texts].map(([position, { description }]) => [position, description]));
}

/** An entry's description in English: its kind's text filled in with its facts, or its literal text (literalDescriptions). */
export function descriptionOf(row: Pick<EntryRow, 'kind' | 'params' | 'position' | 'description_in_event'>, literal: ReadonlyMap<number, string>, params = paramsOf(row)): string {
  return entryText(row.kind, params, row.description_in_event === 1 ? literal.get(row.position)! : null);
}

/** A transaction's description in English: an older one's literal text, else its kind's text filled in with its facts. */
export function entryText(kind: string, params: MessageParams | undefined, literal: string | null): string {
  if (literal !== null) return literal;
  // Every kind the journal writes is a LEDGER_TEXTS key (accounts.ts); a row is never anything else.
  return Object.hasOwn(LEDGER_TEXTS, kind) ? ledgerText({ kind: kind as LedgerTextKind, params }) : kind;
}

/** Why staff made the entry (an adjustment's or a refund's reason), from its facts. */
function reasonOf(params: MessageParams | undefined): string | null {
  const reason = params?.['reason'];
  return typeof reason === 'string' ? reason : null;
}

/** SQL: the signed change an entry made to `account` (changeOf, in SQL). */
const changeSql = (account: string) =>
  sql<number>`CASE WHEN to_account = ${account} THEN amount_paise WHEN from_account = ${account} THEN -amount_paise ELSE 0 END`;

/** A moment as the journal compares it: ISO-8601 in UTC, as every event's time is written. */
export function isoMoment(at: string | Date): string {
  return (typeof at === 'string' ? new Date(at) : at).toISOString();
}

/**
 * Which of an entry's dates a period reads (docs/finance-audit.md): `recorded`, the moment it was
 * recorded (a moment compares as given); `effective`, the IST day it takes effect in the books (a
 * moment compares as the IST day it falls on, so periods are whole days).
 */
export type JournalDating = 'recorded' | 'effective';

/** The column and the value an entry's date is compared with under `by`. */
function dated(by: JournalDating, moment: string): { column: 'effective_at' | 'effective_date'; value: string } {
  return by === 'effective' ? { column: 'effective_date', value: istDayOf(moment) } : { column: 'effective_at', value: isoMoment(moment) };
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
    .selectFrom('journal_entries')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>(changeSql(accounts.available(userId))), eb.lit(0)).as('available'),
      eb.fn.coalesce(eb.fn.sum<number>(changeSql(accounts.payoutPending(userId))), eb.lit(0)).as('pending'),
      eb.fn.coalesce(eb.fn.max<number>('position'), eb.lit(0)).as('position'),
    ])
    .where('user_id', '=', userId);
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
  /** When it was recorded. */
  effectiveAt: string;
  /** The IST day it takes effect in the books. */
  effectiveDate: string;
  /** What a correction corrects. */
  corrects: string | null;
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
export async function userStatement(
  db: ReadDbHandle,
  userId: string,
  range: { from?: string; to?: string; by?: JournalDating } = {},
): Promise<Statement> {
  const by = range.by ?? 'recorded';
  const from = range.from === undefined ? null : isoMoment(range.from);
  const to = range.to === undefined ? null : isoMoment(range.to);
  const opening = from === null ? { availablePaise: 0, pendingPayoutPaise: 0 } : await balanceBefore(db, userId, from, by);
  let query = db
    .selectFrom('journal_entries as e')
    .leftJoin('users as a', 'a.id', 'e.actor')
    .selectAll('e')
    .select(['a.first_name', 'a.last_name', 'a.mobile'])
    .where('e.user_id', '=', userId);
  if (from !== null) {
    const { column, value } = dated(by, from);
    query = query.where(`e.${column}`, '>=', value);
  }
  if (to !== null) {
    const { column, value } = dated(by, to);
    query = query.where(`e.${column}`, '<=', value);
  }
  // By effective day, an entry dated back sits among that day's entries (then in log order).
  if (by === 'effective') query = query.orderBy('e.effective_date');
  const rows = await query.orderBy('e.position').execute();
  const literal = await literalDescriptions(db, rows);

  const available = accounts.available(userId);
  const pending = accounts.payoutPending(userId);
  let availablePaise = opening.availablePaise;
  let pendingPaise = opening.pendingPayoutPaise;
  const entries = rows.map((row): StatementEntry => {
    const amountPaise = changeOf(available, row.from_account, row.to_account, row.amount_paise);
    const pendingPayoutChangePaise = changeOf(pending, row.from_account, row.to_account, row.amount_paise);
    availablePaise += amountPaise;
    pendingPaise += pendingPayoutChangePaise;
    const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
    const params = paramsOf(row);
    return {
      transactionId: row.transaction_id,
      position: row.position,
      revision: row.revision,
      effectiveAt: row.effective_at,
      effectiveDate: row.effective_date,
      corrects: row.corrects,
      kind: row.kind,
      description: descriptionOf(row, literal, params),
      amountPaise,
      pendingPayoutChangePaise,
      availablePaise,
      pendingPayoutPaise: pendingPaise,
      actor: row.actor === null ? null : { id: row.actor, name: name || row.mobile || row.actor, mobile: row.mobile },
      reason: reasonOf(params),
      submissionId: row.submission_id,
      taskId: row.task_id,
      withdrawalId: row.withdrawal_id,
      utr: row.utr,
    };
  });
  return { userId, from, to, opening, entries, closing: { availablePaise, pendingPayoutPaise: pendingPaise } };
}

async function balanceBefore(db: ReadDbHandle, userId: string, before: string, by: JournalDating) {
  const { column, value } = dated(by, before);
  const row = await db
    .selectFrom('journal_entries')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>(changeSql(accounts.available(userId))), eb.lit(0)).as('available'),
      eb.fn.coalesce(eb.fn.sum<number>(changeSql(accounts.payoutPending(userId))), eb.lit(0)).as('pending'),
    ])
    .where('user_id', '=', userId)
    .where(column, '<', value)
    .executeTakeFirstOrThrow();
  return { availablePaise: Number(row.available), pendingPayoutPaise: Number(row.pending) };
}

export interface TrialBalanceLine {
  account: string;
  debitPaise: number;
  creditPaise: number;
}

/** Debit and credit totals per account (up to `at` when given). Total debits equal total credits. */
export async function trialBalance(
  db: ReadDbHandle,
  at?: string,
  by: JournalDating = 'recorded',
): Promise<{ accounts: TrialBalanceLine[]; debitPaise: number; creditPaise: number }> {
  let lines: TrialBalanceLine[];
  if (at === undefined) {
    const rows = await db.selectFrom('journal_balances').selectAll().orderBy('account').execute();
    lines = rows.map((r) => ({ account: r.account, debitPaise: r.debit_paise, creditPaise: r.credit_paise }));
  } else {
    // What left each account (its debits) and what arrived in it (its credits), up to the moment.
    const { column, value } = dated(by, at);
    const { rows } = await sql<{ account: string; debit: number; credit: number }>`
      SELECT account, SUM(debit) AS debit, SUM(credit) AS credit FROM (
        SELECT from_account AS account, amount_paise AS debit, 0 AS credit FROM journal_entries WHERE ${sql.ref(column)} <= ${value}
        UNION ALL
        SELECT to_account, 0, amount_paise FROM journal_entries WHERE ${sql.ref(column)} <= ${value}
      ) GROUP BY account ORDER BY account`.execute(db);
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
  /** Tax withheld from withdrawals and not given back (platform:tax_payable). */
  taxPayablePaise: number;
  /** Withheld tax deposited with the government (challans): it left the payout account, not to a person. */
  taxDepositedPaise: number;
  /** available + pending + tax payable + tax deposited − (funded − paid): zero when the books agree. */
  differencePaise: number;
  /** Everything the company put into the payout bank account. */
  bankFundedPaise: number;
  /** What the payout account should hold: bankFunded − paid − tax deposited − bank charges ± written-off differences. */
  bankBalancePaise: number;
  /**
   * User accounts below zero. The deciders never let a balance go negative, so one here means money
   * left that was never there (a state that was not folded from the log, an edited store).
   */
  negativeBalances: Array<{ userId: string; account: 'available' | 'payout_pending'; balancePaise: number }>;
}

export async function reconciliation(db: ReadDbHandle): Promise<Reconciliation> {
  const rows = await db.selectFrom('journal_balances').selectAll().execute();
  let availablePaise = 0;
  let pendingPayoutPaise = 0;
  let fundedPaise = 0;
  let bankPaise = 0;
  let bankFundedPaise = 0;
  let taxPayablePaise = 0;
  let statementBookedPaise = 0;
  const negativeBalances: Reconciliation['negativeBalances'] = [];
  for (const row of rows) {
    const balance = row.credit_paise - row.debit_paise;
    const user = /^user:(.+):(available|payout_pending)$/.exec(row.account);
    if (user && balance < 0) negativeBalances.push({ userId: user[1]!, account: user[2] as 'available' | 'payout_pending', balancePaise: balance });
    if (user?.[2] === 'available') availablePaise += balance;
    else if (user?.[2] === 'payout_pending') pendingPayoutPaise += balance;
    else if (FUNDING_ACCOUNTS.includes(row.account)) fundedPaise -= balance;
    else if (row.account === accounts.bank) bankPaise = balance;
    else if (row.account === accounts.companyFunding) bankFundedPaise = balance;
    else if (row.account === accounts.taxPayable) taxPayablePaise = balance;
    else if (STATEMENT_ACCOUNTS.includes(row.account)) statementBookedPaise += balance;
  }
  // Deposits of withheld tax arrive in platform:bank as payouts do (the platform's rows, few).
  const deposited = await db
    .selectFrom('journal_entries')
    .select((eb) => eb.fn.sum<number>('amount_paise').as('total'))
    .where('user_id', '=', PLATFORM_ENTRY)
    .where('kind', '=', 'tax_deposit')
    .executeTakeFirst();
  const taxDepositedPaise = Number(deposited?.total ?? 0);
  // Fundings leave platform:bank as payouts arrive in it, so they are added back to tell the paid.
  // Bank charges and written-off differences moved platform:bank too, paying no one: taken back out.
  const paidPaise = bankPaise + bankFundedPaise - taxDepositedPaise + statementBookedPaise;
  // Tax withheld left the wallets without reaching a person's bank: held in tax payable, or deposited.
  const differencePaise = availablePaise + pendingPayoutPaise + taxPayablePaise + taxDepositedPaise - (fundedPaise - paidPaise);
  return {
    availablePaise, pendingPayoutPaise, fundedPaise, paidPaise, taxPayablePaise, taxDepositedPaise, differencePaise, bankFundedPaise,
    bankBalancePaise: bankFundedPaise - paidPaise - taxDepositedPaise + statementBookedPaise, negativeBalances,
  };
}

/**
 * User accounts whose balance at the end of some India day was below zero, each with the first such
 * day. Today's balances can be right while an earlier day's were not: a credit dated ahead of when it
 * was recorded, spent at once, leaves every day in between below zero (as-of statements read so).
 * A scan of the journal: for `reconcile`, not for a hot path.
 */
export async function negativeBalancesAsOfAnyDay(db: ReadDbHandle): Promise<Array<{ userId: string; account: 'available' | 'payout_pending'; day: string; balancePaise: number }>> {
  const { rows } = await sql<{ account: string; day: string; balance: number }>`
    WITH postings AS (
      SELECT to_account AS account, amount_paise AS delta, effective_at FROM journal_entries WHERE to_account LIKE 'user:%'
      UNION ALL
      SELECT from_account, -amount_paise, effective_at FROM journal_entries WHERE from_account LIKE 'user:%'
    ), days AS (
      SELECT account, date(effective_at, '+5 hours', '+30 minutes') AS day, SUM(delta) AS delta FROM postings GROUP BY account, day
    ), running AS (
      SELECT account, day, SUM(delta) OVER (PARTITION BY account ORDER BY day) AS balance FROM days
    )
    SELECT account, MIN(day) AS day, balance FROM running WHERE balance < 0 GROUP BY account ORDER BY account`.execute(db);
  return rows.flatMap((row) => {
    const user = /^user:(.+):(available|payout_pending)$/.exec(row.account);
    return user ? [{ userId: user[1]!, account: user[2] as 'available' | 'payout_pending', day: row.day, balancePaise: row.balance }] : [];
  });
}

/** One side of a journal transaction: the amount arriving in (+) or leaving (−) one account. */
export interface JournalPosting {
  /** `<transaction id>:0` for the side money leaves, `:1` for the side it arrives in. */
  id: string;
  transactionId: string;
  position: number;
  revision: number;
  account: string;
  /** Signed paise: negative debits the account, positive credits it. The two sides sum to zero. */
  amountPaise: number;
  kind: string;
  /** When it was recorded. */
  effectiveAt: string;
  /** The IST day it takes effect in the books. */
  effectiveDate: string;
  /** The bank's value date of a funding, its reversal or a payout, when the bank gave one. */
  valueDate: string | null;
  /** What a correction corrects. */
  corrects: string | null;
  userId: string;
  /** The ledger entry (or funding) id the transaction books. */
  entryId: string | null;
  actor: string | null;
  reason: string | null;
  description: string;
  submissionId: string | null;
  taskId: string | null;
  withdrawalId: string | null;
  utr: string | null;
}

/** The bank's value date among a transaction's facts (fundings and paid payouts keep it as `date`). */
function valueDateOf(kind: string, params: MessageParams | undefined): string | null {
  const date = params?.['date'];
  return (kind === 'bank_funding' || kind === 'bank_funding_reversed' || kind === 'withdrawal_paid') && typeof date === 'string' ? date : null;
}

/** Every posting in log order, the side money leaves first (for export and for checking a rebuild gives the same journal). */
export async function listPostings(db: ReadDbHandle, range: { from?: string; to?: string; by?: JournalDating } = {}): Promise<JournalPosting[]> {
  const by = range.by ?? 'recorded';
  let query = db.selectFrom('journal_entries').selectAll();
  if (range.from !== undefined) {
    const { column, value } = dated(by, range.from);
    query = query.where(column, '>=', value);
  }
  if (range.to !== undefined) {
    const { column, value } = dated(by, range.to);
    query = query.where(column, '<=', value);
  }
  if (by === 'effective') query = query.orderBy('effective_date');
  const rows = await query.orderBy('position').execute();
  const literal = await literalDescriptions(db, rows);
  return rows.flatMap((row) => {
    const params = paramsOf(row);
    const side = (index: 0 | 1, account: string, amountPaise: number): JournalPosting => ({
      id: `${row.transaction_id}:${index}`,
      transactionId: row.transaction_id,
      position: row.position,
      revision: row.revision,
      account,
      amountPaise,
      kind: row.kind,
      effectiveAt: row.effective_at,
      effectiveDate: row.effective_date,
      valueDate: valueDateOf(row.kind, params),
      corrects: row.corrects,
      userId: row.user_id,
      entryId: row.entry_id,
      actor: row.actor,
      reason: reasonOf(params),
      description: descriptionOf(row, literal, params),
      submissionId: row.submission_id,
      taskId: row.task_id,
      withdrawalId: row.withdrawal_id,
      utr: row.utr,
    });
    return [side(0, row.from_account, -row.amount_paise), side(1, row.to_account, row.amount_paise)];
  });
}

/** One user's money of a period, by what it was (paise). */
export interface YearlyTotals {
  userId: string;
  rewardsPaise: number;
  bonusesPaise: number;
  adjustmentsPaise: number;
  payoutsPaise: number;
  /** Invitation bonuses (referral_bonus). */
  referralBonusesPaise: number;
}

/**
 * Per user, between two instants (inclusive): rewards and bonuses credited, adjustments net
 * (credits less debits), and payouts net of reversals; users with none of these are left out.
 */
export async function totalsByUser(db: ReadDbHandle, from: string, to: string): Promise<YearlyTotals[]> {
  const { rows } = await sql<{ user_id: string; rewards: number; bonuses: number; adjustments: number; payouts: number; referral_bonuses: number }>`
    SELECT user_id,
      SUM(CASE WHEN kind = 'task_reward' THEN amount_paise ELSE 0 END) AS rewards,
      SUM(CASE WHEN kind = 'kyc_bonus' THEN amount_paise ELSE 0 END) AS bonuses,
      SUM(CASE WHEN kind = 'adjustment' AND to_account LIKE 'user:%' THEN amount_paise WHEN kind = 'adjustment' THEN -amount_paise ELSE 0 END) AS adjustments,
      SUM(CASE WHEN kind = 'withdrawal_paid' THEN amount_paise WHEN kind = 'payout_reversal' THEN -amount_paise ELSE 0 END) AS payouts,
      SUM(CASE WHEN kind = 'referral_bonus' THEN amount_paise ELSE 0 END) AS referral_bonuses
    FROM journal_entries
    WHERE effective_at >= ${isoMoment(from)} AND effective_at <= ${isoMoment(to)} AND user_id != ${PLATFORM_ENTRY}
      AND kind IN ('task_reward', 'kyc_bonus', 'adjustment', 'withdrawal_paid', 'payout_reversal', 'referral_bonus')
    GROUP BY user_id ORDER BY user_id`.execute(db);
  return rows.map((r) => ({
    userId: r.user_id,
    rewardsPaise: Number(r.rewards),
    bonusesPaise: Number(r.bonuses),
    adjustmentsPaise: Number(r.adjustments),
    payoutsPaise: Number(r.payouts),
    referralBonusesPaise: Number(r.referral_bonuses),
  }));
}
