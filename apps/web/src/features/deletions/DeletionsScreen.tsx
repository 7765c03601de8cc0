import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdminDeletionBody, DELETION_STATUSES, type DeletionStatus } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { DialogActions, RefusalBox } from '../../components/DialogParts.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { AlertTriangleIcon } from '../../components/icons.tsx';
import { serverErrorMessage } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { deletionsQuery, useEraseMutation } from './deletionQueries.ts';
import { oneOf } from '../../lib/searchParams.ts';

const route = getRouteApi('/_authed/admin/deletions');

/**
 * /admin/deletions: the accounts people asked to have deleted, for the admin role. A pending request
 * shows when it may be erased and whether money is still owed; the admin erases it after a
 * confirmation. The server decides (cooling-off, balance) and its refusal is shown as it words it.
 */
export function DeletionsScreen() {
  const { t } = useTranslation('deletions');
  return (
    <StaffPage role="admin" what={t('what')}>
      <DeletionList />
    </StaffPage>
  );
}

/** Where a pending request stands: erasure waits for the end of the cooling-off and for nothing owed. */
type PendingState = 'coolingOff' | 'unsettled' | 'due';

function pendingState(request: AdminDeletionBody, now: number): PendingState {
  if (now < Date.parse(request.coolingOffEndsAt)) return 'coolingOff';
  if (request.balance !== '0.00' || request.pendingPayout !== '0.00') return 'unsettled';
  return 'due';
}

const STATE_CLASSES: Record<PendingState, string> = {
  coolingOff: 'bg-amber-100 text-amber-900',
  unsettled: 'bg-red-100 text-red-800',
  due: 'bg-emerald-100 text-emerald-900',
};

function DeletionList() {
  const { t } = useTranslation('deletions');
  // The status shown is in the address: a refresh, Back and a shared link keep it.
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const status: DeletionStatus = oneOf(search.status, DELETION_STATUSES) ?? 'pending';
  const setStatus = (next: DeletionStatus) =>
    void navigate({ search: next === 'pending' ? {} : { status: next }, replace: true, resetScroll: false });
  const list = useQuery(deletionsQuery(status));
  const [erasing, setErasing] = useState<AdminDeletionBody | null>(null);

  return (
    <section className="grid gap-5">
      <StaffPageHeader title={t('title')} intro={t('intro')} />

      <div role="group" aria-label={t('filter')} className="flex flex-wrap gap-1 rounded-2xl bg-slate-100 p-1">
        {DELETION_STATUSES.map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={status === option}
            onClick={() => setStatus(option)}
            className="min-h-11 flex-1 rounded-xl px-3 text-sm font-semibold text-slate-700 hover:bg-white/60 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 aria-pressed:bg-white aria-pressed:text-emerald-800 aria-pressed:shadow-sm"
          >
            {t(`status.${option}`)}
          </button>
        ))}
      </div>

      {list.isPending ? (
        <div role="status" aria-label={t('loading')} className="grid gap-3">
          {[0, 1].map((index) => (
            <div key={index} className="h-40 animate-pulse rounded-2xl bg-white shadow-sm" />
          ))}
        </div>
      ) : list.isError ? (
        <LoadFailed message={serverErrorMessage(list.error, t('loadFailed'))} error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-center text-sm text-slate-600">{t(`empty.${status}`)}</p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {list.data.map((request) => (
            <li key={request.id}>
              <DeletionCard request={request} onErase={() => setErasing(request)} />
            </li>
          ))}
        </ul>
      )}

      <EraseDialog request={erasing} onClose={() => setErasing(null)} />
    </section>
  );
}

function DeletionCard({ request, onErase }: { request: AdminDeletionBody; onErase: () => void }) {
  const { t } = useTranslation('deletions');
  const titleId = `deletion-${request.id}`;
  const state = request.status === 'pending' ? pendingState(request, Date.now()) : null;
  const owed = request.balance !== '0.00' || request.pendingPayout !== '0.00';

  return (
    <article aria-labelledby={titleId} data-testid="deletion-request" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-0.5">
          <h2 id={titleId} className="font-semibold text-slate-900">
            {request.mobile ?? t('mobileGone')}
          </h2>
          <p className="text-xs break-all text-slate-600">{t('userId', { userId: request.userId })}</p>
        </div>
        {state && <span className={`rounded-full px-2.5 py-1 text-xs font-semibold ${STATE_CLASSES[state]}`}>{t(`state.${state}`)}</span>}
      </header>

      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">{t('requestedAt')}</dt>
        <dd className="text-slate-900">{formatDateTime(request.requestedAt)}</dd>
        {request.status === 'pending' && (
          <>
            <dt className="text-slate-600">{t('erasableFrom')}</dt>
            <dd className="text-slate-900">{formatDateTime(request.coolingOffEndsAt)}</dd>
            <dt className="text-slate-600">{t('balance')}</dt>
            <dd className="text-slate-900">{formatRupees(request.balance)}</dd>
            <dt className="text-slate-600">{t('pendingPayout')}</dt>
            <dd className="text-slate-900">{formatRupees(request.pendingPayout)}</dd>
          </>
        )}
        {request.cancelledAt && (
          <>
            <dt className="text-slate-600">{t('cancelledAt')}</dt>
            <dd className="text-slate-900">{formatDateTime(request.cancelledAt)}</dd>
          </>
        )}
        {request.erasedAt && (
          <>
            <dt className="text-slate-600">{t('erasedAt')}</dt>
            <dd className="text-slate-900">{formatDateTime(request.erasedAt)}</dd>
          </>
        )}
        {request.erasedBy && (
          <>
            <dt className="text-slate-600">{t('erasedBy')}</dt>
            <dd className="break-all text-slate-900">{request.erasedBy}</dd>
          </>
        )}
      </dl>

      {request.status === 'pending' && owed && (
        <p role="note" className="flex items-start gap-2 rounded-xl border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" />
          {t('unsettledHint')}
        </p>
      )}
      {request.status === 'pending' && (
        <Button variant="danger" onClick={onErase} aria-describedby={titleId}>
          {t('erase')}
        </Button>
      )}
    </article>
  );
}

/**
 * Erasing cannot be undone, so the admin confirms whose account it is first. The Idempotency-Key is
 * made when the dialog opens; a refusal (cooling-off, money owed) stays in the dialog in the
 * server's words, in the reader's language.
 */
function EraseDialog({ request, onClose }: { request: AdminDeletionBody | null; onClose: () => void }) {
  const { t } = useTranslation('deletions');
  const erase = useEraseMutation();
  const once = useSendOnce(request !== null);
  const [refusal, setRefusal] = useState<{ id: string; message: string } | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const onConfirm = async () => {
    if (!request) return;
    let sent;
    try {
      sent = await once.send((key) => erase.mutateAsync({ id: request.id, key }));
    } catch (error) {
      setRefusal({ id: request.id, message: serverErrorMessage(error, t('failedText')) });
      return;
    }
    if (!sent) return;
    toast({ title: t('erased'), description: t('erasedText', { userId: request.userId }) });
    close();
  };
  const shownRefusal = refusal && request && refusal.id === request.id ? refusal.message : null;
  return (
    <Dialog
      open={request !== null}
      onOpenChange={(open) => !open && close()}
      busy={once.busy}
      title={t('confirmTitle')}
      description={request ? t('confirmWho', { who: request.mobile ?? t('mobileGone'), userId: request.userId }) : undefined}
    >
      <ul className="grid list-disc gap-1 pl-5 text-sm text-slate-700">
        <li>{t('confirmData')}</li>
        <li>{t('confirmSessions')}</li>
        <li>{t('confirmLedger')}</li>
      </ul>
      <p className="text-sm font-semibold text-red-700">{t('cannotUndo')}</p>
      {shownRefusal && (
        <RefusalBox title={t('refused')}>{shownRefusal}</RefusalBox>
      )}
      <DialogActions cancelLabel={t('cancel')} onCancel={close} busy={once.busy} onConfirm={() => void onConfirm()} variant="danger">
        {once.busy ? t('erasing') : t('confirm')}
      </DialogActions>
    </Dialog>
  );
}
