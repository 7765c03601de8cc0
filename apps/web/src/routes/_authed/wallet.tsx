import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderScreen } from '../../components/PlaceholderScreen.tsx';

export const Route = createFileRoute('/_authed/wallet')({
  component: WalletScreen,
});

function WalletScreen() {
  return <PlaceholderScreen title="Wallet" note="Your balance and recent activity will show here soon." />;
}
