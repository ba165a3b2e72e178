import { queryOptions, type Query } from '@tanstack/react-query';
import {
  SCREEN_SHARE_POLL_AFTER_FAILURE_MS,
  SCREEN_SHARE_POLL_MS,
  screenShareViewSchema,
  type ScreenShareView,
} from '@pagewright/shared';
import { apiRequest, isApiError } from '../../../lib/api-client';

const tokenPath = (token: string) => `/extractor/token/${encodeURIComponent(token)}`;

/** GET /api/extractor/token/:token (quiet, no session: the token is the credential). */
export function getScreenShare(token: string, signal?: AbortSignal): Promise<ScreenShareView> {
  return apiRequest(tokenPath(token), {
    schema: screenShareViewSchema,
    anonymous: true,
    quiet: true,
    signal,
  });
}

/** A 404 means the link is unknown, expired or withdrawn: asking again cannot change that. */
export function isLinkGone(error: unknown): boolean {
  return isApiError(error, 404);
}

/**
 * The polling rule (automation spec §4, §9): every 3 s while the run is EXECUTING, every 5 s after a
 * failed load (the last good view stays on screen), no more once the run has ended or the link is gone.
 */
export function screenSharePollInterval(state: {
  status: 'pending' | 'error' | 'success';
  data: ScreenShareView | undefined;
  error: unknown;
}): number | false {
  if (state.status === 'error') return isLinkGone(state.error) ? false : SCREEN_SHARE_POLL_AFTER_FAILURE_MS;
  if (state.data === undefined) return false;
  return state.data.status === 'EXECUTING' ? SCREEN_SHARE_POLL_MS : false;
}

export function screenShareQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['screen-share', token],
    queryFn: ({ signal }) => getScreenShare(token, signal),
    refetchInterval: (query: Query<ScreenShareView>) => screenSharePollInterval(query.state),
    // The viewer only watches: a hidden tab keeps up so it is current when looked at again.
    refetchIntervalInBackground: true,
    staleTime: 0,
    gcTime: 0,
  });
}

/** The page screenshot of the latest step of a sequence; `version` changes the URL when it changes. */
export function stepScreenUrl(token: string, sequence: number, version: string): string {
  return `/api${tokenPath(token)}/step/${sequence}/screen?at=${encodeURIComponent(version)}`;
}

export { tokenPath as screenShareTokenPath };
