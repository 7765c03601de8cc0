import type { QueryClient } from '@tanstack/react-query';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { NotFoundScreen } from '../components/NotFoundScreen.tsx';
import { OfflineBanner } from '../components/OfflineBanner.tsx';
import { Toaster } from '../components/Toaster.tsx';

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
      <Toaster />
    </>
  );
}
