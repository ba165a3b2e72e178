import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { queryOperatorSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const listSchema = z.array(queryOperatorSchema);

/** GET /query/datasetoperator: the filter operators; they never change while the SPA runs. */
export function listQueryOperators() {
  return apiRequest('/query/datasetoperator', { schema: listSchema, quiet: true });
}

export const queryOperatorsQueryOptions = queryOptions({
  queryKey: ['query-operators'] as const,
  queryFn: listQueryOperators,
  staleTime: Infinity,
});

export function useQueryOperators() {
  return useQuery(queryOperatorsQueryOptions);
}
