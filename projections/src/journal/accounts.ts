import { istDayOf } from '@kamai/contracts';
import type { ProjectedEvent } from '../projection.ts';

/** The last minute effectiveDayOf was asked about, and its IST day. */
const lastDay = { minute: '', day: '' };

/**
 * istDayOf for the journal's entries, remembering the last minute asked about: a build asks for the
 * day of every money event, events come in time order, and parsing and formatting the instant was
 * about 3 % of a build's CPU. An instant as toISOString writes it (UTC, 24 characters) falls on an
 * IST day fixed by its minute, IST being UTC+5:30; any other form is parsed as before.
 */
export function effectiveDayOf(instant: string): string {
  if (instant.length !== 24 || !instant.endsWith('Z')) return istDayOf(instant);
  const minute = instant.slice(0, 16);
  if (minute !== lastDay.minute) {
    lastDay.day = istDayOf(instant);
    lastDay.minute = minute;
  }
  return lastDay.day;
}

/** The journal's accounts: two per user, four on the platform's side. */
export const accounts = {
  available: (userId: string) => `user:${userId}:available`,
  payoutPending: (userId: string) => `user:${userId}:payout_pending`,
  taskRewards: 'platform:task_rewards',
  kycBonus: 'platform:kyc_bonus',
  adjustments: 'platform:adjustments',
  bank: 'platform:bank',
  /** The company's own money put into the payout bank account (its fundings arrive here). */
  companyFunding: 'platform:company_funding',
  /** Invitation bonuses (docs/invitations.md): an expense of its own. */
  referralBonus: 'platform:referral_bonus',
  /** Tax withheld at source from withdrawals (docs/tax.md): owed to the government until deposited. */
  taxPayable: 'platform:tax_payable',
  /** What the bank charged for payouts, booked from a statement's fee lines (docs/payouts.md). */
  bankCharges: 'expense:bank_charges',
  /** Statement differences written off by two finance members (docs/payouts.md). */
  reconciliationDifferences: 'expense:reconciliation_differences',
} as const;

/** Accounts booked from bank statements against platform:bank: neither a person's money nor a payout. */
export const STATEMENT_ACCOUNTS: readonly string[] = [accounts.bankCharges, accounts.reconciliationDifferences];

/** The user a `user:<id>:…` account belongs to; null for the platform's accounts. */
export function userOfAccount(account: string): string | null {
  const match = /^user:(.+):(?:available|payout_pending)$/.exec(account);
  return match ? match[1]! : null;
}

/** The user_id of journal rows that touch no user's accounts (fundings of the payout account). */
export const PLATFORM_ENTRY = 'platform';

/**
 * What a transaction of `amountPaise` moving money `from` one account `to` another did to `account`:
 * +amount when it arrived there, −amount when it left from there, 0 when the account is neither side.
 */
export function changeOf(account: string, from: string, to: string, amountPaise: number): number {
  return to === account ? amountPaise : from === account ? -amountPaise : 0;
}

/** Accounts whose outflow funds the users' wallets. */
export const FUNDING_ACCOUNTS: readonly string[] = [accounts.taskRewards, accounts.kycBonus, accounts.adjustments, accounts.referralBonus];

export type JournalKind =
  | 'task_reward'
  | 'kyc_bonus'
  | 'adjustment'
  | 'withdrawal'
  | 'withdrawal_refund'
  | 'withdrawal_paid'
  | 'payout_failed'
  | 'payout_reversal'
  | 'bank_funding'
  | 'bank_funding_reversed'
  | 'referral_bonus'
  | 'tax_withheld'
  | 'tax_refund'
  | 'tax_deposit'
  | 'bank_charge'
  | 'reconciliation_difference';

/** One journal transaction: money moves `from` one account `to` another. */
export interface JournalTransaction {
  userId: string;
  kind: JournalKind;
  from: string;
  to: string;
  amountPaise: number;
  /** When it was recorded (the event's creditedAt, debitedAt, paidAt, recordedAt…). */
  effectiveAt: string;
  /**
   * The IST day it takes effect in the books: an adjustment's effectiveDate, the bank's value date of
   * a funding or a payout, else the IST day it was recorded.
   */
  effectiveDate: string;
  /** The transaction, entry or funding a correction corrects. */
  corrects: string | null;
  actor: string | null;
  /** The description's facts as JSON; the text is rendered when read. */
  params: string | null;
  /** The literal description of an entry recorded before descriptions were keys. */
  description: string | null;
  entryId: string | null;
  submissionId: string | null;
  taskId: string | null;
  withdrawalId: string | null;
  utr: string | null;
}

/** A paid request as the journal remembers it (older WithdrawalPaid events carry no amount). */
export interface KnownWithdrawal {
  userId: string;
  amountPaise: number;
}

/**
 * The journal transaction a money event is, or null for events that move no money. The mapping is
 * chosen so nothing is counted twice: a request's hold is its `WalletDebited` (kind `withdrawal`),
 * a rejection's return is its `WalletCredited` (kind `withdrawal_refund`); `WithdrawalRequested`
 * and `WithdrawalRejected` move nothing themselves, and `WithdrawalPaid` is the only pay-out.
 */
type LedgerData = Extract<ProjectedEvent, { type: 'WalletCredited' | 'WalletDebited' }>['data'];

/** What a journal transaction links to besides its ledger entry. */
interface Links {
  submissionId?: string | null;
  taskId?: string | null;
  withdrawalId?: string | null;
}

/**
 * The transaction of a wallet credit or debit: what both record alike, with its kind and accounts.
 * One object literal (no spreads): this runs for every money event of every rebuild.
 */
function ledgerEntry(event: ProjectedEvent, userId: string, d: LedgerData, effectiveAt: string, kind: JournalKind, from: string, to: string, links: Links = {}): JournalTransaction {
  return {
    userId,
    kind,
    from,
    to,
    amountPaise: d.amountPaise,
    effectiveAt,
    effectiveDate: d.effectiveDate ?? effectiveDayOf(effectiveAt),
    corrects: d.corrects ?? null,
    actor: d.by ?? event.metadata.actor ?? null,
    params: d.params ? JSON.stringify(d.params) : null,
    description: d.description ?? null,
    entryId: d.entryId,
    submissionId: links.submissionId ?? null,
    taskId: links.taskId ?? null,
    withdrawalId: links.withdrawalId ?? null,
    utr: null,
  };
}

export function journalTransactionOf(
  event: ProjectedEvent,
  userId: string,
  findWithdrawal: (id: string) => KnownWithdrawal | undefined,
): JournalTransaction | null {
  switch (event.type) {
    case 'WalletCredited': {
      const d = event.data;
      const to = accounts.available(userId);
      switch (d.kind) {
        case 'task_reward':
          return ledgerEntry(event, userId, d, d.creditedAt, 'task_reward', accounts.taskRewards, to, { submissionId: d.reference ?? null, taskId: d.taskId ?? null });
        case 'kyc_bonus':
          return ledgerEntry(event, userId, d, d.creditedAt, 'kyc_bonus', accounts.kycBonus, to);
        case 'adjustment':
          return ledgerEntry(event, userId, d, d.creditedAt, 'adjustment', accounts.adjustments, to);
        case 'withdrawal_refund':
          return ledgerEntry(event, userId, d, d.creditedAt, 'withdrawal_refund', accounts.payoutPending(userId), to, { withdrawalId: d.reference ?? null });
        case 'payout_failed':
          // The bank never paid it: the hold goes back, as for a rejection.
          return ledgerEntry(event, userId, d, d.creditedAt, 'payout_failed', accounts.payoutPending(userId), to, { withdrawalId: d.reference ?? null });
        case 'payout_reversal':
          // Paid, then returned by the bank: the money comes back from the bank.
          return ledgerEntry(event, userId, d, d.creditedAt, 'payout_reversal', accounts.bank, to, { withdrawalId: d.reference ?? null });
        case 'referral_bonus':
          return ledgerEntry(event, userId, d, d.creditedAt, 'referral_bonus', accounts.referralBonus, to);
        case 'tax_refund':
          // A rejected, failed or reversed withdrawal's tax: back from tax payable, once.
          return ledgerEntry(event, userId, d, d.creditedAt, 'tax_refund', accounts.taxPayable, to, { withdrawalId: d.reference ?? null });
        default:
          return null;
      }
    }
    case 'WalletDebited': {
      const d = event.data;
      const from = accounts.available(userId);
      switch (d.kind) {
        case 'withdrawal':
          return ledgerEntry(event, userId, d, d.debitedAt, 'withdrawal', from, accounts.payoutPending(userId), { withdrawalId: d.reference ?? null });
        case 'adjustment':
          return ledgerEntry(event, userId, d, d.debitedAt, 'adjustment', from, accounts.adjustments);
        case 'tax_withheld':
          return ledgerEntry(event, userId, d, d.debitedAt, 'tax_withheld', from, accounts.taxPayable, { withdrawalId: d.reference ?? null });
        default:
          return null;
      }
    }
    case 'WithdrawalPaid': {
      const d = event.data;
      const amountPaise = d.amountPaise ?? findWithdrawal(d.withdrawalId)?.amountPaise;
      if (amountPaise === undefined) return null;
      return {
        userId,
        kind: 'withdrawal_paid',
        amountPaise,
        from: accounts.payoutPending(userId),
        to: accounts.bank,
        effectiveAt: d.paidAt,
        effectiveDate: d.valueDate ?? effectiveDayOf(d.paidAt),
        corrects: null,
        actor: d.paidBy,
        // The value date among the facts too, so the export shows it as it shows a funding's.
        params: JSON.stringify(d.valueDate === undefined ? { reference: d.reference } : { reference: d.reference, date: d.valueDate }),
        description: null,
        entryId: null,
        submissionId: null,
        taskId: null,
        withdrawalId: d.withdrawalId,
        utr: d.reference,
      };
    }
    case 'BankFundingRecorded':
    case 'BankFundingApproved': {
      const d = event.data;
      // Booked when recorded at or below the threshold, otherwise when approved.
      if (event.type === 'BankFundingRecorded' && event.data.approvalRequired) return null;
      const at = event.type === 'BankFundingRecorded' ? event.data.recordedAt : event.data.approvedAt;
      const actor = event.type === 'BankFundingRecorded' ? event.data.recordedBy : event.data.approvedBy;
      return {
        userId,
        kind: 'bank_funding',
        amountPaise: d.amountPaise,
        // Money into the payout account: a debit of platform:bank, where payouts are its credits.
        from: accounts.bank,
        to: accounts.companyFunding,
        effectiveAt: at,
        effectiveDate: d.valueDate,
        corrects: null,
        actor,
        params: JSON.stringify({ reference: d.reference, date: d.valueDate }),
        description: null,
        entryId: d.fundingId,
        submissionId: null,
        taskId: null,
        withdrawalId: null,
        utr: null,
      };
    }
    case 'BankFundingReversed': {
      const d = event.data;
      return {
        userId,
        kind: 'bank_funding_reversed',
        amountPaise: d.amountPaise,
        // The booking taken back: platform:company_funding -> platform:bank.
        from: accounts.companyFunding,
        to: accounts.bank,
        effectiveAt: d.reversedAt,
        // The reversal takes the booking back on the day the money left: its own day, not the funding's.
        effectiveDate: effectiveDayOf(d.reversedAt),
        corrects: d.fundingId,
        actor: d.approvedBy,
        params: JSON.stringify({ reference: d.reference, date: d.valueDate }),
        description: null,
        entryId: d.fundingId,
        submissionId: null,
        taskId: null,
        withdrawalId: null,
        utr: null,
      };
    }
    case 'TaxDepositRecorded': {
      const d = event.data;
      return {
        userId,
        kind: 'tax_deposit',
        amountPaise: d.amountPaise,
        // The withheld tax paid to the government from the payout account (docs/tax.md).
        from: accounts.taxPayable,
        to: accounts.bank,
        effectiveAt: d.recordedAt,
        // The day on the challan: the bank's date of the deposit.
        effectiveDate: d.depositDate,
        corrects: null,
        actor: d.recordedBy,
        params: JSON.stringify({ quarter: d.quarter, bsrCode: d.bsrCode, serial: d.serial, date: d.depositDate }),
        description: null,
        entryId: d.depositId,
        submissionId: null,
        taskId: null,
        withdrawalId: null,
        utr: null,
      };
    }
    case 'BankFeeBooked': {
      const d = event.data;
      // The bank took it from the payout account: it arrives in platform:bank as a payout does.
      // Moved into the open month (the line's month closed): it corrects the statement's run.
      const corrects = d.effectiveDate === d.date ? null : d.runId;
      return statementEntry('bank_charge', accounts.bankCharges, accounts.bank, d.amountPaise, d.bookedAt, d.effectiveDate, corrects, d.by, { runId: d.runId, line: d.line, target: d.target, date: d.date }, null);
    }
    case 'StatementDifferenceBooked': {
      const d = event.data;
      const [from, to] = d.direction === 'out' ? [accounts.reconciliationDifferences, accounts.bank] : [accounts.bank, accounts.reconciliationDifferences];
      const params = { exceptionId: d.exceptionId, kind: d.kind, date: d.effectiveDate };
      return statementEntry('reconciliation_difference', from, to, d.amountPaise, d.bookedAt, d.effectiveDate, d.corrects, d.approvedBy, params, d.exceptionId);
    }
    default:
      return null;
  }
}

/** A platform transaction booked from a bank statement (a fee, a written-off difference): no person's account, no payout's links. */
function statementEntry(
  kind: 'bank_charge' | 'reconciliation_difference', from: string, to: string, amountPaise: number, effectiveAt: string, effectiveDate: string,
  corrects: string | null, actor: string, params: Record<string, unknown>, entryId: string | null,
): JournalTransaction {
  return {
    userId: PLATFORM_ENTRY, kind, from, to, amountPaise, effectiveAt, effectiveDate, corrects, actor, params: JSON.stringify(params),
    description: null, entryId, submissionId: null, taskId: null, withdrawalId: null, utr: null,
  };
}
