import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryResultSchema, type QueryResult } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * GET /query/showqueryresult: one page (from 0) of the draft's result and totalOfRows. Every dataset,
 * custom or F-engine, is read through a query's fields and filters (docs/decisions.md, issue 25).
 */
export function getQueryResult(page: number, size: number): Promise<QueryResult> {
  const paging = new URLSearchParams({ page: String(page), size: String(size) });
  return apiRequest(`/query/showqueryresult?${paging.toString()}`, {
    schema: queryResultSchema,
    quiet: true,
  });
}

/**
 * A page of the result. `revision` changes whenever the draft changed (a new run of the wizard's
 * step 3), so an older page is never taken for the current one; the last page shows while the next loads.
 */
export function queryResultQueryOptions(revision: number, page: number, size: number) {
  return queryOptions({
    queryKey: ['query-result', revision, page, size] as const,
    queryFn: () => getQueryResult(page, size),
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 60_000,
  });
}

export function useQueryResult(revision: number, page: number, size: number) {
  return useQuery(queryResultQueryOptions(revision, page, size));
}
