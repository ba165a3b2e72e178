import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { schedulerDtoSchema, type SchedulerDto } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const listSchema = z.array(schedulerDtoSchema);

export const schedulerListQueryKey = ['schedulers'] as const;

/** GET /extractor/scheduler/ (quiet: it reloads in the background). */
export function listSchedulers(): Promise<SchedulerDto[]> {
  return apiRequest('/extractor/scheduler/', { schema: listSchema, quiet: true });
}

/** The dashboard panel's list, reloaded every `refreshIntervalMs` (next and last runs move on). */
export function schedulerListQueryOptions(refreshIntervalMs?: number) {
  return queryOptions({
    queryKey: schedulerListQueryKey,
    queryFn: listSchedulers,
    refetchInterval: refreshIntervalMs,
    staleTime: 0,
  });
}

export function useSchedulerList(refreshIntervalMs?: number) {
  return useQuery(schedulerListQueryOptions(refreshIntervalMs));
}
