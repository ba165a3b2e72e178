import { datasetDtoSchema, type RenameDatasetRequest } from '@pagewright/shared';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

const renamedSchema = datasetDtoSchema.extend({ message: z.string() });

/** POST /dataset/rename: name and description (409 NAME_EXISTS on a used name). */
export function renameDataset(request: RenameDatasetRequest) {
  return apiRequest('/dataset/rename', { method: 'POST', body: request, schema: renamedSchema });
}
