import { webhookDeliverySchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /webhooks/deliveries/:id/redeliver: a new attempt chain, same webhook-id. */
export function redeliverWebhook(deliveryId: string) {
  return apiRequest(`/webhooks/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, {
    method: 'POST',
    schema: webhookDeliverySchema,
  });
}
