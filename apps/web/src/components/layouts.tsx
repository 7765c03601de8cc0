import { Link, useRouterState } from '@tanstack/react-router';
import { type ReactNode, createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { BottomNav } from './BottomNav.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { StaffNav } from './StaffNav.tsx';
import { ArrowLeftIcon } from './icons.tsx';
import { guestMainClasses } from './styles.ts';

const InSignedInLayout = createContext(false);

/**
 * Whether this renders inside the signed-in frame: a loading or failed screen there fills only the
 * content and keeps the bottom bar; outside it (a deep link, no frame yet) it brings the frame along.
 */
export const useInSignedInLayout = () => useContext(InSignedInLayout);

/**
 * The signed-in frame: a narrow centred column above the bottom navigation bar. Staff screens
 * (/admin…) work at a desk, so they take the width of a desktop and still fit a phone, and start
 * with the links to the other staff screens.
 */
export function SignedInLayout({ children }: { children: ReactNode }) {
  const staff = useRouterState({ select: (state) => state.location.pathname.startsWith('/admin') });
  return (
    <InSignedInLayout.Provider value={true}>
      <div className="min-h-dvh">
        <main className={`mx-auto w-full px-4 pt-6 pb-28 ${staff ? 'max-w-6xl' : 'max-w-sm'}`}>
          {staff && <StaffNav />}
          {children}
        </main>
        <BottomNav />
      </div>
    </InSignedInLayout.Provider>
  );
}

function BrandMark() {
  return (
    <div className="flex items-center gap-2">
      <span aria-hidden="true" className="grid size-10 place-items-center rounded-xl bg-emerald-700 text-xl font-bold text-white">
        ₹
      </span>
      <span className="text-2xl font-bold tracking-tight text-slate-900">Kamai</span>
    </div>
  );
}

/** The signed-out frame of the login and register screens. */
export function GuestLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className={guestMainClasses}>
      <div className="mb-8 grid gap-2">
        <div className="flex items-center justify-between gap-3">
          <BrandMark />
          <LanguageSwitch />
        </div>
        <p className="text-sm text-slate-600">{t('tagline')}</p>
      </div>
      {children}
    </main>
  );
}

/** A page reachable signed in or out (privacy policy, account deletion): a column with a way home. */
export function StaticPageLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="mx-auto w-full max-w-2xl px-5 py-6">
      <Link to="/" className="mb-6 inline-flex min-h-11 items-center gap-2 text-sm font-medium text-emerald-700 hover:underline">
        <ArrowLeftIcon className="size-4" />
        {t('backToHome')}
      </Link>
      {children}
    </main>
  );
}
