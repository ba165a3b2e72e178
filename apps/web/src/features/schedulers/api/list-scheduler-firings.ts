import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { schedulerFiringDtoSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const listSchema = z.array(schedulerFiringDtoSchema);

export const schedulerFiringsQueryKey = (schedulerId: string) => ['scheduler-firings', schedulerId] as const;

/** GET /extractor/scheduler/{id}/firings: the runs its latest firings started or skipped, newest first. */
export function listSchedulerFirings(schedulerId: string) {
  return apiRequest(`/extractor/scheduler/${encodeURIComponent(schedulerId)}/firings`, {
    schema: listSchema,
    quiet: true,
  });
}

export function useSchedulerFirings(schedulerId: string) {
  return useQuery({
    queryKey: schedulerFiringsQueryKey(schedulerId),
    queryFn: () => listSchedulerFirings(schedulerId),
    staleTime: 0,
  });
}
