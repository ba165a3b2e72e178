import { messageResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { runPath } from './get-run';

/** POST .../step/:sequence/locator: the selector a fallback found becomes the step's own. */
export function adoptLocator(runId: string, sequence: number): Promise<{ message: string }> {
  return apiRequest(`${runPath(runId)}/step/${sequence}/locator`, {
    method: 'POST',
    schema: messageResponseSchema,
  });
}
