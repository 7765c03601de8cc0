import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BankStatementImportBody, BankStatementRunBody } from '@kamai/contracts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { serverErrorMessage } from '../../lib/api.ts';
import { formatDate, formatDateTime, formatRupees } from '../../lib/format.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { CsvFilePicker } from './CsvFilePicker.tsx';
import { bankStatementRunsQuery, useBankStatementMutation } from './payoutQueries.ts';
import { MatchingSummary, StatementExceptions } from './StatementExceptions.tsx';
import { SectionHeader } from './SectionHeader.tsx';

/**
 * The bank statement against the ledger: a statement CSV is read by the server, which answers the
 * payouts it does not show and the debits no payout explains. Every run is kept and listed here;
 * what no line matched waits in the exceptions queue below.
 */
export function BankStatements() {
  const { t } = useTranslation('finance');
  const runs = useQuery(bankStatementRunsQuery());
  const reconcile = useBankStatementMutation();
  const once = useSendOnce();
  const [latest, setLatest] = useState<BankStatementImportBody | null>(null);

  const onCsv = async (csv: string) => {
    let sent;
    try {
      sent = await once.send(() => reconcile.mutateAsync({ csv }));
    } catch (error) {
      toast({ variant: 'destructive', title: t('actionFailed'), description: serverErrorMessage(error, t('statements.failed')) });
      return;
    }
    if (!sent?.value) return;
    setLatest(sent.value);
    toast({ title: t('statements.done') });
  };

  return (
    <section aria-labelledby="statements-heading" className="grid gap-3">
      <SectionHeader id="statements-heading" title={t('statements.heading')} intro={t('statements.intro')} />
      <div>
        <CsvFilePicker label={once.busy ? t('statements.reading') : t('statements.import')} busy={once.busy} onCsv={(csv) => void onCsv(csv)} />
      </div>
      {latest && (
        <StatementRun run={latest} open testId="statement-latest">
          <MatchingSummary matching={latest.matching} />
        </StatementRun>
      )}
      <StatementExceptions />
      <h3 className="text-base font-semibold">{t('statements.past')}</h3>
      {runs.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : runs.isError ? (
        <LoadFailed message={serverErrorMessage(runs.error, t('common.loadFailed'))} error={runs.error} onRetry={() => void runs.refetch()} />
      ) : runs.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">{t('statements.none')}</p>
      ) : (
        <ul aria-label={t('statements.past')} className="grid gap-2">
          {runs.data.map((run) => (
            <li key={run.id}>
              <StatementRun run={run} open={false} testId="statement-run" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One run: its dates and difference, and (opened) both lists. */
function StatementRun({ run, open, testId, children }: { run: BankStatementRunBody; open: boolean; testId: string; children?: ReactNode }) {
  const { t } = useTranslation('finance');
  const agrees = run.missingFromStatement.length === 0 && run.unmatchedDebits.length === 0;
  return (
    <details open={open} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <summary className="cursor-pointer text-sm font-medium text-slate-900">
        {t('statements.runSummary', { from: formatDate(run.from), to: formatDate(run.to), lines: run.lines, difference: formatRupees(run.difference) })}
        <span className={`ml-2 rounded-full px-2 py-0.5 text-xs font-semibold ${agrees ? 'bg-emerald-100 text-emerald-900' : 'bg-red-100 text-red-800'}`}>
          {agrees ? t('statements.agrees') : t('statements.differs')}
        </span>
      </summary>
      <div className="mt-3 grid gap-3 text-sm">
        <p className="text-xs text-slate-600">{t('statements.ranAt', { when: formatDateTime(run.at) })}</p>
        {children}
        <div className="grid gap-1" data-testid="statement-missing">
          <h4 className="font-semibold">{t('statements.missingHeading', { count: run.missingFromStatement.length })}</h4>
          {run.missingFromStatement.length === 0 ? (
            <p className="text-slate-600">{t('statements.missingNone')}</p>
          ) : (
            <ul className="grid gap-1">
              {run.missingFromStatement.map((p) => (
                <li key={p.withdrawalId} className="font-mono text-xs">
                  {t('statements.missingRow', { amount: formatRupees(p.amount), utr: p.utr, when: formatDateTime(p.paidAt), id: p.withdrawalId.slice(0, 8) })}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="grid gap-1" data-testid="statement-unmatched">
          <h4 className="font-semibold">{t('statements.unmatchedHeading', { count: run.unmatchedDebits.length })}</h4>
          {run.unmatchedDebits.length === 0 ? (
            <p className="text-slate-600">{t('statements.unmatchedNone')}</p>
          ) : (
            <ul className="grid gap-1">
              {run.unmatchedDebits.map((d) => (
                <li key={d.line} className="font-mono text-xs">
                  {t('statements.unmatchedRow', { line: d.line, amount: formatRupees(d.amount), date: formatDate(d.date), utr: d.utr ?? t('common.none') })}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </details>
  );
}
