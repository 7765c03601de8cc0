import { useQuery } from '@tanstack/react-query';
import type { WithdrawalBody, WithdrawalStatus } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { useTranslation } from 'react-i18next';
import { serverErrorMessage } from '../../lib/api.ts';
import { formatDate, formatDateTime, formatRupees } from '../../lib/format.ts';
import { withdrawalsQuery } from '../../lib/queries.ts';
import { destinationInLanguage } from '../../i18n/messages.ts';

/** Locale keys (wallet namespace) of the status chips: Pending, Sent to bank, Paid, Failed, Rejected, Returned. */
const WITHDRAWAL_STATUS_LABELS = {
  pending: 'status.pending',
  processing: 'status.processing',
  paid: 'status.paid',
  failed: 'status.failed',
  rejected: 'status.rejected',
  reversed: 'status.reversed',
} as const satisfies Record<WithdrawalStatus, string>;

const STATUS_CLASSES: Record<WithdrawalStatus, string> = {
  pending: 'bg-amber-100 text-amber-800',
  processing: 'bg-sky-100 text-sky-800',
  paid: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-700',
  rejected: 'bg-red-100 text-red-700',
  reversed: 'bg-red-100 text-red-700',
};

/** The date label of a settled withdrawal (wallet namespace). */
const SETTLED_ON: Partial<Record<WithdrawalStatus, string>> = {
  paid: 'history.paidOn',
  rejected: 'history.rejectedOn',
  failed: 'history.failedOn',
  reversed: 'history.reversedOn',
};

/** Statuses whose money came back to the wallet, with the reason shown. */
export const RETURNED_STATUSES: ReadonlySet<WithdrawalStatus> = new Set(['rejected', 'failed', 'reversed']);

export function WithdrawalStatusBadge({ status }: { status: WithdrawalStatus }) {
  const { t } = useTranslation('wallet');
  return (
    <span data-testid="withdrawal-status" className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASSES[status]}`}>
      {t(WITHDRAWAL_STATUS_LABELS[status])}
    </span>
  );
}

/** The user's withdrawal requests, newest first: amount, masked destination, status and dates. */
export function WithdrawalHistoryDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('wallet');
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('history.title')} description={t('history.description')}>
      <WithdrawalList />
    </Dialog>
  );
}

function WithdrawalList() {
  const withdrawals = useQuery(withdrawalsQuery());
  const { t } = useTranslation('wallet');

  if (withdrawals.isPending) {
    return (
      <div role="status" aria-label={t('history.loading')} className="grid gap-3">
        {[0, 1].map((row) => (
          <div key={row} className="h-24 animate-pulse rounded-xl bg-slate-100" />
        ))}
      </div>
    );
  }
  if (withdrawals.isError) {
    return (
      <div role="alert" className="grid gap-3 text-sm text-slate-600">
        <p>{serverErrorMessage(withdrawals.error, t('history.failed'))}</p>
        <Button variant="secondary" onClick={() => void withdrawals.refetch()}>
          {t('common:tryAgain')}
        </Button>
      </div>
    );
  }
  if (withdrawals.data.length === 0) {
    return (
      <div className="grid gap-1 py-8 text-center">
        <p className="font-semibold text-slate-800">{t('history.empty')}</p>
        <p className="text-sm text-slate-500">{t('history.emptyBody')}</p>
      </div>
    );
  }
  return (
    <ul aria-label={t('history.list')} className="grid gap-3">
      {withdrawals.data.map((withdrawal) => (
        <WithdrawalItem key={withdrawal.id} withdrawal={withdrawal} />
      ))}
    </ul>
  );
}

export function WithdrawalItem({ withdrawal, as: Tag = 'li' }: { withdrawal: WithdrawalBody; as?: 'li' | 'div' }) {
  const { t } = useTranslation('wallet');
  return (
    <Tag className="grid gap-2 rounded-xl border border-slate-200 p-4">
      <div className="flex items-center justify-between gap-3">
        <p className="text-lg font-bold tabular-nums text-slate-900">{formatRupees(withdrawal.amount)}</p>
        <WithdrawalStatusBadge status={withdrawal.status} />
      </div>
      <p className="text-sm break-words text-slate-700">{destinationInLanguage(withdrawal.destination)}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-slate-500">
        <dt>{t('history.requestedOn')}</dt>
        <dd className="text-slate-700">
          <time dateTime={withdrawal.requestedAt}>{formatDateTime(withdrawal.requestedAt)}</time>
        </dd>
        {withdrawal.processedAt && (
          <>
            <dt>{t(SETTLED_ON[withdrawal.status] ?? 'history.processed')}</dt>
            <dd className="text-slate-700">
              <time dateTime={withdrawal.processedAt}>{formatDate(withdrawal.processedAt)}</time>
            </dd>
          </>
        )}
        {withdrawal.tax && (
          <>
            <dt>{t('history.taxDeducted', { code: withdrawal.tax.code })}</dt>
            <dd className="tabular-nums text-slate-700" data-testid="withdrawal-tax">{formatRupees(withdrawal.tax.amount)}</dd>
            <dt>{t('history.net')}</dt>
            <dd className="tabular-nums text-slate-700" data-testid="withdrawal-net">{formatRupees(withdrawal.net)}</dd>
          </>
        )}
        {withdrawal.reference && (
          <>
            <dt>{t('history.reference')}</dt>
            <dd className="break-all text-slate-700">{withdrawal.reference}</dd>
          </>
        )}
      </dl>
      {RETURNED_STATUSES.has(withdrawal.status) && withdrawal.reason && (
        <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          <span className="font-semibold">{t('history.reason')}</span> {withdrawal.reason}
          <span className="mt-1 block text-xs text-red-700">{t('history.returned')}</span>
        </p>
      )}
    </Tag>
  );
}
