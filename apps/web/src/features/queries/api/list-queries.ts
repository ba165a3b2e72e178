import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { queryDtoSchema, type QueryDto } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const listSchema = z.array(queryDtoSchema);

export const queryListQueryKey = ['queries'] as const;

/** GET /query/querydashboard (quiet: it reloads in the background). */
export function listQueries(): Promise<QueryDto[]> {
  return apiRequest('/query/querydashboard', { schema: listSchema, quiet: true });
}

export function queryListQueryOptions(refreshIntervalMs: number) {
  return queryOptions({
    queryKey: queryListQueryKey,
    queryFn: listQueries,
    refetchInterval: refreshIntervalMs,
    staleTime: 0,
  });
}

export function useQueryList(refreshIntervalMs: number) {
  return useQuery(queryListQueryOptions(refreshIntervalMs));
}
