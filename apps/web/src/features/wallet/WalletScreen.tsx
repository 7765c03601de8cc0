import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { TransactionBody, WithdrawalBody, WithdrawalStatus } from '@kamai/contracts';
import { Dialog } from '../../components/Dialog.tsx';
import { RETURNED_STATUSES, WithdrawalItem, WithdrawalStatusBadge } from '../profile/WithdrawalHistoryDialog.tsx';
import { withdrawalFor } from './moneyStatus.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { useTranslation } from 'react-i18next';
import { ledgerInLanguage } from '../../i18n/messages.ts';
import { serverErrorMessage } from '../../lib/api.ts';
import { formatRelativeTime, formatRupees, formatDateTime } from '../../lib/format.ts';
import { currentUserQuery, transactionsQuery, withdrawalsQuery } from '../../lib/queries.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { WithdrawDialog } from './WithdrawDialog.tsx';
import { MIN_WITHDRAWAL_RUPEES, canWithdraw } from './withdrawal.ts';

/** The line under a withdrawal whose money came back: why (wallet namespace). */
const REASON_KEYS: Partial<Record<WithdrawalStatus, string>> = {
  rejected: 'detail.rejectedReason',
  failed: 'detail.failedReason',
  reversed: 'detail.reversedReason',
};

/** Wallet: the balance, 'Withdraw Money', and the recent activity. */
export function WalletScreen() {
  const { t } = useTranslation('wallet');
  usePageTitle(t('pageTitle'));
  const { data: user } = useQuery(currentUserQuery());
  const [withdrawing, setWithdrawing] = useState(false);
  const balance = user?.totalRupees;
  const pendingPayout = user?.pendingPayout;

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-bold tracking-tight">{t('pageTitle')}</h1>

      <section
        aria-labelledby="balance-label"
        className="rounded-2xl bg-gradient-to-br from-emerald-700 to-teal-700 p-5 text-white shadow-md"
      >
        <p id="balance-label" className="text-sm text-emerald-50">
          {t('currentBalance')}
        </p>
        <p className="mt-1 text-4xl font-bold tracking-tight" data-testid="wallet-balance">
          {balance === undefined ? '—' : formatRupees(balance)}
        </p>
        {pendingPayout !== undefined && Number(pendingPayout) !== 0 && (
          <p className="mt-1 text-sm text-emerald-50" data-testid="wallet-pending-payout" title={t('pendingPayoutHint')}>
            {t('pendingPayout', { amount: formatRupees(pendingPayout) })}
          </p>
        )}
        <button
          type="button"
          onClick={() => setWithdrawing(true)}
          disabled={!canWithdraw(balance)}
          className="mt-5 inline-flex h-12 w-full items-center justify-center rounded-xl bg-white px-4 text-base font-semibold text-emerald-700 shadow-sm transition hover:bg-emerald-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-white focus-visible:ring-offset-2 focus-visible:ring-offset-emerald-700 disabled:cursor-not-allowed disabled:bg-white/60 disabled:text-emerald-800/70"
        >
          {t('withdrawMoney')}
        </button>
        <p className="mt-2 text-center text-xs text-emerald-50">{t('minimum', { amount: formatRupees(MIN_WITHDRAWAL_RUPEES) })}</p>
      </section>

      <section aria-labelledby="activity-heading" className="grid gap-3">
        <h2 id="activity-heading" className="text-lg font-semibold">
          {t('recentActivity')}
        </h2>
        <ActivityList />
      </section>

      {balance !== undefined && <WithdrawDialog open={withdrawing} onOpenChange={setWithdrawing} balance={balance} />}
    </div>
  );
}

function ActivityList() {
  const { t } = useTranslation('wallet');
  const transactions = useQuery(transactionsQuery());
  // The requests behind withdrawal rows, for their status chip and detail sheet.
  const withdrawals = useQuery(withdrawalsQuery());
  const [detail, setDetail] = useState<WithdrawalBody | null>(null);

  if (transactions.isPending) return <ActivitySkeleton />;
  if (transactions.isError) {
    return <LoadFailed message={serverErrorMessage(transactions.error, t('activityFailed'))} error={transactions.error} onRetry={() => void transactions.refetch()} />;
  }
  if (transactions.data.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
        {t('noTransactions')}
      </p>
    );
  }
  const now = new Date();
  return (
    <>
      <ul aria-label={t('recentActivity')} className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
        {transactions.data.map((transaction) => {
          const withdrawal = withdrawalFor(transaction, withdrawals.data);
          return (
            <ActivityRow
              key={transaction.id}
              transaction={transaction}
              withdrawal={withdrawal}
              onOpen={withdrawal ? () => setDetail(withdrawal) : undefined}
              now={now}
            />
          );
        })}
      </ul>
      <Dialog open={detail !== null} onOpenChange={(open) => !open && setDetail(null)} title={t('detail.title')}>
        {detail && <WithdrawalItem withdrawal={detail} as="div" />}
      </Dialog>
    </>
  );
}

function ActivityRow({
  transaction,
  withdrawal,
  onOpen,
  now,
}: {
  transaction: TransactionBody;
  withdrawal: WithdrawalBody | null;
  onOpen: (() => void) | undefined;
  now: Date;
}) {
  const { t } = useTranslation('wallet');
  const credit = transaction.direction === 'credit';
  const content = (
    <>
      <span
        aria-hidden="true"
        className={`grid size-10 shrink-0 place-items-center rounded-full text-lg font-bold ${
          credit ? 'bg-emerald-50 text-emerald-700' : 'bg-red-50 text-red-700'
        }`}
      >
        {credit ? '↓' : '↑'}
      </span>
      <span className="min-w-0 flex-1">
        <span className="line-clamp-2 block text-sm font-medium text-slate-900">{ledgerInLanguage(transaction)}</span>
        <span className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
          <time dateTime={transaction.createdAt}>{formatRelativeTime(transaction.createdAt, now)}</time>
          {withdrawal && <WithdrawalStatusBadge status={withdrawal.status} />}
        </span>
        {(withdrawal?.status === 'paid' || withdrawal?.status === 'reversed') && withdrawal.reference && (
          <span className="mt-0.5 block text-xs break-all text-slate-600">{t('detail.utr', { reference: withdrawal.reference })}</span>
        )}
        {withdrawal?.status === 'paid' && withdrawal.processedAt && (
          <span className="mt-0.5 block text-xs text-slate-600" data-testid="bank-sent-at">
            {t('detail.bankSentAt', { time: formatDateTime(withdrawal.processedAt, 'IST') })}
          </span>
        )}
        {withdrawal && RETURNED_STATUSES.has(withdrawal.status) && withdrawal.reason && (
          <span className="mt-0.5 block text-xs text-red-700">{t(REASON_KEYS[withdrawal.status] ?? 'detail.rejectedReason', { reason: withdrawal.reason })}</span>
        )}
      </span>
      <span className={`shrink-0 text-sm font-semibold tabular-nums ${credit ? 'text-emerald-700' : 'text-red-700'}`} data-testid="amount">
        {credit ? '+' : '-'}
        {formatRupees(transaction.amount)}
      </span>
    </>
  );
  return (
    <li data-testid="activity-row">
      {onOpen ? (
        <button
          type="button"
          onClick={onOpen}
          aria-haspopup="dialog"
          className="flex w-full items-center gap-3 px-4 py-3.5 text-left hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-emerald-600"
        >
          {content}
        </button>
      ) : (
        <div className="flex items-center gap-3 px-4 py-3.5">{content}</div>
      )}
    </li>
  );
}

function ActivitySkeleton() {
  const { t } = useTranslation('wallet');
  return (
    <div
      role="status"
      aria-label={t('loadingActivity')}
      className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      {[0, 1, 2, 3].map((row) => (
        <div key={row} className="flex animate-pulse items-center gap-3 px-4 py-3.5">
          <span className="size-10 shrink-0 rounded-full bg-slate-200" />
          <span className="grid flex-1 gap-2">
            <span className="h-3.5 w-3/4 rounded bg-slate-200" />
            <span className="h-3 w-1/4 rounded bg-slate-100" />
          </span>
          <span className="h-4 w-16 rounded bg-slate-200" />
        </div>
      ))}
    </div>
  );
}
