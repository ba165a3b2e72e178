import { messageResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /dataset/deletedataset?datasetId=: the dataset and its rows (409 while a query uses it). */
export function deleteDataset(datasetId: string) {
  return apiRequest(`/dataset/deletedataset?datasetId=${encodeURIComponent(datasetId)}`, {
    schema: messageResponseSchema,
  });
}
