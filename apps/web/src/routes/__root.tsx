import type { QueryClient } from '@tanstack/react-query';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { Suspense, lazy } from 'react';
import { NotFoundScreen } from '../components/NotFoundScreen.tsx';
import { OfflineBanner } from '../components/OfflineBanner.tsx';

// The toast region (Radix Toast and its layers) loads after the first screen: a toast raised before
// it arrives waits in the toast store and shows once it mounts. Keeps the initial JavaScript small.
const Toaster = lazy(() => import('../components/Toaster.tsx').then((m) => ({ default: m.Toaster })));

/** What every route's beforeLoad and loader receive: the one query client of the app. */
export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundScreen,
});

function RootLayout() {
  return (
    <>
      <OfflineBanner />
      <Outlet />
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </>
  );
}
