import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { BellIcon } from '../../components/icons.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { serverErrorMessage } from '../../lib/serverError.ts';
import { formatRupees } from '../../lib/format.ts';
import { moneyInFlight } from '../wallet/moneyStatus.ts';
import { currentUserQuery, tasksQuery, userTasksQuery } from '../../lib/queries.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { CategoryCards } from '../tasks/CategoryCards.tsx';
import { useUnreadCount } from '../notifications/useUnreadCount.ts';
import { countTasksByList } from '@kamai/contracts';
import { KycBanner } from '../kyc/KycLinks.tsx';
import { StaffQueues } from './StaffQueues.tsx';
import { NeverPayNotice } from './NeverPayNotice.tsx';
import { AlertsPrompt } from './AlertsPrompt.tsx';

/**
 * Home: greeting, the user's rupees, a bell with the unread count (to /profile),
 * and the three category cards with live counts of active tasks. Renders nothing without a user.
 * Staff see their queues first: they come to work, and may still earn with tasks below.
 */
export function HomeScreen() {
  const { t } = useTranslation('home');
  usePageTitle(t('pageTitle'));
  const { data: user } = useQuery(currentUserQuery());
  const tasks = useQuery({ ...tasksQuery(), enabled: Boolean(user) });
  const userTasks = useQuery({ ...userTasksQuery(), enabled: Boolean(user) });
  if (!user) return null;

  const name = user.firstName || user.username;
  const counts = tasks.data ? countTasksByList(tasks.data) : undefined;
  const inFlight = moneyInFlight(userTasks.data, user.pendingPayout);
  return (
    <div className="grid gap-6">
      <header className="flex items-start justify-between gap-3">
        <div className="grid gap-1">
          <p className="text-sm text-slate-500">{t('welcome')}</p>
          <h1 className="text-2xl font-bold tracking-tight">{t('hello', { name })}</h1>
        </div>
        <NotificationBell />
      </header>

      <StaffQueues user={user} />

      <section
        aria-labelledby="total-rupees-label"
        className="rounded-2xl bg-gradient-to-br from-emerald-700 to-teal-700 p-5 text-white shadow-md"
      >
        <p id="total-rupees-label" className="text-sm text-emerald-50">
          {t('totalRupees')}
        </p>
        <p className="mt-1 text-3xl font-bold tracking-tight" data-testid="total-rupees">
          {formatRupees(user.totalRupees)}
        </p>
        <p className="mt-2 text-xs text-emerald-50" data-testid="total-earned">
          {t('earnedInAll', { amount: formatRupees(user.totalEarned) })}
        </p>
        <MoneyInFlight underReviewPaise={inFlight.underReviewPaise} onItsWayPaise={inFlight.onItsWayPaise} />
      </section>

      <KycBanner user={user} />

      <AlertsPrompt hasApproval={userTasks.data?.some((task) => task.status === 'approved') ?? false} />

      <NeverPayNotice />

      <section aria-labelledby="tasks-heading" className="grid gap-3">
        <div className="flex items-baseline justify-between gap-3">
          <h2 id="tasks-heading" className="text-lg font-semibold">
            {t('earnWithTasks')}
          </h2>
          <Link to="/tasks/categories" className="inline-flex min-h-11 min-w-11 items-center text-sm font-medium text-emerald-700 hover:underline">
            {t('seeAll')}
          </Link>
        </div>
        {tasks.isError ? (
          <LoadFailed title={t('tasksFailed')} message={serverErrorMessage(tasks.error, t('common:error.body'))} error={tasks.error} onRetry={() => void tasks.refetch()} />
        ) : (
          <CategoryCards counts={counts} />
        )}
        {tasks.data?.length === 0 && (
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-4 text-center text-sm text-slate-600">
            {t('noTasks')}
          </p>
        )}
      </section>
    </div>
  );
}

/**
 * "₹X under review · ₹Y on its way": rewards of proofs waiting for review and withdrawals requested
 * but not paid yet, so nobody wonders where their money is. Links to the wallet, where each
 * withdrawal shows its status. Hidden when there is none of either.
 */
function MoneyInFlight({ underReviewPaise, onItsWayPaise }: { underReviewPaise: number; onItsWayPaise: number }) {
  const { t } = useTranslation('home');
  if (underReviewPaise === 0 && onItsWayPaise === 0) return null;
  const parts = [
    underReviewPaise > 0 ? t('underReview', { amount: formatRupees(underReviewPaise / 100) }) : null,
    onItsWayPaise > 0 ? t('onItsWay', { amount: formatRupees(onItsWayPaise / 100) }) : null,
  ].filter(Boolean);
  return (
    <Link
      to="/wallet"
      data-testid="money-in-flight"
      className="mt-3 inline-flex min-h-11 items-center rounded-lg bg-white/15 px-3 text-sm font-medium text-white underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
    >
      {parts.join(' · ')}
    </Link>
  );
}

/** The bell: a link to /profile (where the notifications live) with the number of unread ones. */
function NotificationBell() {
  const { t } = useTranslation('home');
  const unread = useUnreadCount();
  return (
    <Link
      to="/profile"
      aria-label={unread > 0 ? t('bellUnread', { count: unread }) : t('bell')}
      className="relative grid size-11 shrink-0 place-items-center rounded-full border border-slate-200 bg-white text-slate-700 shadow-sm transition hover:text-emerald-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 focus-visible:ring-offset-2"
    >
      <BellIcon className="size-5" />
      {unread > 0 && (
        <span
          data-testid="unread-count"
          className="absolute -top-1 -right-1 grid h-5 min-w-5 place-items-center rounded-full bg-red-700 px-1 text-[11px] font-bold text-white ring-2 ring-slate-50"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
