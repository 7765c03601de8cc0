import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderScreen } from '../../../components/PlaceholderScreen.tsx';

export const Route = createFileRoute('/_authed/tasks/website')({
  component: WebsiteVisitTasksScreen,
});

function WebsiteVisitTasksScreen() {
  return <PlaceholderScreen title="Website Visit Tasks" note="Visit websites and complete simple actions." />;
}
