import { createFileRoute } from '@tanstack/react-router';
import { StaticPageLayout } from '../components/layouts.tsx';
import { PlaceholderScreen } from '../components/PlaceholderScreen.tsx';

/** Reachable signed in or out, so it sits outside both layouts and has no guard. */
export const Route = createFileRoute('/delete-account')({
  component: DeleteAccountPage,
});

function DeleteAccountPage() {
  return (
    <StaticPageLayout>
      <PlaceholderScreen title="Delete Account" note="How to request the deletion of your account will be explained here soon." />
    </StaticPageLayout>
  );
}
