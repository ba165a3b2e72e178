import type { LoginResponse } from '@pagewright/shared';
import { loginResponseSchema } from '@pagewright/shared/account-screens';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/fengine/exchange: the F-engine's signed token for a Pagewright session (remote-engine entry). */
export function exchangeEngineToken(token: string): Promise<LoginResponse> {
  return apiRequest('/auth/fengine/exchange', {
    method: 'POST',
    body: { token },
    schema: loginResponseSchema,
    anonymous: true,
  });
}
