import { useQuery } from '@tanstack/react-query';
import { webhookEndpointListSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { webhookOwnerPath, type WebhookOwner } from './webhook-owner';

export const webhooksQueryKey = (owner: Pick<WebhookOwner, 'kind' | 'id'>) =>
  ['webhooks', owner.kind, owner.id] as const;

/** GET /webhooks/{extractor|scheduler}/:id: the endpoints, without their secrets. */
export function listWebhooks(owner: Pick<WebhookOwner, 'kind' | 'id'>) {
  return apiRequest(webhookOwnerPath(owner), { schema: webhookEndpointListSchema, quiet: true });
}

export function useWebhooks(owner: Pick<WebhookOwner, 'kind' | 'id'>) {
  return useQuery({ queryKey: webhooksQueryKey(owner), queryFn: () => listWebhooks(owner), staleTime: 0 });
}
