import { queryFilterStepResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /query/datasetfieldqueryForFilter: step 3, the fields that can be filtered and the draft's filters. */
export function getQueryFilterStep() {
  return apiRequest('/query/datasetfieldqueryForFilter', {
    method: 'POST',
    schema: queryFilterStepResponseSchema,
  });
}
