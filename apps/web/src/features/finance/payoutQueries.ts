import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { csvRecords, parseRupees } from '@kamai/contracts';
import type { BankStatementImportBody, BankStatementRunBody, FinanceWithdrawalBody, PayoutBatchBody, ResultsImportBody } from '@kamai/contracts';
import { CsvBody, apiRequest, getAllPages, getJson, readJson } from '../../lib/api.ts';
import { FINANCE_WITHDRAWALS_KEY } from '../../lib/queries.ts';
import { idempotencyHeader } from '../../lib/sendOnce.ts';

/** Finance's payout batches, bank files, results and bank statements (docs/payouts.md). */

export const PAYOUT_BATCHES_KEY = ['/api/admin/payout-batches'] as const;
export const BANK_STATEMENTS_KEY = ['/api/admin/ledger/bank-statements'] as const;

export const payoutBatchesQuery = () => queryOptions({ queryKey: PAYOUT_BATCHES_KEY, queryFn: getJson<PayoutBatchBody[]>() });
export const bankStatementRunsQuery = () => queryOptions({ queryKey: BANK_STATEMENTS_KEY, queryFn: getJson<BankStatementRunBody[]>() });

/** Withdrawals sent to the bank and not back yet; `late`: for longer than the `latePayoutDays` setting. */
export const processingWithdrawalsQuery = (late: boolean) =>
  queryOptions({
    queryKey: [...FINANCE_WITHDRAWALS_KEY, { status: 'processing', late }],
    queryFn: (context) => getAllPages<FinanceWithdrawalBody>(`/api/admin/withdrawals?status=processing${late ? '&late=true' : ''}`, context.signal),
  });

/** A batch changes the queue (pending → processing), the batches and, with results, the history. */
function useRefreshPayouts() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: PAYOUT_BATCHES_KEY }),
      queryClient.invalidateQueries({ queryKey: FINANCE_WITHDRAWALS_KEY }),
    ]);
}

export function useCreateBatchMutation() {
  const refresh = useRefreshPayouts();
  return useMutation({
    mutationFn: async ({ withdrawalIds, key }: { withdrawalIds: string[]; key: string }) =>
      readJson<PayoutBatchBody>(await apiRequest('POST', '/api/admin/payout-batches', { withdrawalIds }, idempotencyHeader(key))),
    onSettled: refresh,
  });
}

export function useApproveBatchMutation() {
  const refresh = useRefreshPayouts();
  return useMutation({
    mutationFn: async ({ id, key }: { id: string; key: string }) =>
      readJson<PayoutBatchBody>(await apiRequest('POST', `/api/admin/payout-batches/${encodeURIComponent(id)}/approve`, undefined, idempotencyHeader(key))),
    onSettled: refresh,
  });
}

export function useImportResultsMutation() {
  const refresh = useRefreshPayouts();
  return useMutation({
    mutationFn: async ({ id, csv, key }: { id: string; csv: string; key: string }) =>
      readJson<ResultsImportBody>(await apiRequest('POST', `/api/admin/payout-batches/${encodeURIComponent(id)}/results`, new CsvBody(csv), idempotencyHeader(key))),
    onSettled: refresh,
  });
}

export function useBankStatementMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ csv }: { csv: string }) => readJson<BankStatementImportBody>(await apiRequest('POST', '/api/admin/ledger/bank-statements', new CsvBody(csv))),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: BANK_STATEMENTS_KEY }),
        queryClient.invalidateQueries({ queryKey: ['/api/admin/ledger/statement-exceptions'] }),
      ]),
  });
}

/** What a results file holds, read before it is sent, so the confirmation can name it. */
export interface ResultsFileSummary {
  rows: number;
  /** Sum of the rows' amounts, in paise (rows whose amount does not read are left out). */
  totalPaise: number;
  success: number;
  failed: number;
  reversed: number;
}

/** Reads a results CSV as the server will (the same parser); null when its header lacks a column. */
export function summariseResults(text: string): ResultsFileSummary | null {
  const parsed = csvRecords(text, ['reference', 'amount', 'status']);
  if ('missing' in parsed) return null;
  const summary: ResultsFileSummary = { rows: parsed.records.length, totalPaise: 0, success: 0, failed: 0, reversed: 0 };
  for (const record of parsed.records) {
    summary.totalPaise += parseRupees(record.get('amount')) ?? 0;
    const status = record.get('status').toUpperCase();
    if (status === 'SUCCESS') summary.success++;
    else if (status === 'FAILED') summary.failed++;
    else if (status === 'REVERSED') summary.reversed++;
  }
  return summary;
}
