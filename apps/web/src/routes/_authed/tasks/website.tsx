import { createFileRoute } from '@tanstack/react-router';
import { TaskListScreen } from '../../../features/tasks/TaskListScreen.tsx';
import { tasksQuery, userTasksQuery } from '../../../lib/queries.ts';

export const Route = createFileRoute('/_authed/tasks/website')({
  // Started, not awaited: the screen shows its skeletons while the lists load.
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(tasksQuery());
    void queryClient.prefetchQuery(userTasksQuery());
  },
  component: WebsiteVisitTasksScreen,
});

function WebsiteVisitTasksScreen() {
  return <TaskListScreen list="website" />;
}
