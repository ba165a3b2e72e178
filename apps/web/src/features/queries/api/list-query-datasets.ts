import { z } from 'zod';
import { queryDatasetSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const listSchema = z.array(queryDatasetSchema);

/** GET /query/datasetquery: step 1's datasets, each with whether it holds rows yet. */
export function listQueryDatasets() {
  return apiRequest('/query/datasetquery', { schema: listSchema });
}
