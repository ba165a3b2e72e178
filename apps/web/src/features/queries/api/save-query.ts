import { saveQueryResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /query/save?queryId=: writes the draft (its fields and filters) and ends it. */
export function saveQuery(queryId: string) {
  return apiRequest(`/query/save?queryId=${encodeURIComponent(queryId)}`, {
    schema: saveQueryResponseSchema,
  });
}
