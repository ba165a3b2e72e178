import { datasetFieldListResponseSchema, type DatasetFieldListRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /dataset/datasetfield: step 1 → Next, the draft's whole field list (ids of saved fields kept). */
export function setDatasetFields(request: DatasetFieldListRequest) {
  return apiRequest('/dataset/datasetfield', {
    method: 'POST',
    body: request,
    schema: datasetFieldListResponseSchema,
  });
}
