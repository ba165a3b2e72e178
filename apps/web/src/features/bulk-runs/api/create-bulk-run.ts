import { bulkRunSchema, type CreateBulkRun } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /extractor/:id/bulk-runs: every row is checked first; a 400 names the row and the input. */
export function createBulkRun(extractorId: string, source: CreateBulkRun) {
  return apiRequest(`/extractor/${encodeURIComponent(extractorId)}/bulk-runs`, {
    method: 'POST',
    body: source,
    schema: bulkRunSchema,
  });
}
