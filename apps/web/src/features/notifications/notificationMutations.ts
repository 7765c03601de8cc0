import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';
import { notificationsQuery } from '../../lib/queries.ts';

/** One notification read, all read, one deleted; each reads the list again. */

function useNotificationMutation<Input>(request: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQuery().queryKey }),
  });
}

export const useMarkReadMutation = () =>
  useNotificationMutation((id: string) => apiRequest('PUT', `/api/notifications/${encodeURIComponent(id)}/read`));

export const useMarkAllReadMutation = () => useNotificationMutation(() => apiRequest('PUT', '/api/notifications/read-all'));

export const useDeleteNotificationMutation = () =>
  useNotificationMutation((id: string) => apiRequest('DELETE', `/api/notifications/${encodeURIComponent(id)}`));
