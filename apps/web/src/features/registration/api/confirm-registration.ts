import { queryOptions } from '@tanstack/react-query';
import { messageResponseSchema, type MessageResponse } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/user/confirmation?token=: 200 with the success text, 400 'Invalid Token'. */
export function confirmRegistration(token: string): Promise<MessageResponse> {
  return apiRequest(`/user/confirmation?token=${encodeURIComponent(token)}`, {
    schema: messageResponseSchema,
    anonymous: true,
  });
}

/** A query, not an effect, so the one-time token is sent once even when the screen mounts twice. */
export function confirmRegistrationQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['registration', 'confirmation', token],
    queryFn: () => confirmRegistration(token),
    staleTime: Infinity,
    gcTime: 0,
  });
}
