import { webhookEndpointSchema, type UpdateWebhookEndpoint } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** PUT /webhooks/endpoints/:id (URL, events, enabled). */
export function updateWebhook(endpointId: string, changes: UpdateWebhookEndpoint) {
  return apiRequest(`/webhooks/endpoints/${encodeURIComponent(endpointId)}`, {
    method: 'PUT',
    body: changes,
    schema: webhookEndpointSchema,
  });
}
