import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SettingsBody, SettingsChangeRequestBody } from '@kamai/contracts';
import { apiRequest, getJson, readJson } from '../../lib/api.ts';

/** The requests to change control settings that wait for a second admin. */
export const settingsRequestsQuery = () =>
  queryOptions({
    queryKey: ['/api/admin/settings/requests'],
    queryFn: getJson<SettingsChangeRequestBody[]>(),
  });

/** PUT's answer: the settings (200), or the settings in force and the request made (202). */
export type SaveAnswer = { settings: SettingsBody; request: SettingsChangeRequestBody | null };

/** These routes always answer with a body. */
function answered<T>(body: T | null): T {
  if (body === null) throw new Error('empty answer');
  return body;
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: ['/api/settings'] }), queryClient.invalidateQueries({ queryKey: ['/api/admin/settings/requests'] })]);
}

export function useSaveSettings() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: Record<string, unknown>): Promise<SaveAnswer> => {
      const response = await apiRequest('PUT', '/api/admin/settings', body);
      if (response.status === 202) return answered(await readJson<{ settings: SettingsBody; request: SettingsChangeRequestBody }>(response));
      return { settings: answered(await readJson<SettingsBody>(response)), request: null };
    },
    onSettled: refresh,
  });
}

/** Approves or drops one request; both lists are read again whatever the answer. */
export function useDecideRequest() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ id, decision }: { id: string; decision: 'approve' | 'reject' }) =>
      answered(
        await readJson<{ request: SettingsChangeRequestBody; settings: SettingsBody }>(
          await apiRequest('POST', `/api/admin/settings/requests/${encodeURIComponent(id)}/${decision}`),
        ),
      ),
    onSettled: refresh,
  });
}
