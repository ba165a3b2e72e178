import { messageResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** PUT /extractor/clearShowErrorMessage/:id: the errors the list has shown are not shown again. */
export function clearShownErrors(id: string) {
  return apiRequest(`/extractor/clearShowErrorMessage/${encodeURIComponent(id)}`, {
    method: 'PUT',
    schema: messageResponseSchema,
    quiet: true,
  });
}
