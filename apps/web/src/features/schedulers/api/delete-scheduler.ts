import { messageResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /extractor/scheduler/{id}: the scheduler stops firing; the runs it started stay. */
export function deleteScheduler(schedulerId: string) {
  return apiRequest(`/extractor/scheduler/${encodeURIComponent(schedulerId)}`, {
    method: 'DELETE',
    schema: messageResponseSchema,
  });
}
