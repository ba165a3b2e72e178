import { pendingAskActionSchema, type ExtractorType, type PendingAskAction } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * GET /extractor/getPendingAskActionToFill (quiet): the oldest question a run of that type waits
 * on, or null (204) when none does.
 */
export async function getPendingAsk(extractorType: ExtractorType): Promise<PendingAskAction | null> {
  const answer = await apiRequest<unknown>(
    `/extractor/getPendingAskActionToFill?extractorType=${encodeURIComponent(extractorType)}`,
    { quiet: true },
  );
  if (answer === undefined || answer === null) return null;
  const parsed = pendingAskActionSchema.safeParse(answer);
  if (!parsed.success) throw new Error('Unexpected answer from the server');
  return parsed.data;
}
