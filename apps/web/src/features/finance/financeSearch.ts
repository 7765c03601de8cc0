import { compact, flag, isoDay, oneOf } from '../../lib/searchParams.ts';

export const FINANCE_TABS = ['queue', 'batches', 'history', 'ledger', 'reconciliation', 'months'] as const;
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
}

export const financeSearch = (search: Record<string, unknown>): FinanceSearch =>
  compact<FinanceSearch>({
    tab: oneOf(search.tab, FINANCE_TABS),
    status: oneOf(search.status, HISTORY_STATUSES),
    from: isoDay(search.from),
    to: isoDay(search.to),
    late: flag(search.late),
  });
