import { webhookDeliverySchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /webhooks/endpoints/:id/test: a TEST event to the endpoint. */
export function sendWebhookTest(endpointId: string) {
  return apiRequest(`/webhooks/endpoints/${encodeURIComponent(endpointId)}/test`, {
    method: 'POST',
    schema: webhookDeliverySchema,
  });
}
