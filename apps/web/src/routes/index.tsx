import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { GuestLayout, SignedInLayout } from '../components/layouts.tsx';
import { LoginScreen } from '../features/auth/LoginScreen.tsx';
import { HomeScreen } from '../features/home/HomeScreen.tsx';
import { loadNamespaces } from '../i18n/index.ts';
import { currentUserQuery } from '../lib/queries.ts';

/** Spec route table: '/' is Home when signed in and the login screen when signed out. */
export const Route = createFileRoute('/')({
  beforeLoad: async ({ context }) => {
    await context.queryClient.ensureQueryData(currentUserQuery());
  },
  // The texts of the screen this path shows, fetched while its code loads (not after it renders).
  loader: ({ context }) =>
    context.queryClient.getQueryData(currentUserQuery().queryKey) ? loadNamespaces('home', 'tasks', 'kyc') : loadNamespaces('auth'),
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
