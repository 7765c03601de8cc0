import { useTranslation } from 'react-i18next';
import type { SubmissionBody } from '@kamai/contracts';
import { AlertTriangleIcon } from '../../components/icons.tsx';

/** A time to proof as a reviewer reads it: seconds up to two minutes, then minutes, then hours. */
function useDuration() {
  const { t } = useTranslation('review');
  return (seconds: number) => {
    if (seconds < 120) return t('flags.seconds', { count: seconds });
    if (seconds < 2 * 3600) return t('flags.minutes', { count: Math.round(seconds / 60) });
    return t('flags.hours', { count: Math.round(seconds / 3600) });
  };
}

/**
 * What the queue knows beside the proof itself, said plainly: other proofs with a near-identical
 * picture, how long the work took from Start (and whether that is suspiciously fast), and the worker.
 */
export function ProofFlags({ submission }: { submission: SubmissionBody }) {
  const { t } = useTranslation('review');
  const duration = useDuration();
  const { similarProofs, secondsToProof, fast, worker } = submission;
  const workerParts = [
    worker.approvalRate === null
      ? t('flags.noDecisions')
      : t('flags.approvalRate', { percent: Math.round(worker.approvalRate * 100), approved: worker.approvedCount, rejected: worker.rejectedCount }),
    t('flags.accountAge', { count: worker.accountAgeDays }),
    t('flags.kyc', { status: t(`flags.kycStatus.${worker.kycStatus}`) }),
  ];
  const warning = 'flex items-start gap-2 rounded-xl border border-amber-200 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900';

  return (
    <div className="grid gap-2" data-testid="proof-flags">
      {similarProofs.length > 0 && (
        <p role="note" className={warning} data-testid="similar-proofs">
          <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" />
          {t('flags.similar', { count: similarProofs.length, mobiles: similarProofs.map((p) => p.mobileMasked || '—').join(', ') })}
        </p>
      )}
      {secondsToProof === null ? (
        <p className="text-sm text-slate-600" data-testid="time-to-proof">
          {t('flags.notStarted')}
        </p>
      ) : fast ? (
        <p role="note" className={warning} data-testid="time-to-proof">
          <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" />
          {t('flags.doneInFast', { duration: duration(secondsToProof) })}
        </p>
      ) : (
        <p className="text-sm text-slate-700" data-testid="time-to-proof">
          {t('flags.doneIn', { duration: duration(secondsToProof) })}
        </p>
      )}
      <p className="text-sm text-slate-700" data-testid="worker">
        <span className="font-medium">{t('flags.worker')}:</span> {workerParts.join(' · ')}
        {worker.suspended && (
          <>
            {' · '}
            <span className="rounded bg-red-50 px-1.5 py-0.5 font-semibold text-red-800">{t('flags.suspended')}</span>
          </>
        )}
      </p>
    </div>
  );
}
