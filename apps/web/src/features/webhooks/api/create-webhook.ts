import { createdWebhookEndpointSchema, type CreateWebhookEndpoint } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { webhookOwnerPath, type WebhookOwner } from './webhook-owner';

/** POST /webhooks/{extractor|scheduler}/:id: the answer carries the secret, shown this once. */
export function createWebhook(owner: Pick<WebhookOwner, 'kind' | 'id'>, endpoint: CreateWebhookEndpoint) {
  return apiRequest(webhookOwnerPath(owner), {
    method: 'POST',
    body: endpoint,
    schema: createdWebhookEndpointSchema,
  });
}
