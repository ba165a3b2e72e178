import { queryEditResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /query/editquery?queryId=: opens the caller's draft on a saved CUSTOM query (409 otherwise). */
export function editQuery(queryId: string) {
  return apiRequest(`/query/editquery?queryId=${encodeURIComponent(queryId)}`, {
    schema: queryEditResponseSchema,
  });
}
