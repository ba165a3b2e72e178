import { messageResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** PUT /query/cancelquery: drops the caller's draft (a saved query stays as it was). */
export function cancelQuery() {
  return apiRequest('/query/cancelquery', { method: 'PUT', schema: messageResponseSchema });
}
