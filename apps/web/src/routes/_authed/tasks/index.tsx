import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderScreen } from '../../../components/PlaceholderScreen.tsx';

export const Route = createFileRoute('/_authed/tasks/')({
  component: TasksScreen,
});

function TasksScreen() {
  return <PlaceholderScreen title="Tasks" note="Your tasks will be listed here soon." />;
}
