import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createdApiKeySchema, type CreateApiKeyRequest, type CreatedApiKey } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { apiKeysQueryKey } from './list-api-keys';

/** POST /api/user/api-keys: the answer holds the key, this once. */
export function createApiKey(request: CreateApiKeyRequest): Promise<CreatedApiKey> {
  return apiRequest('/user/api-keys', { method: 'POST', body: request, schema: createdApiKeySchema });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
