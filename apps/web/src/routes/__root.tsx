import type { QueryClient } from '@tanstack/react-query';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { Suspense, lazy } from 'react';
import { useAfterFirstScreen } from '../lib/afterFirstScreen.ts';
import { loadServerTexts } from '../i18n/serverTexts.ts';
import { NotFoundScreen } from '../components/NotFoundScreen.tsx';
import { OfflineBanner } from '../components/OfflineBanner.tsx';

// The toast region (Radix Toast and its layers) loads after the first screen has shown: a toast
// raised before it arrives waits in the toast store and shows once it mounts. Keeps the JavaScript
// fetched before the first screen small.
// A toast shows a server's text in the reader's language: those texts come with it.
const Toaster = lazy(() => Promise.all([import('../components/Toaster.tsx'), loadServerTexts().catch(() => null)]).then(([m]) => ({ default: m.Toaster })));

/** What every route's beforeLoad and loader receive: the one query client of the app. */
export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundScreen,
});

function RootLayout() {
  const toasterWanted = useAfterFirstScreen();
  return (
    <>
      <OfflineBanner />
      <Outlet />
      {toasterWanted && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </>
  );
}
