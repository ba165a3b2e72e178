import type { ForgotPasswordRequest, MessageResponse } from '@pagewright/shared';
import { messageResponseSchema } from '@pagewright/shared/account-screens';
import { apiRequest } from '../../../lib/api-client';

/** PUT /api/user/forgot: 200 'Please, check your email'; 400 'E-mail not found'. */
export function requestPasswordReset(request: ForgotPasswordRequest): Promise<MessageResponse> {
  return apiRequest('/user/forgot', {
    method: 'PUT',
    body: request,
    schema: messageResponseSchema,
    anonymous: true,
  });
}
