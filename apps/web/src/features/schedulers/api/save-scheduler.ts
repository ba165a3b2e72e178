import { z } from 'zod';
import { schedulerDtoSchema, type SaveSchedulerRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const savedSchema = schedulerDtoSchema.extend({ message: z.string() });

/** PUT /extractor/scheduler/: creates (no id) or replaces a scheduler (409 NAME_EXISTS on a used name). */
export function saveScheduler(request: SaveSchedulerRequest) {
  return apiRequest('/extractor/scheduler/', { method: 'PUT', body: request, schema: savedSchema });
}
