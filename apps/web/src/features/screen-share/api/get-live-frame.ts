import { screenShareLiveFrameSchema, type ScreenShareLiveFrame } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { screenShareTokenPath } from './get-screen-share';

/**
 * GET /api/extractor/token/:token/live (quiet, no session): the shared session's page as it looks
 * now; 404 while it has no live page (the builder is not recording that run).
 */
export function getSharedLiveFrame(token: string, signal?: AbortSignal): Promise<ScreenShareLiveFrame> {
  return apiRequest(`${screenShareTokenPath(token)}/live`, {
    schema: screenShareLiveFrameSchema,
    anonymous: true,
    quiet: true,
    signal,
  });
}
