import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as v from 'valibot';
import { type StatementExceptionBody, type StatementMatchingBody, StatementExceptionNote } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { TextAreaField } from '../../components/fields.tsx';
import { apiRequest, getJson, readJson, serverErrorMessage } from '../../lib/api.ts';
import { formatDate, formatRupees } from '../../lib/format.ts';
import { currentUserQuery } from '../../lib/queries.ts';
import { idempotencyHeader } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { MoneyConfirmDialog } from './MoneyConfirmDialog.tsx';
import { useConfirmedSend } from './useConfirmedSend.ts';

export const STATEMENT_EXCEPTIONS_KEY = ['/api/admin/ledger/statement-exceptions'] as const;
const exceptionsQuery = { queryKey: STATEMENT_EXCEPTIONS_KEY, queryFn: getJson<StatementExceptionBody[]>() };

type Action = 'match' | 'write-off' | 'approve';
type Step = { exception: StatementExceptionBody; action: Action };

/** What one statement's matching found: lines matched by kind, and its closing balance beside the ledger's. */
export function MatchingSummary({ matching }: { matching: StatementMatchingBody }) {
  const { t } = useTranslation('finance');
  const m = matching.matched;
  return (
    <div className="grid gap-1 text-sm" data-testid="statement-matching">
      <p>{t('exceptions.matched', { payouts: m.payouts, batches: m.batches, fees: m.fees, fundings: m.fundings, returned: m.returnedPayouts, tolerance: formatRupees(matching.tolerance) })}</p>
      <p>
        {matching.closingBalance === null
          ? t('exceptions.noClosing', { ledger: formatRupees(matching.ledgerBalance) })
          : t('exceptions.closing', { closing: formatRupees(matching.closingBalance), ledger: formatRupees(matching.ledgerBalance) })}
      </p>
      <p className="font-medium">{t('exceptions.opened', { count: matching.exceptions.length })}</p>
    </div>
  );
}

/**
 * The exceptions queue (docs/payouts.md#statement-matching): what no statement line matched, oldest
 * first with its age. Each is matched by hand with a note, or written off: one member asks with a
 * note, another approves. The dialog's Idempotency-Key is made when it opens, so it sends once.
 */
export function StatementExceptions() {
  const { t } = useTranslation('finance');
  const { data: user } = useQuery(currentUserQuery());
  const list = useQuery(exceptionsQuery);
  const queryClient = useQueryClient();
  const confirmed = useConfirmedSend<Step>(t('actionFailed'));
  const step = confirmed.item;
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const send = useMutation({
    mutationFn: async ({ exception, action, key }: Step & { key: string }) =>
      readJson<StatementExceptionBody>(
        await apiRequest(
          'POST',
          `/api/admin/ledger/statement-exceptions/${encodeURIComponent(exception.id)}/${action === 'approve' ? 'write-off/approve' : action}`,
          action === 'approve' ? undefined : { note },
          idempotencyHeader(key),
        ),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STATEMENT_EXCEPTIONS_KEY }),
  });
  const open = (exception: StatementExceptionBody, action: Action) => {
    setNote('');
    setNoteError(undefined);
    confirmed.open({ exception, action });
  };
  const onConfirm = async () => {
    if (step && step.action !== 'approve') {
      const checked = v.safeParse(StatementExceptionNote, { note });
      if (!checked.success) {
        setNoteError(checked.issues[0].message);
        return;
      }
    }
    const sent = await confirmed.confirm((chosen, key) => send.mutateAsync({ ...chosen, key }));
    if (sent) toast({ title: t(`exceptions.done.${sent.item.action}`) });
  };

  return (
    <section aria-labelledby="exceptions-heading" className="grid gap-3">
      <div className="grid gap-1">
        <h3 id="exceptions-heading" className="text-base font-semibold">
          {t('exceptions.heading')}
        </h3>
        <p className="text-sm text-slate-600">{t('exceptions.intro')}</p>
      </div>
      {list.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : list.isError ? (
        <LoadFailed message={serverErrorMessage(list.error, t('common.loadFailed'))} error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">{t('exceptions.none')}</p>
      ) : (
        <ul aria-label={t('exceptions.heading')} className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          {list.data.map((e) => (
            <li key={e.id} data-testid="statement-exception" className="flex flex-wrap items-center justify-between gap-3 p-4 text-sm">
              <div className="grid min-w-0 gap-1">
                <p className="font-semibold text-slate-900">
                  {t(`exceptions.kind.${e.kind}`)} · {formatRupees(e.amount)}
                </p>
                <p className="break-words text-slate-700">
                  {t('exceptions.detail', { date: formatDate(e.date), age: t('exceptions.age', { count: e.ageDays }), reference: e.reference ?? t('common.none') })}
                  {e.line !== null && ` · ${t('exceptions.line', { line: e.line })}`}
                </p>
                {e.status === 'write_off_pending' && <p className="text-xs text-amber-900">{t('exceptions.pending', { note: e.note ?? '' })}</p>}
              </div>
              <div className="flex flex-wrap gap-2">
                <Button variant="secondary" onClick={() => open(e, 'match')} className="h-11 text-sm sm:w-auto">
                  {t('exceptions.match')}
                </Button>
                {e.status === 'open' && (
                  <Button variant="secondary" onClick={() => open(e, 'write-off')} className="h-11 text-sm sm:w-auto">
                    {t('exceptions.writeOff')}
                  </Button>
                )}
                {e.status === 'write_off_pending' &&
                  (e.requestedBy === user?.id ? (
                    <span className="self-center text-xs text-slate-600">{t('exceptions.yours')}</span>
                  ) : (
                    <Button onClick={() => open(e, 'approve')} className="h-11 text-sm sm:w-auto">
                      {t('exceptions.approve')}
                    </Button>
                  ))}
              </div>
            </li>
          ))}
        </ul>
      )}
      <MoneyConfirmDialog
        {...confirmed.dialog}
        title={step ? t(`exceptions.title.${step.action}`) : ''}
        description={step ? t('exceptions.dialogText', { kind: t(`exceptions.kind.${step.exception.kind}`), amount: formatRupees(step.exception.amount), date: formatDate(step.exception.date) }) : ''}
        confirmLabel={step ? t(`exceptions.confirm.${step.action}`) : ''}
        pendingLabel={t('exceptions.sending')}
        onConfirm={() => void onConfirm()}
      >
        {step && step.action !== 'approve' && (
          <TextAreaField
            label={t('exceptions.note')}
            hint={t('exceptions.noteHint')}
            value={note}
            onValueChange={(value) => {
              setNote(value);
              setNoteError(undefined);
            }}
            error={noteError}
            maxLength={300}
          />
        )}
      </MoneyConfirmDialog>
    </section>
  );
}
