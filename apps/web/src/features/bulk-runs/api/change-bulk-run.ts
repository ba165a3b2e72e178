import { bulkRunSchema, type BulkRunView } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { bulkRunPath } from './get-bulk-run';

/** POST /bulk-runs/:bulkRunId/retry: every failed or stopped row runs again. */
export function retryFailedRows(bulkRunId: string): Promise<BulkRunView> {
  return apiRequest(`${bulkRunPath(bulkRunId)}/retry`, { method: 'POST', schema: bulkRunSchema });
}

/** POST /bulk-runs/:bulkRunId/items/:position/retry: one failed or stopped row runs again. */
export function retryRow(bulkRunId: string, position: number): Promise<BulkRunView> {
  return apiRequest(`${bulkRunPath(bulkRunId)}/items/${position}/retry`, {
    method: 'POST',
    schema: bulkRunSchema,
  });
}

/** POST /bulk-runs/:bulkRunId/cancel: the rows not started yet are cancelled; runs going finish. */
export function cancelBulkRun(bulkRunId: string): Promise<BulkRunView> {
  return apiRequest(`${bulkRunPath(bulkRunId)}/cancel`, { method: 'POST', schema: bulkRunSchema });
}
