import { datasetFieldListResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /dataset/datasetfieldlist: the draft's fields (a reloaded wizard takes them up again). */
export function getDatasetFieldList() {
  return apiRequest('/dataset/datasetfieldlist', { schema: datasetFieldListResponseSchema });
}
