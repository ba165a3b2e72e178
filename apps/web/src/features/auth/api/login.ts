import type { LoginRequest, LoginResponse } from '@pagewright/shared';
import { loginResponseSchema } from '@pagewright/shared/account-screens';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth */
export function login(credentials: LoginRequest): Promise<LoginResponse> {
  return apiRequest('/auth', {
    method: 'POST',
    body: credentials,
    schema: loginResponseSchema,
    anonymous: true,
  });
}
