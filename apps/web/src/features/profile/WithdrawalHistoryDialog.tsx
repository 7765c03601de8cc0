import { useQuery } from '@tanstack/react-query';
import type { WithdrawalBody, WithdrawalStatus } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { formatDate, formatDateTime, formatRupees } from '../../lib/format.ts';
import { withdrawalsQuery } from '../../lib/queries.ts';

export const WITHDRAWAL_STATUS_LABELS: Record<WithdrawalStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  rejected: 'Rejected',
};

const STATUS_CLASSES: Record<WithdrawalStatus, string> = {
  pending: 'bg-amber-100 text-amber-800',
  paid: 'bg-emerald-100 text-emerald-800',
  rejected: 'bg-red-100 text-red-700',
};

export function WithdrawalStatusBadge({ status }: { status: WithdrawalStatus }) {
  return (
    <span className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASSES[status]}`}>
      {WITHDRAWAL_STATUS_LABELS[status]}
    </span>
  );
}

/** The user's withdrawal requests, newest first: amount, masked destination, status and dates. */
export function WithdrawalHistoryDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Withdrawal History" description="Requests are processed within 24-48 hours.">
      <WithdrawalList />
    </Dialog>
  );
}

function WithdrawalList() {
  const withdrawals = useQuery(withdrawalsQuery());

  if (withdrawals.isPending) {
    return (
      <div role="status" aria-label="Loading withdrawals" className="grid gap-3">
        {[0, 1].map((row) => (
          <div key={row} className="h-24 animate-pulse rounded-xl bg-slate-100" />
        ))}
      </div>
    );
  }
  if (withdrawals.isError) {
    return (
      <div role="alert" className="grid gap-3 text-sm text-slate-600">
        <p>We couldn't load your withdrawals.</p>
        <Button variant="secondary" onClick={() => void withdrawals.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (withdrawals.data.length === 0) {
    return (
      <div className="grid gap-1 py-8 text-center">
        <p className="font-semibold text-slate-800">No withdrawals yet</p>
        <p className="text-sm text-slate-500">Once you withdraw from your wallet, your requests show here.</p>
      </div>
    );
  }
  return (
    <ul aria-label="Withdrawal requests" className="grid gap-3">
      {withdrawals.data.map((withdrawal) => (
        <WithdrawalItem key={withdrawal.id} withdrawal={withdrawal} />
      ))}
    </ul>
  );
}

function WithdrawalItem({ withdrawal }: { withdrawal: WithdrawalBody }) {
  return (
    <li className="grid gap-2 rounded-xl border border-slate-200 p-4">
      <div className="flex items-center justify-between gap-3">
        <p className="text-lg font-bold tabular-nums text-slate-900">{formatRupees(withdrawal.amount)}</p>
        <WithdrawalStatusBadge status={withdrawal.status} />
      </div>
      <p className="text-sm break-words text-slate-700">{withdrawal.destination}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-slate-500">
        <dt>Requested on</dt>
        <dd className="text-slate-700">
          <time dateTime={withdrawal.requestedAt}>{formatDateTime(withdrawal.requestedAt)}</time>
        </dd>
        {withdrawal.processedAt && (
          <>
            <dt>{withdrawal.status === 'paid' ? 'Paid on' : withdrawal.status === 'rejected' ? 'Rejected on' : 'Processed'}</dt>
            <dd className="text-slate-700">
              <time dateTime={withdrawal.processedAt}>{formatDate(withdrawal.processedAt)}</time>
            </dd>
          </>
        )}
        {withdrawal.reference && (
          <>
            <dt>Reference</dt>
            <dd className="break-all text-slate-700">{withdrawal.reference}</dd>
          </>
        )}
      </dl>
      {withdrawal.status === 'rejected' && withdrawal.reason && (
        <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          <span className="font-semibold">Reason:</span> {withdrawal.reason}
          <span className="mt-1 block text-xs text-red-600">The amount has been returned to your wallet.</span>
        </p>
      )}
    </li>
  );
}
