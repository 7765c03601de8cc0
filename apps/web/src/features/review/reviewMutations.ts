import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RejectRequest, SubmissionBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';

/** Every status of the review queue, for invalidation (see `submissionsQuery`). */
const SUBMISSIONS_KEY = ['/api/admin/submissions'] as const;

/** Approve and reject a proof (reviewer or admin role); each refreshes the queue once done. */
export function useApproveMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (submissionId: string) =>
      readJson<SubmissionBody>(await apiRequest('POST', `/api/admin/submissions/${encodeURIComponent(submissionId)}/approve`)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUBMISSIONS_KEY }),
  });
}

export function useRejectMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ submissionId, body }: { submissionId: string; body: RejectRequest }) =>
      readJson<SubmissionBody>(await apiRequest('POST', `/api/admin/submissions/${encodeURIComponent(submissionId)}/reject`, body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUBMISSIONS_KEY }),
  });
}
