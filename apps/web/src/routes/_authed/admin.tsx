import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderScreen } from '../../components/PlaceholderScreen.tsx';

export const Route = createFileRoute('/_authed/admin')({
  component: AdminPanelScreen,
});

function AdminPanelScreen() {
  return <PlaceholderScreen title="Admin Panel" note="The task catalogue will be managed here soon." />;
}
