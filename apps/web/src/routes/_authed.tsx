import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { SignedInLayout } from '../components/layouts.tsx';
import { currentUserQuery } from '../lib/queries.ts';
import { toastSignedOut, waitForSignedOutRedirect } from '../lib/session.ts';

/**
 * The signed-in area: every route under it needs a user, and a signed-out visitor goes to /login.
 * The user lands in the route context, so child loaders can use it without another read.
 * Spec section 2 (Profile): a signed-out visit to /profile is told so first, and sent after 500 ms.
 */
export const Route = createFileRoute('/_authed')({
  beforeLoad: async ({ context, location, preload }) => {
    const user = await context.queryClient.ensureQueryData(currentUserQuery());
    if (!user) {
      if (location.pathname === '/profile' && !preload) {
        toastSignedOut();
        await waitForSignedOutRedirect();
      }
      throw redirect({ to: '/login' });
    }
    return { user };
  },
  component: SignedInArea,
});

function SignedInArea() {
  return (
    <SignedInLayout>
      <Outlet />
    </SignedInLayout>
  );
}
