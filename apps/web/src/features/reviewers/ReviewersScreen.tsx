import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { ReviewerStatsBody, ReviewerStatsRow } from '@kamai/contracts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { TextField } from '../../components/fields.tsx';
import { AlertTriangleIcon } from '../../components/icons.tsx';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { compact } from '../../lib/searchParams.ts';
import { type ReviewerStatsRange, reviewerStatsQuery } from './reviewerStatsQueries.ts';

const route = getRouteApi('/_authed/admin/reviewers');

/**
 * /admin/reviewers: how each reviewer decides over a range of IST days (docs/reviewer-stats.md), for
 * the admin role: decisions, rejection rate beside the team's, appeals lost, median time per decision,
 * and a mark on a reviewer rejecting far more than the team. A table on wide screens, cards on a phone.
 */
export function ReviewersScreen() {
  const { t } = useTranslation('reviewers');
  return (
    <StaffPage role="admin" what={t('what')}>
      <ReviewerStats />
    </StaffPage>
  );
}

type T = ReturnType<typeof useTranslation<'reviewers'>>['t'];

const percent = (rate: number | null) => (rate === null ? '–' : `${Math.round(rate * 100)}%`);

/** A median wait as seconds, minutes or hours and minutes. */
function duration(t: T, seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return t('duration.seconds', { count: seconds });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('duration.minutes', { count: minutes });
  return t('duration.hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

function ReviewerStats() {
  const { t } = useTranslation('reviewers');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const stats = useQuery(reviewerStatsQuery(search));
  const setRange = (next: ReviewerStatsRange) => void navigate({ search: compact<ReviewerStatsRange>(next), replace: true, resetScroll: false });
  const fieldErrors = stats.isError ? serverFieldErrors(stats.error) : {};
  // The inputs show the days the answer covers (the server's default range when none was chosen).
  const shown = stats.data;
  const from = search.from ?? shown?.from ?? '';
  const to = search.to ?? shown?.to ?? '';

  return (
    <section className="grid gap-5">
      <StaffPageHeader title={t('title')} intro={t('intro')} />

      <form role="search" aria-label={t('range.label')} onSubmit={(event) => event.preventDefault()} className="grid gap-3 sm:grid-cols-2">
        <TextField label={t('range.from')} type="date" value={from} onValueChange={(value) => setRange({ ...search, from: value })} error={fieldErrors.from} />
        <TextField label={t('range.to')} type="date" value={to} onValueChange={(value) => setRange({ ...search, to: value })} error={fieldErrors.to} />
      </form>

      {stats.isPending ? (
        <div role="status" aria-label={t('loading')} className="h-40 animate-pulse rounded-2xl bg-white shadow-sm" />
      ) : stats.isError ? (
        <LoadFailed message={serverErrorMessage(stats.error, t('loadFailed'))} error={stats.error} onRetry={() => void stats.refetch()} />
      ) : (
        <Figures stats={stats.data} />
      )}
    </section>
  );
}

function Figures({ stats }: { stats: ReviewerStatsBody }) {
  const { t } = useTranslation('reviewers');
  return (
    <>
      <p data-testid="team-rate" className="rounded-2xl border border-slate-200 bg-white p-4 text-sm text-slate-800 shadow-sm">
        {t('team', { rate: percent(stats.teamRejectionRate) })}{' '}
        <span className="text-slate-600">{t('alertRule', { factor: stats.alertFactor, count: stats.alertMinDecisions })}</span>
      </p>
      {stats.reviewers.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-center text-sm text-slate-600">{t('empty')}</p>
      ) : (
        <>
          {/* Wide screens: one table; a phone: a card per reviewer with the same figures. */}
          <div className="hidden overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm md:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('title')}</caption>
              <thead className="bg-slate-50 text-slate-600">
                <tr>
                  {(['reviewer', 'decisions', 'approvals', 'rejections', 'needsChanges', 'rejectionRate', 'appealsLost', 'median'] as const).map((column) => (
                    <th key={column} scope="col" className="px-3 py-2 font-medium">
                      {t(`column.${column}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {stats.reviewers.map((row) => (
                  <tr key={row.reviewerId} data-testid="reviewer-row" className={row.rejectionRateAlert ? 'bg-amber-50' : 'border-t border-slate-100'}>
                    <th scope="row" className="px-3 py-2 font-semibold text-slate-900">
                      <ReviewerName row={row} />
                    </th>
                    <td className="px-3 py-2 tabular-nums">{row.decisions}</td>
                    <td className="px-3 py-2 tabular-nums">{row.approvals}</td>
                    <td className="px-3 py-2 tabular-nums">{row.rejections}</td>
                    <td className="px-3 py-2 tabular-nums">{row.needsChanges}</td>
                    <td className="px-3 py-2 tabular-nums">{percent(row.rejectionRate)}</td>
                    <td className="px-3 py-2 tabular-nums">{row.appealsLost}</td>
                    <td className="px-3 py-2 tabular-nums">{duration(t, row.medianDecisionSeconds)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul aria-label={t('title')} className="grid gap-3 md:hidden">
            {stats.reviewers.map((row) => (
              <li key={row.reviewerId}>
                <ReviewerCard row={row} />
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/** The reviewer's name (their id when they have none), and the alert when raised. */
function ReviewerName({ row }: { row: ReviewerStatsRow }) {
  const { t } = useTranslation('reviewers');
  return (
    <span className="grid gap-1">
      <span className="break-all">{row.name ?? row.reviewerId}</span>
      {row.rejectionRateAlert && (
        <span className="inline-flex items-center gap-1 text-xs font-semibold text-amber-800">
          <AlertTriangleIcon aria-hidden="true" className="size-4 shrink-0" />
          {t('alert')}
        </span>
      )}
    </span>
  );
}

function ReviewerCard({ row }: { row: ReviewerStatsRow }) {
  const { t } = useTranslation('reviewers');
  const titleId = `reviewer-${row.reviewerId}`;
  const figures: Array<[string, string | number]> = [
    [t('column.decisions'), row.decisions],
    [t('column.approvals'), row.approvals],
    [t('column.rejections'), row.rejections],
    [t('column.needsChanges'), row.needsChanges],
    [t('column.rejectionRate'), percent(row.rejectionRate)],
    [t('column.appealsLost'), row.appealsLost],
    [t('column.median'), duration(t, row.medianDecisionSeconds)],
  ];
  return (
    <article
      aria-labelledby={titleId}
      data-testid="reviewer-card"
      className={`grid gap-3 rounded-2xl border p-4 shadow-sm ${row.rejectionRateAlert ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white'}`}
    >
      <h2 id={titleId} className="font-semibold text-slate-900">
        <ReviewerName row={row} />
      </h2>
      <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 text-sm">
        {figures.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-right font-medium text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
