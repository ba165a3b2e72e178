import { extractorListItemSchema, type StartExtractorRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** The fields POST /extractor/start and /extractor/rename answer. */
export const savedItemSchema = extractorListItemSchema.pick({
  id: true,
  name: true,
  description: true,
  extractorType: true,
  viewerEmail: true,
  status: true,
});

/** POST /extractor/start: creates the item (409 NAME_EXISTS when the name is used for that type). */
export function startExtractor(request: StartExtractorRequest) {
  return apiRequest('/extractor/start', { method: 'POST', body: request, schema: savedItemSchema });
}
