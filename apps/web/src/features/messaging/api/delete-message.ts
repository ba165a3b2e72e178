import { messageResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /message/{id}: off the caller's own list; the other side keeps theirs. */
export function deleteMessage(id: string) {
  return apiRequest(`/message/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    schema: messageResponseSchema,
  });
}
