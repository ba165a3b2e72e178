import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/user/confirmation?token=: 200 with the success text as a plain string, 400 'Invalid Token'. */
export function confirmRegistration(token: string): Promise<string> {
  return apiRequest(`/user/confirmation?token=${encodeURIComponent(token)}`, {
    schema: z.string(),
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
