import { useInfiniteQuery } from '@tanstack/react-query';
import {
  BULK_RUN_ITEMS_PAGE_SIZE,
  bulkRunItemPageSchema,
  type BulkRunItemPage,
  type BulkRunItemQuery,
} from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { BULK_RUN_REFRESH_INTERVAL_MS, bulkRunPath, bulkRunQueryKey } from './get-bulk-run';

export type BulkRunItemFilter = BulkRunItemQuery['status'];

/** Every page of every filter of one bulk run: what a retry or the run's end makes stale. */
export const bulkRunItemsQueryKey = (bulkRunId: string) => [...bulkRunQueryKey(bulkRunId), 'items'] as const;

/** GET /bulk-runs/:bulkRunId/items: one page of rows after position `after` (quiet: polled). */
export function listBulkRunItems(
  bulkRunId: string,
  status: BulkRunItemFilter,
  after: number,
): Promise<BulkRunItemPage> {
  const query = new URLSearchParams({
    status,
    after: String(after),
    limit: String(BULK_RUN_ITEMS_PAGE_SIZE),
  });
  return apiRequest(`${bulkRunPath(bulkRunId)}/items?${query.toString()}`, {
    schema: bulkRunItemPageSchema,
    quiet: true,
  });
}

/** The results table, page by page ("Load more"), read again every 2 s while the bulk run goes. */
export function useBulkRunItems(bulkRunId: string, status: BulkRunItemFilter, isRunning: boolean) {
  return useInfiniteQuery({
    queryKey: [...bulkRunItemsQueryKey(bulkRunId), status] as const,
    queryFn: ({ pageParam }) => listBulkRunItems(bulkRunId, status, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextAfter ?? undefined,
    refetchInterval: isRunning ? BULK_RUN_REFRESH_INTERVAL_MS : false,
    staleTime: 0,
  });
}
