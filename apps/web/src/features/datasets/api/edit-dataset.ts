import { datasetEditResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /dataset/edit?datasetId=: opens the caller's draft on a saved dataset. */
export function editDataset(datasetId: string) {
  return apiRequest(`/dataset/edit?datasetId=${encodeURIComponent(datasetId)}`, {
    schema: datasetEditResponseSchema,
  });
}
