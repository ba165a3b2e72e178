import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { datasetDtoSchema, queryDtoSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * The datasets and saved queries a bulk run may take its rows from: the same lists the dashboard
 * panels show (GET /dataset/datasetdashboard, /query/querydashboard), read once when the dialog's
 * tab opens (features do not share their calls, so these are the bulk-run dialog's own).
 */
const datasetsSchema = z.array(datasetDtoSchema);
const queriesSchema = z.array(queryDtoSchema);

export function useDatasetChoices(isEnabled: boolean) {
  return useQuery({
    queryKey: ['bulk-runs', 'sources', 'datasets'] as const,
    queryFn: () => apiRequest('/dataset/datasetdashboard', { schema: datasetsSchema, quiet: true }),
    enabled: isEnabled,
    staleTime: 0,
  });
}

export function useQueryChoices(isEnabled: boolean) {
  return useQuery({
    queryKey: ['bulk-runs', 'sources', 'queries'] as const,
    queryFn: () => apiRequest('/query/querydashboard', { schema: queriesSchema, quiet: true }),
    enabled: isEnabled,
    staleTime: 0,
  });
}
