import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeletedTaskBody, TaskBody, TaskInputRequest } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { adminTaskFiguresQuery, adminTasksQuery, tasksQuery } from '../../lib/queries.ts';

/**
 * The admin's catalogue commands. Each one refreshes the users' task list and the
 * admin's catalogue, and is done only once both have been refetched.
 */
function useRefreshCatalogue() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: tasksQuery().queryKey }),
      queryClient.invalidateQueries({ queryKey: adminTasksQuery().queryKey }),
      queryClient.invalidateQueries({ queryKey: adminTaskFiguresQuery().queryKey }),
    ]);
}

export function useCreateTaskMutation() {
  const refresh = useRefreshCatalogue();
  return useMutation({
    mutationFn: async (task: TaskInputRequest) => readJson<TaskBody>(await apiRequest('POST', '/api/admin/tasks', task)),
    onSuccess: refresh,
  });
}

export function useUpdateTaskMutation() {
  const refresh = useRefreshCatalogue();
  return useMutation({
    mutationFn: async ({ id, task, etag }: { id: string; task: TaskInputRequest; etag: string }) =>
      readJson<TaskBody>(await apiRequest('PUT', `/api/admin/tasks/${encodeURIComponent(id)}`, task, { 'If-Match': etag })),
    onSuccess: refresh,
  });
}

export function useDeleteTaskMutation() {
  const refresh = useRefreshCatalogue();
  return useMutation({
    mutationFn: async ({ id, etag }: { id: string; etag: string }) =>
      readJson<DeletedTaskBody>(await apiRequest('DELETE', `/api/admin/tasks/${encodeURIComponent(id)}`, undefined, { 'If-Match': etag })),
    onSuccess: refresh,
  });
}
