import { loginResponseSchema, type LoginRequest, type LoginResponse } from '@pagewright/shared';
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
