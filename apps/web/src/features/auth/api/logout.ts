import type { MessageResponse } from '@pagewright/shared';
import { messageResponseSchema } from '@pagewright/shared/account-screens';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/user/logout: revokes the refresh token. Never refreshes: the session is ending anyway. */
export function logout(refreshToken: string): Promise<MessageResponse> {
  return apiRequest('/user/logout', {
    method: 'POST',
    body: { refreshToken },
    schema: messageResponseSchema,
    skipRefresh: true,
    quiet: true,
  });
}
