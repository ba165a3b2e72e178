import { messageResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /query/{id}. */
export function deleteQuery(queryId: string) {
  return apiRequest(`/query/${encodeURIComponent(queryId)}`, {
    method: 'DELETE',
    schema: messageResponseSchema,
  });
}
