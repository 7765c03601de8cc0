import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderScreen } from '../../../components/PlaceholderScreen.tsx';

export const Route = createFileRoute('/_authed/tasks/categories')({
  component: TaskCategoriesScreen,
});

function TaskCategoriesScreen() {
  return <PlaceholderScreen title="Task Categories" note="Rating, website visit and gaming tasks will be listed here soon." />;
}
