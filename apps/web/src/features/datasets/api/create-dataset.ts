import { createDatasetResponseSchema, type CreateDatasetRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /dataset/createdataset: opens the caller's draft on a new dataset (409 NAME_EXISTS on a used name). */
export function createDataset(request: CreateDatasetRequest) {
  return apiRequest('/dataset/createdataset', {
    method: 'POST',
    body: request,
    schema: createDatasetResponseSchema,
  });
}
