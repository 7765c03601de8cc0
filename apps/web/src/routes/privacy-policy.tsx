import { createFileRoute } from '@tanstack/react-router';
import { StaticPageLayout } from '../components/layouts.tsx';
import { PlaceholderScreen } from '../components/PlaceholderScreen.tsx';

/** Reachable signed in or out, so it sits outside both layouts and has no guard. */
export const Route = createFileRoute('/privacy-policy')({
  component: PrivacyPolicyPage,
});

function PrivacyPolicyPage() {
  return (
    <StaticPageLayout>
      <PlaceholderScreen title="Privacy Policy" note="Our privacy policy will be published here soon." />
    </StaticPageLayout>
  );
}
