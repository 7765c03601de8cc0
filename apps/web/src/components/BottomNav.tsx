import { Link } from '@tanstack/react-router';
import type { ComponentType, SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { HomeIcon, UserIcon, WalletIcon } from './icons.tsx';

interface NavEntry {
  to: '/' | '/wallet' | '/profile';
  label: 'nav.home' | 'nav.wallet' | 'nav.profile';
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
}

/** Exactly these three entries. */
const NAV_ENTRIES: readonly NavEntry[] = [
  { to: '/', label: 'nav.home', Icon: HomeIcon },
  { to: '/wallet', label: 'nav.wallet', Icon: WalletIcon },
  { to: '/profile', label: 'nav.profile', Icon: UserIcon },
];

/**
 * The signed-in bottom bar. The router marks the entry of the current path active (and sets
 * aria-current="page" on it); Home only matches '/' itself, not every path below it.
 */
export function BottomNav() {
  // No suspending: the bar also draws in the loading screen, a Suspense fallback that cannot wait.
  const { t, ready } = useTranslation(undefined, { useSuspense: false });
  return (
    <nav
      aria-label={ready ? t('nav.main') : undefined}
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur"
    >
      <ul className="mx-auto grid max-w-sm grid-cols-3">
        {NAV_ENTRIES.map(({ to, label, Icon }) => (
          <li key={to}>
            <Link
              to={to}
              activeOptions={{ exact: to === '/' }}
              className="flex h-16 flex-col items-center justify-center gap-1 text-xs font-medium text-slate-600 transition hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-emerald-600 data-[status=active]:text-emerald-700"
            >
              <Icon className="size-6" />
              {ready && t(label)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
