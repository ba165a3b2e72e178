import { useQuery } from '@tanstack/react-query';
import { webhookDeliveryListSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

export const webhookDeliveriesQueryKey = (endpointId: string, page: number) =>
  ['webhook-deliveries', endpointId, page] as const;

/** GET /webhooks/endpoints/:id/deliveries?page=: newest first. */
export function listWebhookDeliveries(endpointId: string, page: number) {
  return apiRequest(`/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries?page=${page}`, {
    schema: webhookDeliveryListSchema,
    quiet: true,
  });
}

/** Read again every few seconds while shown: attempts land while the operator watches. */
export function useWebhookDeliveries(endpointId: string, page: number) {
  return useQuery({
    queryKey: webhookDeliveriesQueryKey(endpointId, page),
    queryFn: () => listWebhookDeliveries(endpointId, page),
    staleTime: 0,
    refetchInterval: 3_000,
  });
}
