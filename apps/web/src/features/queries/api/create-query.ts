import { createQueryResponseSchema, type CreateQueryRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /query/createquery: opens the caller's draft on a new query (409 NAME_EXISTS on a used name). */
export function createQuery(request: CreateQueryRequest) {
  return apiRequest('/query/createquery', {
    method: 'POST',
    body: request,
    schema: createQueryResponseSchema,
  });
}
