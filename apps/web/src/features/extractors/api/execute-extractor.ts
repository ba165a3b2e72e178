import { executeExtractorResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /extractor/execute/:id: starts a run (409 while one runs or while one of its asks waits). */
export function executeExtractor(id: string) {
  return apiRequest(`/extractor/execute/${encodeURIComponent(id)}`, {
    schema: executeExtractorResponseSchema,
    quiet: true,
  });
}
