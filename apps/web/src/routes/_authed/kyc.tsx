import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderScreen } from '../../components/PlaceholderScreen.tsx';

export const Route = createFileRoute('/_authed/kyc')({
  component: KycVerificationScreen,
});

function KycVerificationScreen() {
  return <PlaceholderScreen title="KYC Verification" note="Verify your identity with your PAN Card and Voter ID here soon." />;
}
