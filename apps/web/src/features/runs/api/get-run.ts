import { queryOptions, useQuery } from '@tanstack/react-query';
import { runDetailSchema, type RunDetail } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** While a run executes its steps are read again this often (besides every `run-status` event). */
export const RUN_REFRESH_INTERVAL_MS = 2_000;

export const runQueryKey = (runId: string) => ['runs', runId] as const;

export const runPath = (runId: string) => `/extractor/run/${encodeURIComponent(runId)}`;

/** GET /extractor/run/:runId (quiet: the dialog shows its own progress). */
export function getRun(runId: string): Promise<RunDetail> {
  return apiRequest(runPath(runId), { schema: runDetailSchema, quiet: true });
}

export function runQueryOptions(runId: string) {
  return queryOptions({
    queryKey: runQueryKey(runId),
    queryFn: () => getRun(runId),
    refetchInterval: (query) => (query.state.data?.status === 'EXECUTING' ? RUN_REFRESH_INTERVAL_MS : false),
    staleTime: 0,
  });
}

export function useRun(runId: string) {
  return useQuery(runQueryOptions(runId));
}
