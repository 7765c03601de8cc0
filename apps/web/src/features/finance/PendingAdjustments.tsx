import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PendingAdjustmentBody, UserBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { apiRequest, getJson, serverErrorMessage } from '../../lib/api.ts';
import { formatRupees } from '../../lib/format.ts';
import { idempotencyHeader, useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { AdjustmentConfirmDialog } from './AdjustmentConfirmDialog.tsx';
import { ledgerPersonQuery } from './ledgerPerson.ts';

export const pendingAdjustmentsQuery = () =>
  queryOptions({ queryKey: ['/api/admin/adjustments?status=pending'], queryFn: getJson<PendingAdjustmentBody[]>() });

/**
 * Adjustments above the approval limit, waiting for a second finance member. The requester sees
 * theirs but cannot approve it (the server refuses too); anyone in finance may reject one. Approving
 * moves the money, so it asks first, naming the amount and the person.
 */
export function PendingAdjustments({ user }: { user: UserBody }) {
  const { t } = useTranslation('security');
  const { t: tFinance } = useTranslation('finance');
  const queryClient = useQueryClient();
  const { data } = useQuery(pendingAdjustmentsQuery());
  const [approving, setApproving] = useState<PendingAdjustmentBody | null>(null);
  // Their name and balance, read while the confirmation is open; the number stands in until then.
  const person = useQuery({ ...ledgerPersonQuery(approving?.mobile ?? ''), enabled: approving !== null });
  const decide = useMutation({
    mutationFn: async ({ id, decision, key }: { id: string; decision: 'approve' | 'reject'; key: string }) =>
      apiRequest('POST', `/api/admin/adjustments/${encodeURIComponent(id)}/${decision}`, undefined, idempotencyHeader(key)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: pendingAdjustmentsQuery().queryKey }),
  });
  // Approving: one key per opening of the confirmation. Rejecting has no dialog: one per press.
  const approval = useSendOnce(approving !== null);
  const rejection = useSendOnce();
  const onDecide = async (id: string, decision: 'approve' | 'reject') => {
    try {
      const sent = await (decision === 'approve' ? approval : rejection).send((key) => decide.mutateAsync({ id, decision, key }));
      if (!sent) return;
      toast({ title: t(decision === 'approve' ? 'pending.approved' : 'pending.rejected') });
    } catch (error) {
      toast({ variant: 'destructive', title: t('failedTitle'), description: serverErrorMessage(error, t('failedDescription')) });
    }
    if (decision === 'approve') setApproving(null);
  };
  if (!data || data.length === 0) return null;
  return (
    <section aria-labelledby="pending-adjustments-heading" className="grid gap-3">
      <h2 id="pending-adjustments-heading" className="text-lg font-semibold">
        {t('pending.title')}
      </h2>
      <ul className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        {data.map((adjustment) => (
          <li key={adjustment.id} className="grid gap-2 p-4">
            <p className="font-medium text-slate-900">
              {t(adjustment.direction === 'credit' ? 'pending.credit' : 'pending.debit', { amount: formatRupees(adjustment.amount), mobile: adjustment.mobile })}
            </p>
            <p className="text-sm text-slate-600">{adjustment.reason}</p>
            {adjustment.requestedBy === user.id ? (
              <p className="text-xs text-slate-600">{t('pending.yours')}</p>
            ) : null}
            <div className="flex gap-2">
              {adjustment.requestedBy !== user.id && (
                <Button onClick={() => setApproving(adjustment)} disabled={decide.isPending}>
                  {t('pending.approve')}
                </Button>
              )}
              <Button variant="secondary" onClick={() => void onDecide(adjustment.id, 'reject')} disabled={decide.isPending}>
                {t('pending.reject')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <AdjustmentConfirmDialog
        adjustment={approving}
        person={person.data ?? null}
        title={tFinance('confirm.approveTitle')}
        confirmLabel={approving ? tFinance('confirm.approveButton', { amount: formatRupees(approving.amount) }) : ''}
        pendingLabel={tFinance('confirm.approving')}
        pending={approval.busy}
        onConfirm={() => approving && void onDecide(approving.id, 'approve')}
        onClose={() => setApproving(null)}
      />
    </section>
  );
}
