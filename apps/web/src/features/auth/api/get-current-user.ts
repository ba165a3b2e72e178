import type { CurrentUserResponse } from '@pagewright/shared';
import { currentUserResponseSchema } from '@pagewright/shared/account-screens';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/user/ */
export function getCurrentUser(): Promise<CurrentUserResponse> {
  return apiRequest('/user/', { schema: currentUserResponseSchema, quiet: true });
}
