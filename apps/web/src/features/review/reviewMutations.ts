import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RejectRequest, SubmissionBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { SUBMISSIONS_KEY } from '../../lib/queries.ts';

/**
 * Approve and reject a proof (reviewer or admin role); each refreshes the queue once done. The
 * submitter's wallet, tasks and notifications change too, but never the reviewer's own: the server
 * refuses to let anyone review their own proof.
 */
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
