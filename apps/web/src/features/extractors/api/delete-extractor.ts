import { messageResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /extractor/:id (409 while it runs, or with the spec's data-set text when a dataset uses it). */
export function deleteExtractor(id: string) {
  return apiRequest(`/extractor/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    schema: messageResponseSchema,
  });
}
