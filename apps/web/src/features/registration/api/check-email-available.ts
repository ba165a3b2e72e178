import { queryOptions } from '@tanstack/react-query';
import { isEmailValidResponseSchema } from '@pagewright/shared/account-screens';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/user/isEmailValid/:email: true means nobody uses the address yet. */
export function checkEmailAvailable(email: string): Promise<boolean> {
  return apiRequest(`/user/isEmailValid/${encodeURIComponent(email)}`, {
    schema: isEmailValidResponseSchema,
    anonymous: true,
    quiet: true,
  });
}

export function emailAvailabilityQueryOptions(email: string) {
  return queryOptions({
    queryKey: ['registration', 'email-available', email],
    queryFn: () => checkEmailAvailable(email),
    staleTime: 10_000,
  });
}
