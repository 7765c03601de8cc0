import { useQuery } from '@tanstack/react-query';
import { createFileRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { GuestLayout, SignedInLayout } from '../components/layouts.tsx';
import { loadNamespaces } from '../i18n/index.ts';
import { currentUserQuery, notificationsQuery, tasksQuery, userTasksQuery, withdrawalsQuery } from '../lib/queries.ts';
import { mayHaveSession } from '../lib/sessionHint.ts';
import { staffScreensOf } from '../lib/staffScreens.ts';
import { staffQueuesQuery } from '../features/home/staffQueues.ts';

// One of the two screens shows here. Both are in the `first` chunk, which index.html preloads beside
// the entry (vite.config.ts: on a slow network a round trip costs more than the other screen's bytes);
// lazy still, so neither runs before it is needed.
const LoginScreen = lazyRouteComponent(() => import('../features/auth/LoginScreen.tsx'), 'LoginScreen');
const HomeScreen = lazyRouteComponent(() => import('../features/home/HomeScreen.tsx'), 'HomeScreen');

/** The code and texts of the screen '/' shows, for a signed-in user or a visitor. */
const loadScreen = (signedIn: boolean) =>
  Promise.all(signedIn ? [HomeScreen.preload?.(), loadNamespaces('home', 'categories')] : [LoginScreen.preload?.(), loadNamespaces('auth')]);

/** Spec route table: '/' is Home when signed in and the login screen when signed out. */
export const Route = createFileRoute('/')({
  // The component stays in the first download (it is small, and so are the layouts): split off, it
  // would be fetched only after the user read, one more round trip before the screen shows. The
  // screens themselves are the lazy chunks above.
  codeSplitGroupings: [['pendingComponent']],
  beforeLoad: async ({ context }) => {
    // The likely screen starts loading now, alongside the read of the user, not after it; for a
    // likely Home its task list too (on a slow network that read was one more round trip after the
    // user's). A stale hint costs that read, answered 401, and nothing else.
    const likelySignedIn = mayHaveSession();
    void loadScreen(likelySignedIn).catch(() => undefined);
    if (likelySignedIn) void context.queryClient.prefetchQuery(tasksQuery());
    const user = await context.queryClient.ensureQueryData(currentUserQuery());
    // As in the signed-in area (_authed.tsx): someone without a consent record is asked first.
    if (user?.consentRequired) throw redirect({ to: '/consent' });
  },
  // The screen's code and texts, both in before it renders (not one after the other).
  loader: async ({ context: { queryClient } }) => {
    const user = queryClient.getQueryData(currentUserQuery().queryKey);
    const signedIn = Boolean(user);
    // Home's reads start with its code, not once it has rendered; not awaited (it has skeletons).
    if (signedIn) {
      if (staffScreensOf(user).some((screen) => screen.queues)) void queryClient.prefetchQuery(staffQueuesQuery());
      void queryClient.prefetchQuery(tasksQuery());
      void queryClient.prefetchQuery(userTasksQuery());
      void queryClient.prefetchQuery(withdrawalsQuery());
      void queryClient.prefetchQuery(notificationsQuery());
    }
    await loadScreen(signedIn);
  },
  component: IndexScreen,
});

function IndexScreen() {
  const { data: user } = useQuery(currentUserQuery());
  if (user) {
    return (
      <SignedInLayout>
        <HomeScreen />
      </SignedInLayout>
    );
  }
  return (
    <GuestLayout>
      <LoginScreen />
    </GuestLayout>
  );
}
