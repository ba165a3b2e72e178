import { useQuery } from '@tanstack/react-query';
import { bulkRunListSchema, type BulkRunList } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

export const bulkRunListQueryKey = (extractorId: string) => ['bulk-runs', 'of', extractorId] as const;

/** GET /bulk-runs?extractorId=: the extractor's bulk runs, newest first (quiet: a side list). */
export function listBulkRuns(extractorId: string): Promise<BulkRunList> {
  return apiRequest(`/bulk-runs?extractorId=${encodeURIComponent(extractorId)}`, {
    schema: bulkRunListSchema,
    quiet: true,
  });
}

export function useBulkRunList(extractorId: string) {
  return useQuery({
    queryKey: bulkRunListQueryKey(extractorId),
    queryFn: () => listBulkRuns(extractorId),
    staleTime: 0,
  });
}
