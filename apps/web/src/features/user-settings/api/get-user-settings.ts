import { queryOptions, useQuery } from '@tanstack/react-query';
import { allSettingsResponseSchema, defaultUserSettings, type UserSettings } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { getSession } from '../../../lib/session';

export const userSettingsQueryKey = ['user', 'settings'] as const;

/** GET /api/user/settings: every setting as a string, defaults filled in by the API (and here too). */
export async function getUserSettings(): Promise<UserSettings> {
  const stored = await apiRequest('/user/settings', { schema: allSettingsResponseSchema, quiet: true });
  return { ...defaultUserSettings(), ...stored };
}

export function userSettingsQueryOptions() {
  return queryOptions({ queryKey: userSettingsQueryKey, queryFn: getUserSettings });
}

/**
 * Starts the call while the code of a screen that waits for it (dashboard, builder) is still
 * loading, so both arrive together. Only when that screen will ask: with a session whose password
 * is not temporary (until it is changed, the API refuses settings).
 */
export function prefetchUserSettings(): void {
  const { accessToken, isTempPasswordSet } = getSession();
  if (accessToken !== null && !isTempPasswordSet) void queryClient.prefetchQuery(userSettingsQueryOptions());
}

export function useUserSettings(options: { isEnabled?: boolean } = {}) {
  return useQuery({ ...userSettingsQueryOptions(), enabled: options.isEnabled ?? true });
}
