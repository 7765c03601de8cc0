import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { SignedInLayout } from '../components/layouts.tsx';
import { currentUserQuery } from '../lib/queries.ts';
import { hadSession, toastSignedOut, waitForSignedOutRedirect } from '../lib/session.ts';
import { loadServerTexts } from '../i18n/serverTexts.ts';

/**
 * The signed-in area: every route under it needs a user, and a signed-out visitor goes to /login.
 * The user lands in the route context, so child loaders can use it without another read.
 * Profile: a signed-out visit to /profile is told so first, and sent after 500 ms
 * (only when this device had a session: a visitor who never signed in is not alarmed). Signing in
 * then returns to the page that was asked for.
 */
export const Route = createFileRoute('/_authed')({
  beforeLoad: async ({ context, location, preload }) => {
    const user = await context.queryClient.ensureQueryData(currentUserQuery());
    if (!user) {
      // A first-time visitor is sent to sign in quietly; a session that ended is told so.
      if (location.pathname === '/profile' && !preload && hadSession()) {
        toastSignedOut();
        await waitForSignedOutRedirect();
      }
      // Back to the page asked for once signed in (validated by the login route).
      throw redirect({ to: '/login', search: { redirect: location.href } });
    }
    // No consent record (registered before it was asked): asked first, whatever screen was asked for.
    if (user.consentRequired) throw redirect({ to: '/consent' });
    return { user };
  },
  // These screens show server texts as they render (ledger lines, notifications, rule texts), so
  // those texts are in before they draw; with the screen's code, not after it. Should they fail to
  // come, the screens still show, with the server's English.
  loader: () => loadServerTexts().catch(() => undefined),
  component: SignedInArea,
});

function SignedInArea() {
  return (
    <SignedInLayout>
      <Outlet />
    </SignedInLayout>
  );
}
