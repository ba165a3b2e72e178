import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiKeySchema, type ApiKey } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

export const apiKeysQueryKey = ['user', 'api-keys'] as const;

/** GET /api/user/api-keys: the caller's keys, newest first (never the keys themselves). */
export function listApiKeys(): Promise<ApiKey[]> {
  return apiRequest('/user/api-keys', { schema: z.array(apiKeySchema), quiet: true });
}

export function useApiKeys() {
  return useQuery({ queryKey: apiKeysQueryKey, queryFn: listApiKeys });
}
