import { messageResponseSchema, type ChangePasswordRequest, type MessageResponse } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** PUT /api/user/password: 400 PASSWORD_NOT_VALID; 422 with a text to show (e.g. same as current). */
export function changePassword(request: ChangePasswordRequest): Promise<MessageResponse> {
  return apiRequest('/user/password', { method: 'PUT', body: request, schema: messageResponseSchema });
}
