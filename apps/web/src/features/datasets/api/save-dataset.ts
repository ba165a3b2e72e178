import { saveDatasetResponseSchema, type SaveDatasetRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /dataset/save?datasetId=: step 3's check boxes; fields, mappings and table are written at once. */
export function saveDataset(datasetId: string, request: SaveDatasetRequest) {
  return apiRequest(`/dataset/save?datasetId=${encodeURIComponent(datasetId)}`, {
    method: 'POST',
    body: request,
    schema: saveDatasetResponseSchema,
  });
}
