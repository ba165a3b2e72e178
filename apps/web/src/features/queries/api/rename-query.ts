import { z } from 'zod';
import { queryDtoSchema, type RenameQueryRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const renamedSchema = queryDtoSchema.extend({ message: z.string() });

/** POST /query/rename: name and description; the answer's message is 'Query renamed successfully.'. */
export function renameQuery(request: RenameQueryRequest) {
  return apiRequest('/query/rename', { method: 'POST', body: request, schema: renamedSchema });
}
