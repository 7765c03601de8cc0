import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderScreen } from '../../../components/PlaceholderScreen.tsx';

export const Route = createFileRoute('/_authed/tasks/games')({
  component: GamingTasksScreen,
});

function GamingTasksScreen() {
  return <PlaceholderScreen title="Gaming Tasks" note="Download and play games to earn rewards." />;
}
