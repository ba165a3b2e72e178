import { queryDatasetSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /query/dataset: step 1 → Next (another dataset than before clears the fields and filters). */
export function chooseQueryDataset(datasetId: string) {
  return apiRequest('/query/dataset', { method: 'POST', body: { datasetId }, schema: queryDatasetSchema });
}
