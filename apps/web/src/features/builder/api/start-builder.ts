import { extractorListItemSchema, type StartExtractorRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const startedSchema = extractorListItemSchema.pick({ id: true, name: true, extractorType: true });

/** POST /extractor/start: creates the item and makes it the current builder of its type. */
export function startBuilder(request: StartExtractorRequest) {
  return apiRequest('/extractor/start', { method: 'POST', body: request, schema: startedSchema });
}
