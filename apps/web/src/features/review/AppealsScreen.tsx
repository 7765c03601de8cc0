import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DecideAppealRequest } from '@kamai/contracts';
import type { AppealBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { DialogActions, RefusalBox } from '../../components/DialogParts.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { TextAreaField } from '../../components/fields.tsx';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { appealsQuery } from '../../lib/queries.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { useDecideAppealMutation } from './reviewMutations.ts';

type Decision = DecideAppealRequest['decision'];

/**
 * /admin/appeals: rejections the workers appealed, oldest first, for the reviewer role. Each is
 * upheld or overturned with a reason by a reviewer other than the one who rejected (the server
 * refuses that one, 403 `own_rejection`, shown here in the reader's language).
 */
export function AppealsScreen() {
  const { t } = useTranslation('review');
  return (
    <StaffPage role="reviewer" what={t('appeals.what')}>
      <AppealQueue />
    </StaffPage>
  );
}

function AppealQueue() {
  const { t } = useTranslation('review');
  const queue = useQuery(appealsQuery('open'));
  const [deciding, setDeciding] = useState<{ appeal: AppealBody; decision: Decision } | null>(null);

  return (
    <section className="grid gap-5">
      <StaffPageHeader title={t('appeals.title')} intro={queue.data ? t('appeals.waiting', { count: queue.data.length }) : t('appeals.intro')} />
      {queue.isPending ? (
        <div role="status" aria-label={t('appeals.loading')} className="h-72 animate-pulse rounded-2xl bg-white shadow-sm" />
      ) : queue.isError ? (
        <LoadFailed message={serverErrorMessage(queue.error, t('appeals.loadFailed'))} error={queue.error} onRetry={() => void queue.refetch()} />
      ) : queue.data.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white px-5 py-10 text-center">
          <p className="font-semibold text-slate-900">{t('caughtUp')}</p>
          <p className="text-sm text-slate-600">{t('appeals.empty')}</p>
        </div>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {queue.data.map((appeal) => (
            <li key={appeal.id}>
              <AppealCard appeal={appeal} onDecide={(decision) => setDeciding({ appeal, decision })} />
            </li>
          ))}
        </ul>
      )}
      <DecideDialog deciding={deciding} onClose={() => setDeciding(null)} />
    </section>
  );
}

function AppealCard({ appeal, onDecide }: { appeal: AppealBody; onDecide: (decision: Decision) => void }) {
  const { t } = useTranslation('review');
  const titleId = `appeal-${appeal.id}`;
  return (
    <article aria-labelledby={titleId} data-testid="appeal" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <header className="flex items-start justify-between gap-3">
        {/* The title as it was at the submission: English (the appeal keeps no Hindi title). */}
        <h2 id={titleId} lang="en" className="min-w-0 font-semibold break-words text-slate-900">
          {appeal.taskTitle}
        </h2>
        <span className="shrink-0 rounded-lg bg-emerald-50 px-2 py-0.5 text-sm font-bold text-emerald-700">{formatRupees(appeal.rupeeReward)}</span>
      </header>
      <dl className="grid gap-2 text-sm">
        <div>
          <dt className="font-semibold text-slate-700">{t('appeals.rejectedBecause')}</dt>
          <dd className="break-words text-slate-700">{appeal.rejectionReason}</dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-700">{t('appeals.note')}</dt>
          <dd className="break-words whitespace-pre-wrap text-slate-700">{appeal.note}</dd>
        </div>
      </dl>
      {appeal.proofImageUrl && (
        <a href={appeal.proofImageUrl} target="_blank" rel="noopener noreferrer" className="block overflow-hidden rounded-xl bg-slate-100">
          <img src={appeal.proofImageUrl} alt={t('appeals.newImage', { title: appeal.taskTitle })} className="max-h-80 w-full object-contain" />
        </a>
      )}
      <p className="text-xs text-slate-500">{t('appeals.openedAt', { when: formatDateTime(appeal.openedAt) })}</p>
      <div className="grid grid-cols-2 gap-2">
        <Button variant="danger" onClick={() => onDecide('uphold')}>
          {t('appeals.uphold')}
        </Button>
        <Button onClick={() => onDecide('overturn')}>{t('appeals.overturn')}</Button>
      </div>
    </article>
  );
}

function DecideDialog({ deciding, onClose }: { deciding: { appeal: AppealBody; decision: Decision } | null; onClose: () => void }) {
  const { t } = useTranslation('review');
  const once = useSendOnce(deciding !== null);
  return (
    <Dialog
      open={deciding !== null}
      onOpenChange={(open) => !open && onClose()}
      busy={once.busy}
      title={deciding?.decision === 'overturn' ? t('appeals.overturnTitle') : t('appeals.upholdTitle')}
      description={
        deciding &&
        (deciding.decision === 'overturn'
          ? t('appeals.overturnQuestion', { amount: formatRupees(deciding.appeal.rupeeReward) })
          : t('appeals.upholdQuestion'))
      }
    >
      {deciding && <DecideForm key={`${deciding.appeal.id}-${deciding.decision}`} {...deciding} once={once} onDone={onClose} />}
    </Dialog>
  );
}

function DecideForm({ appeal, decision, once, onDone }: { appeal: AppealBody; decision: Decision; once: ReturnType<typeof useSendOnce>; onDone: () => void }) {
  const { t } = useTranslation('review');
  const decide = useDecideAppealMutation();
  const form = useSchemaForm(DecideAppealRequest, { decision, reason: '' });
  /** Why the server refused (own rejection, decided meanwhile), in the reader's language. */
  const [refusal, setRefusal] = useState<string | null>(null);

  const onSubmit = form.handleSubmit(async (body) => {
    setRefusal(null);
    let sent;
    try {
      sent = await once.send((key) => decide.mutateAsync({ appealId: appeal.id, body, key }));
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      setRefusal(serverErrorMessage(error, t('appeals.failedBody')));
      return;
    }
    if (!sent) return;
    toast({ title: decision === 'overturn' ? t('appeals.overturned') : t('appeals.upheld') });
    onDone();
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <TextAreaField label={t('reason')} rows={3} maxLength={500} {...form.field('reason')} />
      {refusal && (
        <RefusalBox testId="decide-refusal">{refusal}</RefusalBox>
      )}
      <DialogActions cancelLabel={t('common:cancel')} onCancel={onDone} busy={once.busy} variant={decision === 'overturn' ? 'primary' : 'danger'}>
        {once.busy ? t('sending') : decision === 'overturn' ? t('appeals.overturn') : t('appeals.uphold')}
      </DialogActions>
    </form>
  );
}
