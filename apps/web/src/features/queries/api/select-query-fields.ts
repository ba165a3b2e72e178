import { queryFieldStepResponseSchema, type SelectQueryFieldsRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /query/fieldselected: step 2 → Next, the chosen fields in column order with their sort. */
export function selectQueryFields(request: SelectQueryFieldsRequest) {
  return apiRequest('/query/fieldselected', {
    method: 'POST',
    body: request,
    schema: queryFieldStepResponseSchema,
  });
}
