import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { KycCompleteBody, KycDocumentBody, KycDocumentRequest, KycDocumentStatus, KycQueueItem, KycRejectRequest } from '@kamai/contracts';
import { apiRequest, getJson, readJson } from '../../lib/api.ts';
import { currentUserQuery, notificationsQuery, transactionsQuery } from '../../lib/queries.ts';

/** The signed-in user's KYC documents: the latest submission of each; one never submitted is absent. */
export const kycDocumentsQuery = () =>
  queryOptions({
    queryKey: ['/api/kyc/documents'],
    queryFn: getJson<KycDocumentBody[]>(),
  });

/** The key prefix of every status of the KYC queue: invalidating it refreshes them all. */
const KYC_QUEUE_KEY = ['/api/admin/kyc'] as const;

/** The reviewers' KYC queue (reviewer role): `GET /api/admin/kyc?status=...`, pending oldest first. */
export const kycQueueQuery = (status: KycDocumentStatus = 'pending') =>
  queryOptions({
    queryKey: [...KYC_QUEUE_KEY, { status }],
    queryFn: async (context): Promise<KycQueueItem[]> => {
      const url = `/api/admin/kyc?status=${encodeURIComponent(status)}`;
      return getJson<KycQueueItem[]>()({ ...context, queryKey: [url] });
    },
  });

/** Submits one document (both images uploaded with purpose kyc); refreshes the documents. */
export function useSubmitKycDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: KycDocumentRequest) => readJson<KycDocumentBody>(await apiRequest('POST', '/api/kyc/documents', body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: kycDocumentsQuery().queryKey }),
  });
}

/** Claims the bonus; the user (kycStatus, balance), the wallet and the notifications change. */
export function useClaimKycBonus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => readJson<KycCompleteBody>(await apiRequest('POST', '/api/kyc/complete')),
    onSettled: () =>
      Promise.all(
        [currentUserQuery(), transactionsQuery(), notificationsQuery(), kycDocumentsQuery()].map((query) =>
          queryClient.invalidateQueries({ queryKey: query.queryKey }),
        ),
      ),
  });
}

export function useApproveKycDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (documentId: string) =>
      readJson<KycQueueItem>(await apiRequest('POST', `/api/admin/kyc/${encodeURIComponent(documentId)}/approve`)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KYC_QUEUE_KEY }),
  });
}

export function useRejectKycDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ documentId, body }: { documentId: string; body: KycRejectRequest }) =>
      readJson<KycQueueItem>(await apiRequest('POST', `/api/admin/kyc/${encodeURIComponent(documentId)}/reject`, body)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KYC_QUEUE_KEY }),
  });
}
