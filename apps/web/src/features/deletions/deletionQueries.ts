import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminDeletionBody, DeletionStatus } from '@kamai/contracts';
import { apiRequest, getJson, readJson } from '../../lib/api.ts';
import { idempotencyHeader } from '../../lib/sendOnce.ts';

/** The key prefix of every status of the deletions list: invalidating it refreshes them all. */
export const DELETIONS_KEY = ['/api/admin/deletions'] as const;

/** Admins' list of deletion requests of one status, oldest first: `GET /api/admin/deletions?status=`. */
export const deletionsQuery = (status: DeletionStatus = 'pending') =>
  queryOptions({
    queryKey: [...DELETIONS_KEY, { status }],
    queryFn: async (context): Promise<AdminDeletionBody[]> => {
      const url = `/api/admin/deletions?status=${encodeURIComponent(status)}`;
      return getJson<AdminDeletionBody[]>()({ ...context, queryKey: [url] });
    },
  });

/** Carries out one request; the list is read again whatever the answer (a refusal may mean it changed). */
export function useEraseMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, key }: { id: string; key?: string }) =>
      readJson<AdminDeletionBody>(await apiRequest('POST', `/api/admin/deletions/${encodeURIComponent(id)}/erase`, undefined, idempotencyHeader(key))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: DELETIONS_KEY }),
  });
}
