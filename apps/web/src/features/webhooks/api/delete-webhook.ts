import { messageResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /webhooks/endpoints/:id (its deliveries go with it). */
export function deleteWebhook(endpointId: string) {
  return apiRequest(`/webhooks/endpoints/${encodeURIComponent(endpointId)}`, {
    method: 'DELETE',
    schema: messageResponseSchema,
  });
}
