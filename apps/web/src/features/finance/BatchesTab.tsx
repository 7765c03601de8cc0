import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BANK_FILE_KINDS, MAX_BATCH_SIZE, formatPaise, istDay, parseRupees, templateSplitsKinds } from '@kamai/contracts';
import type { PayoutBatchBody, ResultsImportBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { serverErrorMessage } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { currentUserQuery, financeWithdrawalsQuery, settingsQuery } from '../../lib/queries.ts';
import { toast } from '../../lib/toast.ts';
import { CsvFilePicker } from './CsvFilePicker.tsx';
import { MoneyConfirmDialog } from './MoneyConfirmDialog.tsx';
import { inputClass, linkButton } from './styles.ts';
import { useFinanceSearch } from './useFinanceSearch.ts';
import {
  type ResultsFileSummary,
  payoutBatchesQuery,
  processingWithdrawalsQuery,
  summariseResults,
  useApproveBatchMutation,
  useCreateBatchMutation,
  useImportResultsMutation,
} from './payoutQueries.ts';
import { SectionHeader } from './SectionHeader.tsx';
import { useConfirmedSend } from './useConfirmedSend.ts';

const card = 'grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm';

/** Batches: pending withdrawals sent to the bank as one file, approved, and their results read back. */
export function BatchesTab() {
  const { data: user } = useQuery(currentUserQuery());
  return (
    <div className="grid gap-8">
      <NewBatch />
      <BatchList me={user?.id ?? ''} />
      <SentToBank />
    </div>
  );
}

type PayBy = 'all' | 'bank' | 'upi';

/** A new batch from filters: the pending withdrawals up to an amount, requested by a day, paid by a way. */
function NewBatch() {
  const { t } = useTranslation('finance');
  const pending = useQuery(financeWithdrawalsQuery('pending'));
  const settings = useQuery(settingsQuery());
  const create = useCreateBatchMutation();
  const [upTo, setUpTo] = useState('');
  const [requestedBy, setRequestedBy] = useState('');
  const [payBy, setPayBy] = useState<PayBy>('all');
  // The selection is fixed when the confirmation opens: a refresh meanwhile does not change what is sent.
  const confirmed = useConfirmedSend<{ ids: string[]; totalPaise: number }>(t('batches.createFailed'));
  const confirming = confirmed.item;

  const cap = upTo.trim() === '' ? null : parseRupees(upTo);
  const capInvalid = upTo.trim() !== '' && (cap === null || cap <= 0);
  const byEnd = requestedBy ? istDay(requestedBy).end : null;
  // Oldest first, as the queue: who waited longest goes first when more than a batch's worth match.
  const matching = (pending.data ?? [])
    .filter((w) => cap === null || (parseRupees(w.amount) ?? Infinity) <= cap)
    .filter((w) => byEnd === null || w.requestedAt <= byEnd)
    .filter((w) => payBy === 'all' || w.payTo.kind === payBy)
    .sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));
  const chosen = matching.slice(0, MAX_BATCH_SIZE);
  const totalPaise = chosen.reduce((sum, w) => sum + (parseRupees(w.amount) ?? 0), 0);
  const threshold = settings.data ? parseRupees(settings.data.payoutBatchApprovalThreshold) : null;

  const onConfirm = async () => {
    const sent = await confirmed.confirm((selection, key) => create.mutateAsync({ withdrawalIds: selection.ids, key }));
    if (!sent) return;
    const batch = sent.value;
    toast({
      title: t('batches.created'),
      description: batch
        ? t(batch.status === 'awaiting_approval' ? 'batches.createdNeedsApproval' : 'batches.createdReady', { count: batch.count, total: formatRupees(batch.total) })
        : undefined,
    });
  };

  return (
    <section aria-labelledby="new-batch-heading" className="grid gap-3">
      <SectionHeader id="new-batch-heading" title={t('batches.newHeading')} intro={t('batches.newIntro')} />
      <form
        noValidate
        className={card}
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen.length > 0 && !capInvalid) confirmed.open({ ids: chosen.map((w) => w.id), totalPaise });
        }}
      >
        <div className="flex flex-wrap items-end gap-3">
          <label className="grid gap-1 text-sm font-medium">
            {t('batches.upTo')}
            <input
              className={inputClass}
              type="number"
              inputMode="decimal"
              min={0.01}
              step="0.01"
              value={upTo}
              aria-invalid={capInvalid}
              aria-describedby={capInvalid ? 'batch-up-to-error' : undefined}
              onChange={(e) => setUpTo(e.target.value)}
            />
          </label>
          <label className="grid gap-1 text-sm font-medium">
            {t('batches.requestedBy')}
            <input type="date" className={inputClass} value={requestedBy} onChange={(e) => setRequestedBy(e.target.value)} />
          </label>
          <label className="grid gap-1 text-sm font-medium">
            {t('batches.payBy')}
            <select className={inputClass} value={payBy} onChange={(e) => setPayBy(e.target.value as PayBy)}>
              <option value="all">{t('batches.payByAll')}</option>
              <option value="bank">{t('batches.payByBank')}</option>
              <option value="upi">{t('batches.payByUpi')}</option>
            </select>
          </label>
        </div>
        {capInvalid && (
          <p id="batch-up-to-error" className="text-sm text-red-700">
            {t('batches.upToInvalid')}
          </p>
        )}
        <p className="text-sm text-slate-700" aria-live="polite" data-testid="batch-selection">
          {pending.isPending
            ? t('common.loading')
            : t('batches.matching', { count: chosen.length, total: formatRupees(formatPaise(totalPaise)) })}
          {matching.length > chosen.length && ` ${t('batches.capped', { max: MAX_BATCH_SIZE, count: matching.length })}`}
        </p>
        <Button type="submit" disabled={chosen.length === 0 || capInvalid} className="sm:w-auto sm:justify-self-start">
          {t('batches.create')}
        </Button>
      </form>
      <MoneyConfirmDialog
        {...confirmed.dialog}
        title={t('batches.confirmCreateTitle')}
        description={confirming ? t('batches.confirmCreate', { count: confirming.ids.length, total: formatRupees(formatPaise(confirming.totalPaise)) }) : ''}
        confirmLabel={confirming ? t('batches.confirmCreateButton', { count: confirming.ids.length, total: formatRupees(formatPaise(confirming.totalPaise)) }) : ''}
        pendingLabel={t('batches.creating')}
        onConfirm={() => void onConfirm()}
      >
        <p className="text-sm text-slate-600">
          {t('batches.confirmCreateHint')}
          {confirming && threshold !== null && confirming.totalPaise > threshold
            ? ` ${t('batches.confirmNeedsApproval', { threshold: formatRupees(formatPaise(threshold)) })}`
            : ''}
        </p>
      </MoneyConfirmDialog>
    </section>
  );
}

const STATUS_CLASSES: Record<PayoutBatchBody['status'], string> = {
  awaiting_approval: 'bg-amber-100 text-amber-900',
  ready: 'bg-sky-100 text-sky-900',
  completed: 'bg-emerald-100 text-emerald-900',
};

type Pending =
  | { kind: 'approve'; batch: PayoutBatchBody }
  | { kind: 'results'; batch: PayoutBatchBody; csv: string; summary: ResultsFileSummary }
  | null;

/** The batches, newest first, each with what can be done with it now. */
function BatchList({ me }: { me: string }) {
  const { t } = useTranslation('finance');
  const batches = useQuery(payoutBatchesQuery());
  const approve = useApproveBatchMutation();
  const importResults = useImportResultsMutation();
  const confirmed = useConfirmedSend<NonNullable<Pending>>(t('batches.actionFailed'));
  const pending = confirmed.item;
  const [outcomes, setOutcomes] = useState<Record<string, ResultsImportBody>>({});

  const onCsv = (batch: PayoutBatchBody, csv: string) => {
    const summary = summariseResults(csv);
    if (!summary || summary.rows === 0) {
      toast({ variant: 'destructive', title: t('actionFailed'), description: t('results.unreadable') });
      return;
    }
    confirmed.open({ kind: 'results', batch, csv, summary });
  };

  const onConfirm = async () => {
    const sent = await confirmed.confirm(async (step, key): Promise<ResultsImportBody | null> => {
      if (step.kind === 'results') return importResults.mutateAsync({ id: step.batch.id, csv: step.csv, key });
      await approve.mutateAsync({ id: step.batch.id, key });
      return null;
    });
    if (!sent) return;
    const { item: step, value: outcome } = sent;
    if (step.kind === 'approve') {
      toast({ title: t('batches.approved'), description: t('batches.approvedDescription', { count: step.batch.count, total: formatRupees(step.batch.total) }) });
      return;
    }
    if (outcome) setOutcomes((all) => ({ ...all, [step.batch.id]: outcome }));
    toast({ title: t('results.imported') });
  };

  const confirmText = (() => {
    if (!pending) return { title: '', description: '', button: '', busy: '' };
    if (pending.kind === 'approve') {
      const values = { count: pending.batch.count, total: formatRupees(pending.batch.total) };
      return { title: t('batches.confirmApproveTitle'), description: t('batches.confirmApprove', values), button: t('batches.confirmApproveButton', values), busy: t('batches.approving') };
    }
    const { summary } = pending;
    const values = { count: summary.rows, total: formatRupees(formatPaise(summary.totalPaise)), success: summary.success, failed: summary.failed, reversed: summary.reversed };
    return { title: t('results.confirmTitle'), description: t('results.confirm', values), button: t('results.confirmButton', values), busy: t('results.importing') };
  })();

  return (
    <section aria-labelledby="batches-heading" className="grid gap-3">
      <h2 id="batches-heading" className="text-lg font-semibold">
        {t('batches.heading')}
      </h2>
      {batches.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : batches.isError ? (
        <LoadFailed message={serverErrorMessage(batches.error, t('common.loadFailed'))} error={batches.error} onRetry={() => void batches.refetch()} />
      ) : batches.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">{t('batches.empty')}</p>
      ) : (
        <ul aria-label={t('batches.heading')} className="grid gap-3">
          {batches.data.map((batch) => (
            <BatchCard
              key={batch.id}
              batch={batch}
              mine={batch.createdBy === me}
              outcome={outcomes[batch.id]}
              onApprove={() => confirmed.open({ kind: 'approve', batch })}
              onCsv={(csv) => onCsv(batch, csv)}
            />
          ))}
        </ul>
      )}
      <MoneyConfirmDialog
        {...confirmed.dialog}
        title={confirmText.title}
        description={confirmText.description}
        confirmLabel={confirmText.button}
        pendingLabel={confirmText.busy}
        onConfirm={() => void onConfirm()}
      />
    </section>
  );
}

function BatchCard({
  batch,
  mine,
  outcome,
  onApprove,
  onCsv,
}: {
  batch: PayoutBatchBody;
  mine: boolean;
  outcome: ResultsImportBody | undefined;
  onApprove: () => void;
  onCsv: (csv: string) => void;
}) {
  const { t } = useTranslation('finance');
  const waiting = batch.status === 'awaiting_approval';
  // A bank's template sends UPI and account transfers as separate uploads: one button per file.
  const { data: settings } = useQuery(settingsQuery());
  const fileUrl = `/api/admin/payout-batches/${encodeURIComponent(batch.id)}/file`;
  const files = settings && templateSplitsKinds(settings.bankFileTemplate) ? BANK_FILE_KINDS.map((kind) => [`${fileUrl}?kind=${kind}`, t(`batches.downloadKind.${kind}`)] as const) : [[fileUrl, t('batches.download')] as const];
  return (
    <li className={card} data-testid="payout-batch">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold text-slate-900">
            {t('batches.title', { count: batch.count, total: formatRupees(batch.total) })}
          </h3>
          <p className="text-xs text-slate-600">
            {t('batches.createdAt', { when: formatDateTime(batch.createdAt) })}
            {mine ? ` · ${t('batches.byYou')}` : ''}
          </p>
        </div>
        <span data-testid="batch-status" className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASSES[batch.status]}`}>
          {t(`batches.status.${batch.status}`)}
        </span>
      </div>
      <p className="text-sm text-slate-700" data-testid="batch-counts">
        {t('batches.counts', batch.counts)}
      </p>
      {waiting ? (
        mine ? (
          <p className="text-sm text-amber-900">{t('batches.waitingForColleague')}</p>
        ) : (
          <Button onClick={onApprove} className="sm:w-auto sm:justify-self-start">
            {t('batches.approve')}
          </Button>
        )
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          {files.map(([href, label]) => (
            <a key={href} className={linkButton} href={href} download>
              {label}
            </a>
          ))}
          <CsvFilePicker label={t('batches.importResults')} onCsv={onCsv} />
          {batch.fileDownloads > 0 && <span className="text-xs text-slate-600">{t('batches.downloads', { count: batch.fileDownloads })}</span>}
        </div>
      )}
      {outcome && <ResultsOutcome outcome={outcome} />}
    </li>
  );
}

/** The per-row outcome of a results import: applied, already done, and each refused line with why. */
function ResultsOutcome({ outcome }: { outcome: ResultsImportBody }) {
  const { t } = useTranslation('finance');
  return (
    <div className="grid gap-2 rounded-xl bg-slate-50 p-3 text-sm" data-testid="results-outcome" role="status">
      <p className="font-medium text-slate-900">{t('results.summary', { applied: outcome.applied, skipped: outcome.skipped, refused: outcome.refused.length })}</p>
      {outcome.refused.length > 0 && (
        <ul className="grid gap-1 text-red-800">
          {outcome.refused.map((row) => (
            <li key={`${row.line}-${row.reason}`}>
              {t('results.refusedRow', {
                line: row.line,
                reference: row.reference.slice(0, 8),
                why: t(`results.reasons.${row.reason}`, { defaultValue: row.message }),
              })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Withdrawals with the bank: all of them, or only those out longer than the late-payout setting. */
function SentToBank() {
  const { t } = useTranslation('finance');
  const [search, setSearch] = useFinanceSearch();
  const lateOnly = search.late === true;
  const settings = useQuery(settingsQuery());
  const list = useQuery(processingWithdrawalsQuery(lateOnly));
  const days = settings.data?.latePayoutDays ?? 2;
  return (
    <section aria-labelledby="sent-heading" className="grid gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="sent-heading" className="text-lg font-semibold">
          {t('sent.heading')}
        </h2>
        <label className="flex min-h-11 items-center gap-2 text-sm font-medium">
          <input type="checkbox" className="size-4 accent-emerald-700" checked={lateOnly} onChange={(e) => setSearch({ late: e.target.checked ? true : undefined })} />
          {t('sent.lateOnly', { count: days })}
        </label>
      </div>
      {list.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : list.isError ? (
        <LoadFailed message={serverErrorMessage(list.error, t('common.loadFailed'))} error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
          {lateOnly ? t('sent.noneLate') : t('sent.none')}
        </p>
      ) : (
        <ul aria-label={t('sent.heading')} className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          {list.data.map((w) => (
            <li key={w.id} className="flex flex-wrap items-baseline justify-between gap-2 p-3 text-sm" data-testid="sent-withdrawal">
              <span>
                <span className="font-medium text-slate-900">{w.user.name}</span> <span className="text-slate-600">{w.user.mobile}</span>
              </span>
              <span className="font-semibold tabular-nums">{formatRupees(w.amount)}</span>
              <span className="w-full text-xs text-slate-600">{t('sent.requested', { when: formatDateTime(w.requestedAt) })}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
