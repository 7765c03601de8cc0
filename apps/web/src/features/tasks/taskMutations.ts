import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppealOpenedBody, AppealRequest, SubmitProofRequest, UserTaskBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { idempotencyHeader } from '../../lib/sendOnce.ts';
import { SUBMISSIONS_KEY, tasksQuery, userTasksQuery } from '../../lib/queries.ts';

/**
 * `POST /api/tasks/{id}/submit-proof`. Afterwards both task lists are refreshed,
 * and the review queue the proof joins, which a reviewer may have read; the refresh is not awaited,
 * so the dialog closes at once and the card follows a moment later.
 */
export function useSubmitProofMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ taskId, proof, key }: { taskId: string; proof: SubmitProofRequest; key?: string }) =>
      readJson<UserTaskBody>(await apiRequest('POST', `/api/tasks/${encodeURIComponent(taskId)}/submit-proof`, proof, idempotencyHeader(key))),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: tasksQuery().queryKey });
      void queryClient.invalidateQueries({ queryKey: userTasksQuery().queryKey });
      void queryClient.invalidateQueries({ queryKey: SUBMISSIONS_KEY });
    },
  });
}

/**
 * `POST /api/submissions/{id}/appeal`: the person appeals their rejected proof (once). The task list
 * then shows the appeal's state.
 */
export function useAppealMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ submissionId, body, key }: { submissionId: string; body: AppealRequest; key?: string }) =>
      readJson<AppealOpenedBody>(await apiRequest('POST', `/api/submissions/${encodeURIComponent(submissionId)}/appeal`, body, idempotencyHeader(key))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userTasksQuery().queryKey }),
  });
}
