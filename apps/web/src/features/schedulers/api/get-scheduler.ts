import { schedulerDtoSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /extractor/scheduler/{id}: the saved scheduler the wizard edits. */
export function getScheduler(schedulerId: string) {
  return apiRequest(`/extractor/scheduler/${encodeURIComponent(schedulerId)}`, {
    schema: schedulerDtoSchema,
  });
}
