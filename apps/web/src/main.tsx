import './lib/cspNonce.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen.ts';
import { createQueryClient } from './lib/queryClient.ts';
import { PendingScreen } from './components/PendingScreen.tsx';
import { NotFoundScreen } from './components/NotFoundScreen.tsx';
import { ErrorScreen } from './components/ErrorScreen.tsx';
import { loadAllNamespaces } from './i18n/index.ts';
import { loadServerTexts } from './i18n/serverTexts.ts';
import { followSignedInUser } from './lib/session.ts';
import { registerServiceWorker } from './lib/serviceWorker.ts';
import { afterFirstScreen, firstScreenShown } from './lib/afterFirstScreen.ts';
import { gateNavigations } from './lib/historyStep.ts';
import { dropDrawnForm } from './first-screen/takeover.ts';
import './index.css';

const queryClient = createQueryClient();
followSignedInUser(queryClient);
registerServiceWorker();
// The other screens' texts, once the first screen has loaded: later navigations need not wait for them.
afterFirstScreen(() => void Promise.all([loadAllNamespaces(), loadServerTexts()]).catch(() => undefined));

const router = createRouter({
  routeTree,
  context: { queryClient },
  // While the signed-in state (or a screen's code) loads: the screen's skeleton in the signed-in frame.
  defaultPendingComponent: PendingScreen,
  defaultPendingMs: 150,
  defaultErrorComponent: ErrorScreen,
  defaultNotFoundComponent: NotFoundScreen,
  // Every unknown path shows the one 404 screen, whatever layout its prefix would belong to.
  notFoundMode: 'root',
  defaultPreload: 'intent',
  // The query cache decides freshness; the router must always run the loaders it is asked to.
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
});

// A dialog taking its history entry off must finish that step before the app navigates on.
gateNavigations(router.history);

// The first rendered match is the first screen: what waits for it may start (afterFirstScreen.ts).
const stopWatching = router.subscribe('onRendered', () => {
  stopWatching();
  firstScreenShown();
});
// The sign-in form the server drew into /login is LoginScreen's to take over; on any other screen (a
// signed-in reader sent on from /login) it goes once that screen has rendered.
router.subscribe('onRendered', ({ toLocation }) => {
  if (toLocation.pathname !== '/login') dropDrawnForm();
});
// Should no match ever render (a screen that keeps loading), toasts and the service worker still come.
window.addEventListener('load', () => setTimeout(firstScreenShown, 5000), { once: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html lacks the #root element');

// A transition: React (`vite dev`) renders the first screen in slices that yield to the browser, rather
// than in one long task that blocks input (Lighthouse's total blocking time). The production build's
// Preact renders at once (compat's startTransition just calls back); its render is the smaller task.
const root = createRoot(rootElement);
startTransition(() => {
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
});
