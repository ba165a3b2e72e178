import { executeExtractorResponseSchema, type RunInputValues } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * Starts a run (409 while one runs or while one of its asks waits): GET /extractor/execute/:id,
 * or with values for the extractor's inputs POST (400 names an input of the wrong type).
 */
export function executeExtractor(id: string, inputs?: RunInputValues) {
  return apiRequest(`/extractor/execute/${encodeURIComponent(id)}`, {
    schema: executeExtractorResponseSchema,
    quiet: true,
    ...(inputs ? { method: 'POST' as const, body: { inputs } } : {}),
  });
}
