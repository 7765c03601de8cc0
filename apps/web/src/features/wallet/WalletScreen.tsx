import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { TransactionBody } from '@kamai/contracts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { useTranslation } from 'react-i18next';
import { ledgerInLanguage } from '../../i18n/messages.ts';
import { serverErrorMessage } from '../../lib/api.ts';
import { formatRelativeTime, formatRupees, formatRupeesShort } from '../../lib/format.ts';
import { currentUserQuery, transactionsQuery } from '../../lib/queries.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { WithdrawDialog } from './WithdrawDialog.tsx';
import { MIN_WITHDRAWAL_RUPEES, canWithdraw } from './withdrawal.ts';

/** Spec section 2 (Wallet): the balance, 'Withdraw Money', and the recent activity. */
export function WalletScreen() {
  const { t } = useTranslation('wallet');
  usePageTitle(t('pageTitle'));
  const { data: user } = useQuery(currentUserQuery());
  const [withdrawing, setWithdrawing] = useState(false);
  const balance = user?.totalRupees;

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-bold tracking-tight">{t('pageTitle')}</h1>

      <section
        aria-labelledby="balance-label"
        className="rounded-2xl bg-gradient-to-br from-emerald-600 to-teal-600 p-5 text-white shadow-md"
      >
        <p id="balance-label" className="text-sm text-emerald-50">
          {t('currentBalance')}
        </p>
        <p className="mt-1 text-4xl font-bold tracking-tight" data-testid="wallet-balance">
          {balance === undefined ? '—' : formatRupees(balance)}
        </p>
        <button
          type="button"
          onClick={() => setWithdrawing(true)}
          disabled={!canWithdraw(balance)}
          className="mt-5 inline-flex h-12 w-full items-center justify-center rounded-xl bg-white px-4 text-base font-semibold text-emerald-700 shadow-sm transition hover:bg-emerald-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-white/50 disabled:cursor-not-allowed disabled:bg-white/60 disabled:text-emerald-800/70"
        >
          {t('withdrawMoney')}
        </button>
        <p className="mt-2 text-center text-xs text-emerald-50">{t('minimum', { amount: formatRupeesShort(MIN_WITHDRAWAL_RUPEES) })}</p>
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

  if (transactions.isPending) return <ActivitySkeleton />;
  if (transactions.isError) {
    return <LoadFailed message={serverErrorMessage(transactions.error, t('activityFailed'))} onRetry={() => void transactions.refetch()} />;
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
    <ul aria-label={t('recentActivity')} className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
      {transactions.data.map((transaction) => (
        <ActivityRow key={transaction.id} transaction={transaction} now={now} />
      ))}
    </ul>
  );
}

function ActivityRow({ transaction, now }: { transaction: TransactionBody; now: Date }) {
  const credit = transaction.direction === 'credit';
  return (
    <li className="flex items-center gap-3 px-4 py-3.5">
      <span
        aria-hidden="true"
        className={`grid size-10 shrink-0 place-items-center rounded-full text-lg font-bold ${
          credit ? 'bg-emerald-50 text-emerald-600' : 'bg-red-50 text-red-600'
        }`}
      >
        {credit ? '↓' : '↑'}
      </span>
      <div className="min-w-0 flex-1">
        <p className="line-clamp-2 text-sm font-medium text-slate-900">{ledgerInLanguage(transaction)}</p>
        <p className="mt-0.5 text-xs text-slate-500">
          <time dateTime={transaction.createdAt}>{formatRelativeTime(transaction.createdAt, now)}</time>
        </p>
      </div>
      <p className={`shrink-0 text-sm font-semibold tabular-nums ${credit ? 'text-emerald-600' : 'text-red-600'}`} data-testid="amount">
        {credit ? '+' : '-'}
        {formatRupees(transaction.amount)}
      </p>
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
