import { datasetLabelColumnResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /dataset/datasetlabelcolumn: step 2's rows (the caller's extractors) and the draft's choice. */
export function getDatasetLabelColumns() {
  return apiRequest('/dataset/datasetlabelcolumn', { schema: datasetLabelColumnResponseSchema });
}
