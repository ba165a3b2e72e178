import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryResultSchema, type QueryResult } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** Which rows step 4 shows: the draft's result, or (non-custom datasets) the dataset's rows as stored. */
export type ResultSource = { kind: 'query' } | { kind: 'dataset'; datasetId: string };

/** GET /query/showqueryresult or /query/showextractoractiondata: one page (from 0) and totalOfRows. */
export function getQueryResult(source: ResultSource, page: number, size: number): Promise<QueryResult> {
  const paging = new URLSearchParams({ page: String(page), size: String(size) });
  if (source.kind === 'dataset') paging.set('datasetId', source.datasetId);
  const path = source.kind === 'query' ? '/query/showqueryresult' : '/query/showextractoractiondata';
  return apiRequest(`${path}?${paging.toString()}`, { schema: queryResultSchema, quiet: true });
}

/**
 * A page of the result. `revision` changes whenever the draft changed (a new run of the wizard's
 * step 3), so an older page is never taken for the current one; the last page shows while the next loads.
 */
export function queryResultQueryOptions(source: ResultSource, revision: number, page: number, size: number) {
  return queryOptions({
    queryKey: ['query-result', source, revision, page, size] as const,
    queryFn: () => getQueryResult(source, page, size),
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 60_000,
  });
}

export function useQueryResult(source: ResultSource, revision: number, page: number, size: number) {
  return useQuery(queryResultQueryOptions(source, revision, page, size));
}
