import { queryFilterListResponseSchema, type QueryFilterInput } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /query/filterinputvalue: step 3 → Next, the draft's whole filter list (400 on a missing or bad value). */
export function setQueryFilters(filters: QueryFilterInput[]) {
  return apiRequest('/query/filterinputvalue', {
    method: 'POST',
    body: { filters },
    schema: queryFilterListResponseSchema,
  });
}
