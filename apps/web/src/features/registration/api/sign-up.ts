import type { MessageResponse, SignUpRequest } from '@pagewright/shared';
import { messageResponseSchema } from '@pagewright/shared/account-screens';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/user: 201 'Please check your email.'; 409 EMAIL_EXISTS or 400 VALIDATION_ERROR with a field. */
export function signUp(request: SignUpRequest): Promise<MessageResponse> {
  return apiRequest('/user', {
    method: 'POST',
    body: request,
    schema: messageResponseSchema,
    anonymous: true,
  });
}
