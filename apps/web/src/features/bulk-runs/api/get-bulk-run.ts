import { queryOptions, useQuery } from '@tanstack/react-query';
import { bulkRunSchema, type BulkRunView } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** While a bulk run is RUNNING its page reads it again this often. */
export const BULK_RUN_REFRESH_INTERVAL_MS = 2_000;

export const bulkRunQueryKey = (bulkRunId: string) => ['bulk-runs', bulkRunId] as const;

export const bulkRunPath = (bulkRunId: string) => `/bulk-runs/${encodeURIComponent(bulkRunId)}`;

/** GET /bulk-runs/:bulkRunId (quiet: the page shows its own progress). */
export function getBulkRun(bulkRunId: string): Promise<BulkRunView> {
  return apiRequest(bulkRunPath(bulkRunId), { schema: bulkRunSchema, quiet: true });
}

export function bulkRunQueryOptions(bulkRunId: string) {
  return queryOptions({
    queryKey: bulkRunQueryKey(bulkRunId),
    queryFn: () => getBulkRun(bulkRunId),
    refetchInterval: (query) =>
      query.state.data?.status === 'RUNNING' ? BULK_RUN_REFRESH_INTERVAL_MS : false,
    staleTime: 0,
  });
}

export function useBulkRun(bulkRunId: string) {
  return useQuery(bulkRunQueryOptions(bulkRunId));
}
