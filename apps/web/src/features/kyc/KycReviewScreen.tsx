import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KYC_BONUS_PAISE, KycRejectRequest, formatPaise, type KycQueueItem } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { DialogActions } from '../../components/DialogParts.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { TextAreaField } from '../../components/fields.tsx';
import { AlertTriangleIcon } from '../../components/icons.tsx';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { kycQueueQuery, useApproveKycDocument, useRejectKycDocument } from './kycQueries.ts';

const SIDES = ['front', 'back'] as const;

/**
 * /admin/kyc: identity documents waiting for review, oldest first, for the reviewer role only (the
 * server does not let admin stand in for it). Both images side by side, tap to enlarge; approve, or
 * reject with a reason the user sees on /kyc and in their notifications.
 */
export function KycReviewScreen() {
  const { t } = useTranslation('kyc');
  return (
    <StaffPage role="reviewer" what={t('review.notAllowed')}>
      <KycQueue />
    </StaffPage>
  );
}

function KycQueue() {
  const { t } = useTranslation('kyc');
  const queue = useQuery(kycQueueQuery('pending'));
  const [rejecting, setRejecting] = useState<KycQueueItem | null>(null);
  const [approving, setApproving] = useState<KycQueueItem | null>(null);
  const [enlarged, setEnlarged] = useState<{ src: string; alt: string } | null>(null);

  return (
    <section className="grid gap-5">
      <StaffPageHeader title={t('review.title')} intro={queue.data ? t('review.count', { count: queue.data.length }) : t('review.intro')} />

      {queue.isPending ? (
        <div role="status" aria-label={t('review.loading')} className="grid gap-3">
          {[0, 1].map((index) => (
            <div key={index} className="h-72 animate-pulse rounded-2xl bg-white shadow-sm" />
          ))}
        </div>
      ) : queue.isError ? (
        <LoadFailed message={serverErrorMessage(queue.error, t('review.loadFailed'))} error={queue.error} onRetry={() => void queue.refetch()} />
      ) : queue.data.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white px-5 py-10 text-center">
          <p className="font-semibold text-slate-900">{t('review.empty')}</p>
          <p className="text-sm text-slate-600">{t('review.emptyText')}</p>
        </div>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {queue.data.map((item) => (
            <li key={item.id}>
              <DocumentCard item={item} onApprove={() => setApproving(item)} onReject={() => setRejecting(item)} onEnlarge={setEnlarged} />
            </li>
          ))}
        </ul>
      )}

      <ApproveDialog item={approving} onClose={() => setApproving(null)} />
      <RejectDialog item={rejecting} onClose={() => setRejecting(null)} />
      <Dialog open={enlarged !== null} onOpenChange={(open) => !open && setEnlarged(null)} title={enlarged?.alt ?? ''}>
        {enlarged && <img src={enlarged.src} alt={enlarged.alt} className="w-full rounded-xl object-contain" />}
      </Dialog>
    </section>
  );
}

function DocumentCard({
  item,
  onApprove,
  onReject,
  onEnlarge,
}: {
  item: KycQueueItem;
  onApprove: () => void;
  onReject: () => void;
  onEnlarge: (image: { src: string; alt: string }) => void;
}) {
  const { t } = useTranslation('kyc');
  const titleId = `kyc-document-${item.id}`;
  const documentName = t(`documents.${item.documentType}`);

  return (
    <article aria-labelledby={titleId} data-testid="kyc-document" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <header className="grid gap-0.5">
        <h2 id={titleId} className="font-semibold text-slate-900">
          {documentName}
        </h2>
        <p className="text-sm text-slate-600">
          {item.userName} · +91 {item.userMobile}
        </p>
      </header>
      {item.alsoSubmittedBy.length > 0 && (
        <p role="note" className="flex items-start gap-2 rounded-xl border border-amber-200 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">
          <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" />
          {t('review.alsoSubmittedBy', { mobiles: item.alsoSubmittedBy.join(', ') })}
        </p>
      )}
      <div className="grid grid-cols-2 gap-2">
        {SIDES.map((side) => {
          const src = side === 'front' ? item.frontImageUrl : item.backImageUrl;
          const alt = t('imageAlt', { document: documentName, side: t(`side.${side}`) });
          return (
            <button
              key={side}
              type="button"
              aria-label={t('review.enlarge', { document: documentName, side: t(`side.${side}`) })}
              onClick={() => onEnlarge({ src, alt })}
              className="grid gap-1 overflow-hidden rounded-xl bg-slate-100 p-1 text-xs font-medium text-slate-600 focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-600"
            >
              <img src={src} alt={alt} className="h-36 w-full object-contain" />
              {t(`side.${side}`)}
            </button>
          );
        })}
      </div>
      <p className="text-xs text-slate-500">{t('review.submitted', { time: formatDateTime(item.uploadedAt) })}</p>
      <div className="flex gap-2">
        <Button variant="danger" onClick={onReject}>
          {t('review.reject')}
        </Button>
        <Button onClick={onApprove}>{t('review.approve')}</Button>
      </div>
    </article>
  );
}

/**
 * Approving a document can release money: once both are approved the user may claim the KYC bonus.
 * So the reviewer confirms whose document it is first, as with a proof.
 */
function ApproveDialog({ item, onClose }: { item: KycQueueItem | null; onClose: () => void }) {
  const { t } = useTranslation('kyc');
  const approve = useApproveKycDocument();
  const once = useSendOnce(item !== null);
  const documentName = item ? t(`documents.${item.documentType}`) : '';
  const onConfirm = async () => {
    if (!item) return;
    let sent;
    try {
      sent = await once.send(() => approve.mutateAsync(item.id));
    } catch (error) {
      toast({ variant: 'destructive', title: t('review.approveFailed'), description: serverErrorMessage(error, t('review.approveFailedText')) });
      return;
    }
    if (!sent) return;
    toast({ title: t('review.approved'), description: t('review.approvedText', { name: item.userName, document: documentName }) });
    onClose();
  };
  return (
    <Dialog
      open={item !== null}
      onOpenChange={(open) => !open && onClose()}
      busy={once.busy}
      title={t('review.approveTitle')}
      description={item ? t('review.approveQuestion', { name: item.userName, mobile: item.userMobile, document: documentName }) : undefined}
    >
      {item && <p className="text-sm text-slate-700">{t('review.approveBonus', { name: item.userName, amount: formatRupees(formatPaise(KYC_BONUS_PAISE)) })}</p>}
      <DialogActions cancelLabel={t('review.cancel')} onCancel={onClose} busy={once.busy} onConfirm={() => void onConfirm()}>
        {once.busy ? t('review.approving') : t('review.approveDocument', { document: documentName })}
      </DialogActions>
    </Dialog>
  );
}

function RejectDialog({ item, onClose }: { item: KycQueueItem | null; onClose: () => void }) {
  const { t } = useTranslation('kyc');
  return (
    <Dialog
      open={item !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('review.rejectTitle')}
      description={item ? t('review.rejectText', { name: item.userName, document: t(`documents.${item.documentType}`) }) : undefined}
    >
      {item && <RejectForm key={item.id} item={item} onDone={onClose} />}
    </Dialog>
  );
}

function RejectForm({ item, onDone }: { item: KycQueueItem; onDone: () => void }) {
  const { t } = useTranslation('kyc');
  const reject = useRejectKycDocument();
  const once = useSendOnce();
  const form = useSchemaForm(KycRejectRequest, { reason: '' });

  const onSubmit = form.handleSubmit(async (body) => {
    let sent;
    try {
      sent = await once.send(() => reject.mutateAsync({ documentId: item.id, body }));
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: t('review.rejectFailed'), description: serverErrorMessage(error, t('review.rejectFailedText')) });
      return;
    }
    if (!sent) return;
    toast({ title: t('review.rejected'), description: t('review.rejectedText', { name: item.userName }) });
    onDone();
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <TextAreaField label={t('review.reason')} rows={4} maxLength={500} placeholder={t('review.reasonPlaceholder')} {...form.field('reason')} />
      <DialogActions cancelLabel={t('review.cancel')} onCancel={onDone} busy={once.busy} variant="danger">
        {once.busy ? t('review.rejecting') : t('review.reject')}
      </DialogActions>
    </form>
  );
}
