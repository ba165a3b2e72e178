import { removeQueryFieldResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /query/removefield?queryFilterId=: a filter the draft holds leaves it. */
export function removeQueryFilter(queryFilterId: string) {
  return apiRequest(`/query/removefield?queryFilterId=${encodeURIComponent(queryFilterId)}`, {
    method: 'DELETE',
    schema: removeQueryFieldResponseSchema,
  });
}
