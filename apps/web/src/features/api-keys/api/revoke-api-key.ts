import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponseSchema, type MessageResponse } from '@pagewright/shared';
import { apiRequest, errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { apiKeysQueryKey } from './list-api-keys';

/** DELETE /api/user/api-keys/:id */
export function revokeApiKey(id: string): Promise<MessageResponse> {
  return apiRequest(`/user/api-keys/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    schema: messageResponseSchema,
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(errorText(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
