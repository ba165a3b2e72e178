import { copyExtractorResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /extractor/copy/:id: a copy with the whole flow, named "<name> (copy)", "(copy 2)"… */
export function copyExtractor(id: string) {
  return apiRequest(`/extractor/copy/${encodeURIComponent(id)}`, {
    method: 'POST',
    schema: copyExtractorResponseSchema,
  });
}
