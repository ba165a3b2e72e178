import type { LoginResponse } from '@pagewright/shared';
import { loginResponseSchema } from '@pagewright/shared/account-screens';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/login-token/:token (screen-share executor entry). */
export function loginByToken(token: string): Promise<LoginResponse> {
  return apiRequest(`/auth/login-token/${encodeURIComponent(token)}`, {
    method: 'POST',
    schema: loginResponseSchema,
    anonymous: true,
  });
}
