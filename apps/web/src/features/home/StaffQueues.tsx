import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { StaffQueue, UserBody } from '@kamai/contracts';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { serverErrorMessage } from '../../lib/serverError.ts';
import { staffScreensOf } from '../../lib/staffScreens.ts';
import { staffQueuesQuery } from './staffQueues.ts';

/** Queues that are a problem when not empty (money held up), drawn in amber. */
const URGENT: readonly StaffQueue[] = ['payoutsLate'];

/**
 * A staff member's work, first on Home: one card per queue of their roles with how much waits in
 * it, each a link to the screen where it is worked on. Renders nothing for a user without a role.
 */
export function StaffQueues({ user }: { user: Pick<UserBody, 'roles' | 'isAdmin'> }) {
  const { t } = useTranslation('home');
  const cards = staffScreensOf(user).flatMap((screen) => (screen.queues ?? []).map((queue) => ({ queue, path: screen.path })));
  const counts = useQuery({ ...staffQueuesQuery(), enabled: cards.length > 0 });
  if (cards.length === 0) return null;
  return (
    <section aria-labelledby="queues-heading" className="grid gap-3" data-testid="staff-queues">
      <h2 id="queues-heading" className="text-lg font-semibold">
        {t('queues.heading')}
      </h2>
      {counts.isError ? (
        <LoadFailed title={t('queues.failed')} message={serverErrorMessage(counts.error, t('common:error.body'))} error={counts.error} onRetry={() => void counts.refetch()} />
      ) : (
        <ul className="grid grid-cols-2 gap-3">
          {cards.map(({ queue, path }) => {
            const count = counts.data?.[queue];
            const urgent = URGENT.includes(queue) && (count ?? 0) > 0;
            return (
              <li key={queue}>
                <Link
                  to={path as '/admin'}
                  data-testid={`queue-${queue}`}
                  className={`grid h-full min-h-24 content-start gap-1 rounded-2xl border bg-white p-4 shadow-sm transition hover:border-emerald-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 focus-visible:ring-offset-2 ${urgent ? 'border-amber-400' : 'border-slate-200'}`}
                >
                  {count === undefined ? (
                    <span aria-hidden="true" className="h-8 w-10 animate-pulse rounded bg-slate-200" />
                  ) : (
                    <span data-testid="queue-count" className={`text-2xl font-bold tracking-tight ${urgent ? 'text-amber-800' : 'text-slate-900'}`}>
                      {count}
                    </span>
                  )}
                  <span className="text-sm font-medium text-slate-700">{t(`queues.${queue}`)}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
