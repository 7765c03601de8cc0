import { compact, flag, isoDay, oneOf } from '../../lib/searchParams.ts';

/** A tax quarter as the Tax tab names it (`2026-27-Q3`); which ones it offers is the tab's to say. */
const taxQuarter = (value: unknown): string | undefined => (typeof value === 'string' && /^\d{4}-\d{2}-Q[1-4]$/.test(value) ? value : undefined);

export const FINANCE_TABS = ['queue', 'batches', 'history', 'ledger', 'reconciliation', 'months', 'tax'] as const;
export type FinanceTab = (typeof FINANCE_TABS)[number];

export const HISTORY_STATUSES = ['settled', 'paid', 'failed', 'reversed', 'rejected'] as const;
export type HistoryStatus = (typeof HISTORY_STATUSES)[number];

/**
 * /admin/finance's address: the tab (Queue when absent), History's status and days, and the
 * "late only" switch of the withdrawals with the bank. Defaults are left out.
 */
export interface FinanceSearch {
  tab?: FinanceTab;
  status?: HistoryStatus;
  from?: string;
  to?: string;
  late?: true;
  /** The Tax tab's quarter (this quarter when absent). */
  quarter?: string;
}

export const financeSearch = (search: Record<string, unknown>): FinanceSearch =>
  compact<FinanceSearch>({
    tab: oneOf(search.tab, FINANCE_TABS),
    status: oneOf(search.status, HISTORY_STATUSES),
    from: isoDay(search.from),
    to: isoDay(search.to),
    late: flag(search.late),
    quarter: taxQuarter(search.quarter),
  });
