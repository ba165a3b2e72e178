import { queryFileResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /query/file/{id}: a FILE cell's stored file, its name and its content in base64. */
export function getQueryFile(fileId: string) {
  return apiRequest(`/query/file/${encodeURIComponent(fileId)}`, { schema: queryFileResponseSchema });
}
