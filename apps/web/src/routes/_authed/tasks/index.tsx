import { createFileRoute, redirect } from '@tanstack/react-router';

/** /tasks has no screen of its own; it leads to the category overview. */
export const Route = createFileRoute('/_authed/tasks/')({
  beforeLoad: () => {
    throw redirect({ to: '/tasks/categories', replace: true });
  },
});
