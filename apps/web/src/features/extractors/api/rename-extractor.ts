import { savedExtractorSchema, type RenameExtractorRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /extractor/rename: name and description (the viewer e-mail cannot change). */
export function renameExtractor(request: RenameExtractorRequest) {
  return apiRequest('/extractor/rename', { method: 'POST', body: request, schema: savedExtractorSchema });
}
