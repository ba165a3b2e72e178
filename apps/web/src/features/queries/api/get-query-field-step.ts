import { queryFieldStepResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /query/datasetfieldquery: step 2, the dataset's fields and the draft's chosen ones. */
export function getQueryFieldStep() {
  return apiRequest('/query/datasetfieldquery', { method: 'POST', schema: queryFieldStepResponseSchema });
}
