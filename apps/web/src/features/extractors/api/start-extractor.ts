import { savedExtractorSchema, type StartExtractorRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /extractor/start: creates the item (409 NAME_EXISTS when the name is used for that type). */
export function startExtractor(request: StartExtractorRequest) {
  return apiRequest('/extractor/start', { method: 'POST', body: request, schema: savedExtractorSchema });
}
