import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { datasetDtoSchema, type DatasetDto } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const listSchema = z.array(datasetDtoSchema);

export const datasetListQueryKey = ['datasets'] as const;

/** GET /dataset/datasetdashboard (quiet: it reloads in the background). */
export function listDatasets(): Promise<DatasetDto[]> {
  return apiRequest('/dataset/datasetdashboard', { schema: listSchema, quiet: true });
}

/** The dashboard panel's list, reloaded every `refreshIntervalMs` while on screen (row counts change with runs). */
export function datasetListQueryOptions(refreshIntervalMs: number) {
  return queryOptions({
    queryKey: datasetListQueryKey,
    queryFn: listDatasets,
    refetchInterval: refreshIntervalMs,
    staleTime: 0,
  });
}

export function useDatasetList(refreshIntervalMs: number) {
  return useQuery(datasetListQueryOptions(refreshIntervalMs));
}
