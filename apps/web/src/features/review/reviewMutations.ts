import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppealBody, BulkReviewBody, BulkReviewRequest, DecideAppealRequest, RejectRequest, RequestChangesRequest, SubmissionBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { idempotencyHeader } from '../../lib/sendOnce.ts';
import { APPEALS_KEY, SUBMISSIONS_KEY } from '../../lib/queries.ts';

/**
 * Approve and reject a proof (reviewer or admin role); each refreshes the queue once done. The
 * submitter's wallet, tasks and notifications change too, but never the reviewer's own: the server
 * refuses to let anyone review their own proof.
 */
export function useApproveMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ submissionId, key }: { submissionId: string; key?: string }) =>
      readJson<SubmissionBody>(await apiRequest('POST', `/api/admin/submissions/${encodeURIComponent(submissionId)}/approve`, undefined, idempotencyHeader(key))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUBMISSIONS_KEY }),
  });
}

export function useRejectMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ submissionId, body, key }: { submissionId: string; body: RejectRequest; key?: string }) =>
      readJson<SubmissionBody>(await apiRequest('POST', `/api/admin/submissions/${encodeURIComponent(submissionId)}/reject`, body, idempotencyHeader(key))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUBMISSIONS_KEY }),
  });
}

/** One decision for the selected proofs; the answer says what became of each. */
export function useBulkReviewMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, key }: { body: BulkReviewRequest; key?: string }) =>
      readJson<BulkReviewBody>(await apiRequest('POST', '/api/admin/submissions/bulk', body, idempotencyHeader(key))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUBMISSIONS_KEY }),
  });
}

/** Sends a proof back for changes with a reason (canned or written), as a rejection is given. */
export function useRequestChangesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ submissionId, body, key }: { submissionId: string; body: RequestChangesRequest; key?: string }) =>
      readJson<SubmissionBody>(await apiRequest('POST', `/api/admin/submissions/${encodeURIComponent(submissionId)}/request-changes`, body, idempotencyHeader(key))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUBMISSIONS_KEY }),
  });
}

/** An appeal upheld or overturned (never by the reviewer who rejected: 403 `own_rejection`). */
export function useDecideAppealMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ appealId, body, key }: { appealId: string; body: DecideAppealRequest; key?: string }) =>
      readJson<AppealBody>(await apiRequest('POST', `/api/admin/appeals/${encodeURIComponent(appealId)}/decide`, body, idempotencyHeader(key))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: APPEALS_KEY }),
  });
}
