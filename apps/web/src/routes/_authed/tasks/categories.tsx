import { createFileRoute } from '@tanstack/react-router';
import { TaskCategoriesScreen } from '../../../features/tasks/TaskCategoriesScreen.tsx';

export const Route = createFileRoute('/_authed/tasks/categories')({
  component: TaskCategoriesScreen,
});
