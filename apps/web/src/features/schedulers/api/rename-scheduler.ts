import { z } from 'zod';
import { schedulerDtoSchema, type RenameSchedulerRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const renamedSchema = schedulerDtoSchema.extend({ message: z.string() });

/** POST /extractor/scheduler/rename: name and description (409 NAME_EXISTS on a used name). */
export function renameScheduler(request: RenameSchedulerRequest) {
  return apiRequest('/extractor/scheduler/rename', { method: 'POST', body: request, schema: renamedSchema });
}
