import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { currentUserQuery } from '../lib/queries.ts';
import { staffScreensOf } from '../lib/staffScreens.ts';

/**
 * The staff screens' way to each other: one link per screen the user's roles open (the current one
 * marked), wrapping onto a second line on a phone rather than being cut off. Hidden when the roles
 * open fewer than two screens: there is nowhere else to go.
 */
export function StaffNav() {
  // No suspending: the frame also draws in the loading screen, a Suspense fallback that cannot wait.
  const { t, ready } = useTranslation(undefined, { useSuspense: false });
  const { data: user } = useQuery(currentUserQuery());
  const screens = staffScreensOf(user);
  if (screens.length < 2 || !ready) return null;
  return (
    <nav aria-label={t('staff.nav')} className="mb-6" data-testid="staff-nav">
      <ul className="flex flex-wrap gap-2">
        {screens.map(({ path, label }) => (
          <li key={path}>
            <Link
              // Typed as a path the router knows: screens other branches add are in the list already.
              to={path as '/admin'}
              activeOptions={{ exact: true, includeSearch: false }}
              className="inline-flex min-h-11 items-center rounded-full border border-slate-200 bg-white px-4 text-sm font-medium text-slate-700 shadow-sm transition hover:border-emerald-600 hover:text-emerald-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 focus-visible:ring-offset-2 data-[status=active]:border-emerald-700 data-[status=active]:bg-emerald-700 data-[status=active]:text-white"
            >
              {t(label)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
