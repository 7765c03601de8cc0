import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderScreen } from '../../../components/PlaceholderScreen.tsx';

export const Route = createFileRoute('/_authed/tasks/rating')({
  component: RatingTasksScreen,
});

function RatingTasksScreen() {
  return <PlaceholderScreen title="Rating Tasks" note="Rate apps and services to earn rupees." />;
}
