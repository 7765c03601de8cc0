import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDeliveryBody, WebhookEndpointBody, WebhookEndpointCreatedBody, WebhookEventKind } from '@kamai/contracts';
import { apiRequest, getJson, readJson } from '../../lib/api.ts';

const ENDPOINTS_KEY = ['/api/admin/webhooks'] as const;

/** The endpoints not deleted: `GET /api/admin/webhooks`. */
export const webhooksQuery = () => queryOptions({ queryKey: ENDPOINTS_KEY, queryFn: getJson<WebhookEndpointBody[]>() });

/** One endpoint's newest deliveries; read afresh each time the log opens. */
export const webhookDeliveriesQuery = (id: string) =>
  queryOptions({ queryKey: [`/api/admin/webhooks/${encodeURIComponent(id)}/deliveries`], queryFn: getJson<WebhookDeliveryBody[]>(), staleTime: 0 });

export function useRegisterWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { url: string; events: WebhookEventKind[] }) => {
      const created = await readJson<WebhookEndpointCreatedBody>(await apiRequest('POST', '/api/admin/webhooks', body));
      if (!created) throw new Error('empty answer');
      return created;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ENDPOINTS_KEY }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/admin/webhooks/${encodeURIComponent(id)}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ENDPOINTS_KEY }),
  });
}
