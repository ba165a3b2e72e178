import { useQuery } from '@tanstack/react-query';
import { schedulerTimeZonesResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /extractor/scheduler/timezone: the IANA zones a scheduler can count in. */
export function getSchedulerTimeZones() {
  return apiRequest('/extractor/scheduler/timezone', {
    schema: schedulerTimeZonesResponseSchema,
    quiet: true,
  });
}

/** The zone list changes only with the server's Intl data: loaded once per tab. */
export function useSchedulerTimeZones() {
  return useQuery({
    queryKey: ['scheduler-time-zones'],
    queryFn: getSchedulerTimeZones,
    staleTime: Infinity,
  });
}
